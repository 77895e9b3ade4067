import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { InputEditor } from '../../../../src/tui/input/InputEditor.js';
import { createSlashCompleter } from '../../../../src/tui/input/slash-completer.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { currentBranch, welcomeLines } from '../../../../src/tui/state/welcome.js';
import { tempDir } from '../../../support/temp-dirs.js';
import { flush, KEYS, memoryHistory } from '../input/helpers.js';

const texts = (lines: ReturnType<typeof welcomeLines>) => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('welcomeLines', () => {
  it('names version, model, provider, mode, project, branch and directory, then three tips', () => {
    const rows = texts(welcomeLines({ version: '1.2.3', model: 'm1', provider: 'deepseek', mode: 'ask', projectRoot: '/w/app', branch: 'main', cwd: '/w/app/src' }, 80));
    expect(rows[0]).toBe('seek 1.2.3 · m1 via deepseek · mode ask');
    expect(rows[1]).toBe('project app (main) · /w/app/src');
    expect(rows.filter((row) => row.startsWith('  tip: '))).toHaveLength(3);
  });
  it('wraps to the width', () => {
    const rows = texts(welcomeLines({ version: '1', model: 'm', mode: 'ask', projectRoot: `/${'deep/'.repeat(20)}x`, cwd: `/${'deep/'.repeat(20)}x` }, 40));
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
  });
});

describe('currentBranch', () => {
  it('reads the branch of a checkout and of a linked worktree; undefined outside git', () => {
    const root = tempDir('seek-branch-');
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: root });
    expect(currentBranch(root)).toBe('trunk');
    const linked = join(root, 'linked');
    mkdirSync(join(root, '.git', 'worktrees', 'linked'), { recursive: true });
    writeFileSync(join(root, '.git', 'worktrees', 'linked', 'HEAD'), 'ref: refs/heads/seek/feature\n');
    mkdirSync(linked);
    writeFileSync(join(linked, '.git'), `gitdir: ${join(root, '.git', 'worktrees', 'linked')}\n`);
    expect(currentBranch(linked)).toBe('seek/feature');
    expect(currentBranch(tempDir('seek-nogit-'))).toBeUndefined();
  });
});

describe('completion menu: how many more', () => {
  const mounted: Array<{ unmount: () => void }> = [];
  afterEach(() => mounted.splice(0).forEach((view) => view.unmount()));
  const commands = Array.from({ length: 15 }, (_, index) => ({ name: `cmd${String(index).padStart(2, '0')}`, description: `number ${index}` }));

  it('shows 8 of 15 with "↓ 7 more", then "↑ N more" as the selection moves down', async () => {
    const view = render(
      <InputEditor onSubmit={() => {}} history={memoryHistory()} completer={{ slash: createSlashCompleter(commands), files: () => [] }} active width={60} />,
    );
    mounted.push(view);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    view.stdin.write('/');
    await flush();
    expect(frame()).toContain('/cmd07');
    expect(frame()).not.toContain('/cmd08');
    expect(frame()).toMatch(/^ {2}↓ 7 more$/m);
    for (let index = 0; index < 10; index++) {
      view.stdin.write(KEYS.down);
      await flush();
    }
    expect(frame()).toContain('/cmd10');
    expect(frame()).toMatch(/^ {2}↑ 3 more · ↓ 4 more$/m);
  });

  it('fits the menu in fewer rows when told to', async () => {
    const view = render(
      <InputEditor onSubmit={() => {}} history={memoryHistory()} completer={{ slash: createSlashCompleter(commands), files: () => [] }} active width={60} menuRows={3} />,
    );
    mounted.push(view);
    await flush();
    view.stdin.write('/');
    await flush();
    const rows = stripAnsi(view.lastFrame() ?? '').split('\n');
    expect(rows.filter((row) => row.includes('/cmd'))).toHaveLength(3);
    expect(rows).toContain('  ↓ 12 more');
  });
});
