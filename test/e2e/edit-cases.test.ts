/**
 * The edit case set (test/fixtures/edit-cases) end to end through the real process: one `seek -p
 * --yolo` run against the scripted model server, which sends every case's edit_file call as its
 * own turn, each case's file in its own folder of one project. A case is classified by the file
 * on disk afterwards and the tool result the model received: correct (the expected bytes and an
 * "Edited" result), refused (the file byte for byte unchanged and an error result), else wrong.
 * Held to the same bar as the in-process run (test/unit/tools/edit-cases.test.ts): at least 95% of
 * apply cases correct, every refuse case refused, nothing wrong. Cases whose arguments name no
 * usable relative path (argument-repair cases about the path itself) cannot be moved into a
 * folder and run in-process only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFileName, loadEditCases, type EditCase } from '../support/edit-cases.js';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});

/** The case's arguments with its path moved into the case's own folder, or undefined when it names none. */
function argsIn(item: EditCase, folder: string): Record<string, unknown> | undefined {
  for (const key of ['path', 'file_path'] as const) {
    const value = item.args[key];
    if (typeof value === 'string' && value !== '' && caseFileName(item) === value) return { ...item.args, [key]: `${folder}/${value}` };
  }
  return undefined;
}

describe('edit_file case set through seek -p', () => {
  it('applies at least 95% of apply cases, refuses every refuse case and writes nothing wrong', async () => {
    const runnable = loadEditCases()
      .map((item, n) => ({ item, folder: `case-${n}`, args: argsIn(item, `case-${n}`) }))
      .filter((entry): entry is { item: EditCase; folder: string; args: Record<string, unknown> } => entry.args !== undefined);
    const files = Object.fromEntries(runnable.map(({ item, folder }) => [`${folder}/${caseFileName(item)}`, item.file]));
    const { root, home } = makeProject(files);
    server.reset();
    server.enqueue(...runnable.map(({ args }) => ({ toolCalls: [{ name: 'edit_file', arguments: args }] })), { text: 'done' });
    const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
    const run = await runSeek(['-p', 'run the edits', '--yolo', '--max-turns', String(runnable.length + 5)], { cwd: root, env, timeoutMs: 240_000 });
    expect(run.code, run.stderr).toBe(0);

    const tally = { apply: 0, applied: 0, refuse: 0, refused: 0, wrong: [] as string[], missed: [] as string[] };
    runnable.forEach(({ item, folder }, n) => {
      const after = readFileSync(join(root, folder, caseFileName(item)));
      const result = String(server.requests[n + 1]!.body.messages.at(-1).content);
      const edited = result.startsWith('Edited ');
      const unchanged = after.equals(Buffer.from(item.file, 'utf8'));
      if (item.expect.kind === 'apply') {
        tally.apply += 1;
        if (edited && after.equals(Buffer.from(item.expect.content, 'utf8'))) tally.applied += 1;
        else if (!edited && unchanged) tally.missed.push(item.id);
        else tally.wrong.push(item.id);
      } else {
        tally.refuse += 1;
        if (!edited && unchanged) tally.refused += 1;
        else tally.wrong.push(item.id);
      }
    });
    const summary = `apply ${tally.applied}/${tally.apply}, refuse ${tally.refused}/${tally.refuse}, wrong ${tally.wrong.join(', ') || 0}, apply cases refused: ${tally.missed.join(', ') || 0}`;
    expect(runnable.length, summary).toBeGreaterThan(200);
    expect(tally.applied / tally.apply, summary).toBeGreaterThanOrEqual(0.95);
    expect(tally.refused, summary).toBe(tally.refuse);
    expect(tally.wrong, summary).toEqual([]);
    console.log(`edit cases through seek -p: ${summary}`);
  }, 300_000);
});
