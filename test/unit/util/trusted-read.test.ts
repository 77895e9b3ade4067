import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatLimit, readTrustedFile, readTrustedFileSync, type TrustedReadOptions } from '../../../src/util/trusted-read.js';

let base: string;
let project: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-trusted-'));
  project = join(base, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const options = (extra: Partial<TrustedReadOptions> = {}): TrustedReadOptions => ({ within: [project], maxBytes: 64, withinLabel: 'the project', ...extra });

/** Both readers give the same answer. */
async function read(path: string, extra: Partial<TrustedReadOptions> = {}) {
  const async = await readTrustedFile(path, options(extra));
  const sync = readTrustedFileSync(path, options(extra));
  expect(sync).toEqual(async);
  return async;
}

describe('the trusted reader', () => {
  it('reads a regular file inside the folder, through a link that stays inside', async () => {
    writeFileSync(join(project, 'a.md'), 'hello');
    symlinkSync(join(project, 'a.md'), join(project, 'b.md'));
    expect(await read(join(project, 'a.md'))).toMatchObject({ ok: true, text: 'hello', truncated: false, size: 5 });
    expect(await read(join(project, 'b.md'))).toMatchObject({ ok: true, text: 'hello', realPath: join(project, 'a.md') });
  });

  it('refuses links to /proc, /sys and /dev whatever the folder', async () => {
    symlinkSync('/proc/self/environ', join(project, 'env.md'));
    symlinkSync('/dev/zero', join(project, 'zero.md'));
    const environ = await readTrustedFile(join(project, 'env.md'), options({ within: ['/'] }));
    expect(environ).toMatchObject({ ok: false, code: 'system' });
    expect(environ.ok ? '' : environ.reason).toMatch(/^links to \/proc\/\d+\/environ: files under \/proc, \/sys and \/dev are never read$/);
    expect(await readTrustedFile(join(project, 'zero.md'), options({ within: ['/'] }))).toMatchObject({ ok: false, code: 'system' });
  });

  it('refuses a link out of the folder: a home secret, another project', async () => {
    const secret = join(base, 'credentials');
    writeFileSync(secret, 'SECRET');
    symlinkSync(secret, join(project, 'lint.md'));
    mkdirSync(join(base, 'other'));
    writeFileSync(join(base, 'other', 'x.md'), 'other');
    symlinkSync(join(base, 'other'), join(project, 'dir'));
    expect(await read(join(project, 'lint.md'))).toEqual({ ok: false, code: 'outside', realPath: secret, reason: `links to ${secret}, outside the project` });
    expect(await read(join(project, 'dir', 'x.md'))).toMatchObject({ ok: false, code: 'outside', realPath: join(base, 'other', 'x.md') });
    // A folder that is itself a link is resolved first: its files count as inside.
    symlinkSync(project, join(base, 'project-link'));
    writeFileSync(join(project, 'c.md'), 'c');
    expect(await readTrustedFile(join(project, 'c.md'), options({ within: [join(base, 'project-link')] }))).toMatchObject({ ok: true, text: 'c' });
  });

  it('refuses FIFOs and sockets without blocking, and passes directories and missing files as such', async () => {
    execFileSync('mkfifo', [join(project, 'pipe.md')]);
    const fifo = await read(join(project, 'pipe.md'));
    expect(fifo).toMatchObject({ ok: false, code: 'not-a-file' });
    expect(fifo.ok ? '' : fifo.reason).toContain('which is a FIFO, not a regular file');
    const socketPath = join(project, 'sock.md');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect(await read(socketPath)).toMatchObject({ ok: false, code: 'not-a-file' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    mkdirSync(join(project, 'folder.md'));
    expect(await read(join(project, 'folder.md'))).toMatchObject({ ok: false, code: 'directory' });
    symlinkSync(join(project, 'nothing'), join(project, 'dangling.md'));
    expect(await read(join(project, 'dangling.md'))).toMatchObject({ ok: false, code: 'missing' });
  });

  it('caps the size: refuses a larger file, or cuts it when asked', async () => {
    writeFileSync(join(project, 'big.md'), 'x'.repeat(100));
    expect(await read(join(project, 'big.md'))).toEqual({ ok: false, code: 'too-large', realPath: join(project, 'big.md'), reason: '100 bytes is over the 64 bytes limit' });
    expect(await read(join(project, 'big.md'), { oversize: 'truncate' })).toMatchObject({ ok: true, text: 'x'.repeat(64), truncated: true, size: 100 });
    writeFileSync(join(project, 'exact.md'), 'y'.repeat(64));
    expect(await read(join(project, 'exact.md'))).toMatchObject({ ok: true, truncated: false });
    expect(formatLimit(256 * 1024)).toBe('256 KiB');
  });
});
