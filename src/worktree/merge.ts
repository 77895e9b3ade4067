/**
 * Merging a worktree's snapshot commit into the current branch of the main working tree.
 *
 * The contract: either a merge commit is made, or the main tree (files, index, HEAD, ORIG_HEAD)
 * is left as it was. A conflicting merge is aborted after its conflict hunks are read; a merge
 * that git refuses (local changes or untracked files would be overwritten) changed nothing. In both
 * cases the caller gets a structured report. The merge never starts on top of another operation
 * (merge, rebase, cherry-pick, revert) in progress, so an abort can only undo seek's own merge.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readFileConfined } from '../util/confined-fs.js';
import type { MergeConflictReport, MergeRefusal } from './types.js';
import type { GitClient } from './git.js';

export const HUNK_CAP_PER_FILE = 4 * 1024;
export const HUNK_CAP_TOTAL = 16 * 1024;

export type MergeAttempt =
  | { kind: 'merged'; commit: string }
  | { kind: 'conflict'; report: MergeConflictReport }
  | { kind: 'error'; detail: string };

const OPERATIONS_IN_PROGRESS: Array<[string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase or am'],
];

function operationInProgress(gitDir: string): string | undefined {
  return OPERATIONS_IN_PROGRESS.find(([file]) => existsSync(join(gitDir, file)))?.[1];
}

export interface MergeRequest {
  root: string;
  /** The main tree's git directory (`rev-parse --absolute-git-dir`). */
  gitDir: string;
  commit: string;
  message: string;
  identity: string[];
}

export async function mergeIntoMain(git: GitClient, request: MergeRequest): Promise<MergeAttempt> {
  const { root, gitDir } = request;
  const busy = operationInProgress(gitDir);
  if (busy) return { kind: 'error', detail: `the main working tree has ${busy} in progress; finish or abort it first` };
  const origHead = await readOrigHead(git, root);
  // C locale: the "would be overwritten" lists are parsed from git's messages.
  const merge = await git.run(
    root,
    [...request.identity, 'merge', '--no-ff', '--no-edit', '-m', request.message, request.commit],
    { env: { LC_ALL: 'C', LANGUAGE: 'C' } },
  );
  if (merge.code === 0) return { kind: 'merged', commit: await git.value(root, ['rev-parse', 'HEAD']) };

  if (existsSync(join(gitDir, 'MERGE_HEAD'))) return abortConflict(git, root, merge.stdout, merge.stderr, origHead);
  await restoreOrigHead(git, root, origHead);
  const blocked = overwrittenFiles(merge.stderr);
  if (blocked.length > 0) {
    const message = `merge refused: it would overwrite local changes or untracked files in the main working tree (${plural(blocked.length, 'file')}); nothing was changed, and the worktree is kept`;
    return { kind: 'conflict', report: { files: blocked, hunks: [], message } };
  }
  return { kind: 'error', detail: (merge.stderr || merge.stdout).trim() || `git merge exited with status ${merge.code}` };
}

/**
 * The files a merge of `commit` into `root`'s HEAD would change there: what `commit` changed since
 * their merge base (every path on both sides of a rename), or, for unrelated histories, every path
 * that differs. Throws a GitError when git cannot say.
 */
export async function filesBrought(git: GitClient, root: string, commit: string): Promise<string[]> {
  const base = await git.run(root, ['merge-base', 'HEAD', commit]);
  const from = base.code === 0 ? base.stdout.trim() : 'HEAD';
  const listed = await git.ok(root, ['diff', '--name-only', '--no-renames', '--no-ext-diff', '--no-textconv', '-z', from, commit]);
  return listed.split('\0').filter(Boolean);
}

/** A guard's refusals as the report of a merge that was not started; undefined when none. */
export function guardRefusal(refusals: readonly MergeRefusal[], id: string): MergeConflictReport | undefined {
  if (refusals.length === 0) return undefined;
  const reasons = refusals.map((r) => `${r.file}: ${r.reason}`).join('; ');
  const message =
    `merge refused: it would change ${plural(refusals.length, 'file')} that seek may not change without a person's yes (${reasons}); ` +
    `nothing was changed, and the worktree is kept. A person can review it (\`seek worktree diff ${id}\`) and merge it (\`seek worktree merge ${id}\`).`;
  return { files: refusals.map((r) => r.file), hunks: [], message };
}

