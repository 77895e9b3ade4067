/**
 * Faults while seek changes files, end to end: the real seek process edits a large file and is
 * SIGKILLed at several points of the write; a full disk fails write_file and edit_file. The file
 * must hold exactly its old or its new content, and the model must be told what happened.
 */
import { createHash, randomInt } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { mountSmallTmpfs } from '../unit/tools/small-tmpfs.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function deepseekEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const removeProject = (root: string): void => rmSync(dirname(root), { recursive: true, force: true });

const BIG_MIB = 50;
const LINE = 'the quick brown fox jumps over the lazy dog 0123456789\n';
const OLD_HEADER = 'HEADER-OLD-VERSION';
const NEW_HEADER = 'HEADER-NEW-VERSION';

/** Writes the large file with OLD_HEADER on its first line; returns its content hash. */
function writeBigFile(file: string, header: string): string {
  const fd = openSync(file, 'w');
  const block = Buffer.from(LINE.repeat(Math.floor((1024 * 1024) / LINE.length)));
  try {
    writeSync(fd, `${header}\n`);
    for (let index = 0; index < BIG_MIB; index += 1) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
  return sha256(file);
}

const TEMP_NAME = /^\.big\.txt\.seek-\d+-[0-9a-f]{8}\.tmp$/;

/**
 * How far the edit's write has got: the size of its temp file while there is one; with an
 * in-place writer (no temp file), the target's size once it differs from the original; -1 before
 * anything was written.
 */
function bytesWritten(root: string, originalSize: number): { bytes: number; viaTemp: boolean } {
  const temp = readdirSync(root).find((name) => TEMP_NAME.test(name));
  if (temp !== undefined) {
    try {
      return { bytes: statSync(join(root, temp)).size, viaTemp: true };
    } catch {
      // renamed meanwhile: fall through to the target
    }
  }
  const size = statSync(join(root, 'big.txt')).size;
  return { bytes: size === originalSize ? -1 : size, viaTemp: false };
}

describe('SIGKILL while edit_file writes a large file', () => {
  it(`leaves exactly the old or the new content, at every kill point (${BIG_MIB} MiB)`, async () => {
    const { root, home } = makeProject();
    try {
      const file = join(root, 'big.txt');
      const newHash = writeBigFile(file, NEW_HEADER);
      const oldHash = writeBigFile(file, OLD_HEADER);
      const size = statSync(file).size;
      // Kill points, in bytes of the write: as soon as it starts, two random places, and once all
      // data is written (during the fsync before the rename, or just after it).
      const killPoints = [0, randomInt(1, size), randomInt(1, size), size];
      const outcomes: { killAt: number; observed: number; viaTemp: boolean; result: 'old' | 'new' | 'other' }[] = [];
      for (const killAt of killPoints) {
        server.reset();
        if (sha256(file) !== oldHash) writeBigFile(file, OLD_HEADER);
        server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'big.txt', old_string: OLD_HEADER, new_string: NEW_HEADER } }] }, { text: 'edited' });
        let observed = -1;
        let viaTemp = false;
        await runSeek(['-p', 'edit big.txt', '--yolo'], {
          cwd: root,
          env: deepseekEnv(home),
          timeoutMs: 120_000,
          onSpawn: (child) => {
            const watch = (): void => {
              if (child.exitCode !== null || child.signalCode !== null) return;
              const progress = bytesWritten(root, size);
              if (progress.bytes >= killAt) {
                observed = progress.bytes;
                viaTemp = progress.viaTemp;
                child.kill('SIGKILL');
                return;
              }
              setTimeout(watch, 1);
            };
            watch();
          },
        });
        const hash = sha256(file);
        outcomes.push({ killAt, observed, viaTemp, result: hash === oldHash ? 'old' : hash === newHash ? 'new' : 'other' });
      }
      expect(outcomes.filter((outcome) => outcome.result === 'other')).toEqual([]);
      // At least one kill landed mid-write (a temp file existed), so the test tested something.
      expect(outcomes.some((outcome) => outcome.viaTemp)).toBe(true);

      // The next edit removes the temp files the killed runs left, and completes.
      server.reset();
      writeBigFile(file, OLD_HEADER);
      server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'big.txt', old_string: OLD_HEADER, new_string: NEW_HEADER } }] }, { text: 'edited' });
      const final = await runSeek(['-p', 'edit big.txt', '--yolo'], { cwd: root, env: deepseekEnv(home), timeoutMs: 120_000 });
      expect(final.code).toBe(0);
      expect(sha256(file)).toBe(newHash);
      expect(readdirSync(root).filter((name) => TEMP_NAME.test(name))).toEqual([]);
    } finally {
      removeProject(root);
    }
  }, 600_000);
});

describe('a full disk', () => {
  it('fails write_file and edit_file without touching the originals, and tells the model so', async (context) => {
    const { root, home } = makeProject();
    // The project holds the small disk as its `disk/` folder.
    const disk = join(root, 'disk');
    const tmpfs = mountSmallTmpfs(2 * 1024 * 1024, disk);
    if ('skip' in tmpfs) {
      removeProject(root);
      return context.skip(tmpfs.skip);
    }
    try {
      const file = join(disk, 'notes.txt');
      writeFileSync(file, `TITLE\n${'0123456789abcdef\n'.repeat(60_000)}`); // about 1 MiB
      const before = sha256(file);
      // Both would make the file about 3 MiB: in place, they used to leave a torn 2 MiB file.
      const grow = { path: 'disk/notes.txt', old_string: '0123456789abcdef', new_string: '0123456789abcdef'.repeat(3), replace_all: true };
      server.enqueue(
        { toolCalls: [{ name: 'edit_file', arguments: grow }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'disk/notes.txt', content: 'x'.repeat(3 * 1024 * 1024) } }] },
        { text: 'The disk is full.' },
      );
      const run = await runSeek(['-p', 'edit the notes', '--yolo'], { cwd: root, env: deepseekEnv(home), timeoutMs: 60_000 });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('The disk is full.\n');
      const toolResults = server.requests.slice(1).map((request) => request.body.messages.at(-1));
      expect(toolResults.map((message: { role: string }) => message.role)).toEqual(['tool', 'tool']);
      for (const message of toolResults) {
        expect(message.content).toContain('No space left on device while writing disk/notes.txt; the original file is unchanged.');
      }
      expect(sha256(file)).toBe(before);
      expect(readdirSync(disk)).toEqual(['notes.txt']);
    } finally {
      tmpfs.remove();
      removeProject(root);
    }
  }, 120_000);
});

describe('background jobs', () => {
  it('end with seek, and their private log directory goes with them', async () => {
    const { root, home } = makeProject();
    const marker = `sleep 1000.${randomInt(1_000_000)}`;
    server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: `${marker}`, run_in_background: true } }] },
      { text: 'started' },
    );
    const run = await runSeek(['-p', 'start a server', '--yolo'], { cwd: root, env: { ...deepseekEnv(home), TMPDIR: home } });
    expect(run.code).toBe(0);
    const started = server.requests[1]!.body.messages.at(-1).content as string;
    const logFile = /output is written to (\S+)/.exec(started)![1]!;
    expect(logFile.startsWith(home)).toBe(true);
    // Gone once seek has exited: the directory, and the job (found by its unique argument).
    expect(readdirSync(home).filter((name) => name.startsWith('seek-bg-'))).toEqual([]);
    const alive = (): boolean =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .some((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(marker);
          } catch {
            return false;
          }
        });
    // SIGTERM was sent before seek exited; the job may take a moment to be scheduled and die.
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
  });
});
