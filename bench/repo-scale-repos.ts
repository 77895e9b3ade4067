/** The repositories bench/repo-scale.ts runs in: small committed files, and untracked ones. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Scenario {
  name: string;
  label: string;
  committed: number;
  untracked: number;
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'c1000', label: '1,000 committed files', committed: 1_000, untracked: 0 },
  { name: 'c10000', label: '10,000 committed files', committed: 10_000, untracked: 0 },
  { name: 'c100000', label: '100,000 committed files', committed: 100_000, untracked: 0 },
  { name: 'u100000', label: '1,000 committed + 100,000 untracked', committed: 1_000, untracked: 100_000 },
];

/** `count` small files under `root/prefix`, 100 to a directory. */
function writeFiles(root: string, prefix: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const dir = join(root, prefix, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
}

/** Builds the scenario's repository at `root` (a minute for 100,000 committed files). */
export function buildRepository(root: string, scenario: Scenario): void {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], { cwd: root, stdio: 'ignore' });
  };
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'README.md'), '# bench\n\nline two\nline three\n');
  writeFiles(root, 'src', scenario.committed);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  writeFiles(root, 'generated', scenario.untracked);
}