/** Our merge stopped with conflicts: read them, then abort and put ORIG_HEAD back. */
async function abortConflict(git: GitClient, root: string, stdout: string, stderr: string, origHead: string | undefined): Promise<MergeAttempt> {
  const unmerged = await git.run(root, ['diff', '--name-only', '--diff-filter=U', '-z']);
  const files = unmerged.stdout.split('\0').filter(Boolean);
  const conflictLines = stdout.split('\n').filter((line) => line.startsWith('CONFLICT'));
  const hunks = await collectHunks(root, files, conflictLines);
  const abort = await git.run(root, ['merge', '--abort']);
  if (abort.code !== 0) {
    return { kind: 'error', detail: `the merge stopped and git merge --abort failed: ${abort.stderr.trim()}` };
  }
  await restoreOrigHead(git, root, origHead);
  if (files.length === 0) {
    // Stopped without unmerged paths (a hook refused the merge commit, say): not a conflict.
    return { kind: 'error', detail: `${(stderr || stdout).trim()} (the merge was aborted; both working trees are as they were)` };
  }
  const message = `merge stopped on conflicts in ${plural(files.length, 'file')}; it was aborted, both working trees are as they were, and the worktree is kept`;
  return { kind: 'conflict', report: { files, hunks, message } };
}

async function readOrigHead(git: GitClient, root: string): Promise<string | undefined> {
  const result = await git.run(root, ['rev-parse', '--verify', '--quiet', 'ORIG_HEAD']);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** `git merge` and `git merge --abort` both move ORIG_HEAD; a merge that did not happen should
 * not, so the user's `git reset --hard ORIG_HEAD` keeps meaning what it meant. */
async function restoreOrigHead(git: GitClient, root: string, before: string | undefined): Promise<void> {
  if ((await readOrigHead(git, root)) === before) return;
  if (before === undefined) await git.run(root, ['update-ref', '--no-deref', '-d', 'ORIG_HEAD']);
  else await git.run(root, ['update-ref', '--no-deref', 'ORIG_HEAD', before]);
}

/** The tab-indented file list that follows "would be overwritten by merge:" in git's refusal. */
export function overwrittenFiles(stderr: string): string[] {
  const files: string[] = [];
  let inList = false;
  for (const line of stderr.split('\n')) {
    if (/would be (overwritten|removed) by merge/.test(line)) inList = true;
    else if (inList && line.startsWith('\t')) files.push(line.slice(1));
    else inList = false;
  }
  return [...new Set(files)];
}

/** Conflict-marker regions of each file, capped per file and in total. A file without markers
 * (binary, modify/delete) is described by git's CONFLICT line for it. */
async function collectHunks(root: string, files: string[], conflictLines: string[]): Promise<MergeConflictReport['hunks']> {
  const hunks: MergeConflictReport['hunks'] = [];
  let budget = HUNK_CAP_TOTAL;
  for (const file of files) {
    if (budget <= 0) {
      hunks.push({ file, text: '(not shown: report size limit reached)' });
      continue;
    }
    // Never through a symlink (a conflicted link, or a directory swapped for one): the report
    // would carry the content of a file outside the tree.
    const content = await readFileConfined(root, file).then((bytes) => bytes.toString('utf8'), () => '');
    let text = conflictRegions(content);
    if (text === '') {
      const described = conflictLines.filter((line) => line.includes(file));
      text = described.length > 0 ? described.join('\n') : '(no conflict markers: a binary file or a modify/delete conflict)';
    }
    text = cap(text, Math.min(HUNK_CAP_PER_FILE, budget));
    budget -= text.length;
    hunks.push({ file, text });
  }
  return hunks;
}

/** The `<<<<<<<` ... `>>>>>>>` regions of `content`, separated by a blank line. */
export function conflictRegions(content: string): string {
  const regions: string[] = [];
  let current: string[] | undefined;
  for (const line of content.split('\n')) {
    if (current === undefined && line.startsWith('<<<<<<<')) current = [];
    if (current === undefined) continue;
    current.push(line);
    if (line.startsWith('>>>>>>>')) {
      regions.push(current.join('\n'));
      current = undefined;
    }
  }
  return regions.join('\n\n');
}

function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = '\n… (truncated)';
  return text.slice(0, Math.max(0, limit - marker.length)) + marker;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The report for people and the model, printed after `[worktree: merge_conflict files=<n>]`. */
export function formatConflictReport(report: MergeConflictReport): string {
  const lines = [report.message, 'files:', ...report.files.map((file) => `  ${file}`)];
  for (const hunk of report.hunks) lines.push(`--- ${hunk.file}`, hunk.text);
  return lines.join('\n');
}
