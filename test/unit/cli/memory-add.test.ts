import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCommand, type MemoryCommandIO } from '../../../src/cli/commands/memory.js';
import { projectId } from '../../../src/config/paths.js';
import { MemoryStore } from '../../../src/memory/store.js';

let base: string;
let project: string;
let home: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-memory-add-'));
  project = join(base, 'repo');
  home = join(base, 'home');
  mkdirSync(project);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** `seek memory add ARGS` in-process, with or without a terminal; records output, exit status and editor runs. */
async function memoryAdd(terminal: boolean, ...args: string[]) {
  const run = { out: '', err: '', code: 0, edited: [] as string[] };
  const io: MemoryCommandIO = {
    out: (text) => void (run.out += text),
    err: (text) => void (run.err += text),
    cwd: () => project,
    env: { SEEK_HOME: home },
    setExitCode: (code) => void (run.code = code),
    terminal: () => terminal,
    edit: (text) => {
      run.edited.push(text);
      return { text: text.replace('tagline: ""', 'tagline: Written in the editor').replace(/\n$/, '\nThe content.\n'), file: '/nowhere', discard: () => {} };
    },
  };
  await createMemoryCommand(io).parseAsync(['add', ...args], { from: 'user' });
  return run;
}
const names = async () => (await new MemoryStore({ seekHome: home, projectId: projectId(project), projectRoot: project }).load()).entries.map((e) => [e.name, e.tagline]);

describe('seek memory add', () => {
  it('without a terminal never starts the editor: exit 2, naming the flags that are missing', async () => {
    const none = await memoryAdd(false, 'use-pnpm');
    expect(none).toEqual({
      out: '',
      err: 'seek: no terminal to run an editor in; give the entry with flags instead (--tagline and --content missing): seek memory add use-pnpm --tagline TEXT --content TEXT [--tags a,b]\n',
      code: 2,
      edited: [],
    });
    const half = await memoryAdd(false, 'use-pnpm', '--content', 'npm hoisting broke the build');
    expect(half.err).toContain('(--tagline missing)');
    expect(half).toMatchObject({ code: 2, edited: [] });
    expect(await names()).toEqual([]);
  });

  it('without a terminal saves at once when both --tagline and --content are given', async () => {
    const run = await memoryAdd(false, 'use-pnpm', '--tagline', 'The repo uses pnpm', '--content', 'npm hoisting broke the build');
    expect(run).toEqual({ out: 'remembered "use-pnpm"\n', err: '', code: 0, edited: [] });
    expect(await names()).toEqual([['use-pnpm', 'The repo uses pnpm']]);
  });

  it('in a terminal opens the editor for what is missing', async () => {
    const run = await memoryAdd(true, 'use-pnpm');
    expect(run.edited).toHaveLength(1);
    expect(run).toMatchObject({ out: 'remembered "use-pnpm"\n', code: 0 });
    expect(await names()).toEqual([['use-pnpm', 'Written in the editor']]);
  });
});
