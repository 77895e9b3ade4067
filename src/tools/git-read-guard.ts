import { execFile } from 'node:child_process';
import path from 'node:path';
import type { ToolContext } from '../agent/types.js';
import type { GitSubcommand } from './git-args.js';

/**
 * The git tool's side of the read guard (policy/read-guard.ts, `ctx.readDenied`): git keeps every
 * version of a file in its objects, so a Read deny rule must hold against `git show HEAD:.env`,
 * `git blame .env`, `git diff`, `git log -p`, `git cat-file -p <id>` and `git log -S <text>` too.
 * With a rule in force:
 *  - a path the call names (`HEAD:.env`, `:./.env`, blame's file) is judged like read_file's;
 *  - diffs are printed without the sections of denied files (`filterDeniedDiffs`), and the options
 *    that would hide a section's header from that filter (prefixes, colour, word diffs, graphs,
 *    `-z`, binary patches) are refused, as are the pickaxe searches (`-S`, `-G`: a yes/no on the
 *    content of every file, one guess at a time) and `-L` ranges;
 *  - objects named by id: `cat-file` only answers `-t`, `-s`, `-e`; `show <id>` of a blob is refused.
 * The names of denied files still show (`status`, `ls-files`, `--stat`): names, not content.
 */

/** Options refused while a Read deny rule is in force (see above). */
const HIDING_OPTIONS = new Set([
  '--line-prefix', '--word-diff', '--word-diff-regex', '--color-words', '--color-moved', '--no-prefix', '--src-prefix',
  '--dst-prefix', '--binary', '--graph', '--output-indicator-new', '--output-indicator-old', '--output-indicator-context',
  '--pickaxe-regex', '--pickaxe-all', '--find-object', '--null', '--check',
]);

/** Why this call may not run under the read guard, or undefined. The args were checked by
 * checkGitArgs first. */
export function gitReadRefusal(subcommand: GitSubcommand, args: readonly string[], ctx: Pick<ToolContext, 'cwd' | 'projectRoot' | 'readDenied'>): string | undefined {
  const denied = ctx.readDenied;
  if (!denied) return undefined;
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  for (const arg of options) {
    const name = arg.split('=')[0]!;
    if (HIDING_OPTIONS.has(name) || (name === '--color' && arg !== '--color=never')) return `${arg} is not allowed in the git tool while Read deny rules are set (it would let denied content through).`;
    if (/^-[a-zA-Z]*[SGLz]/.test(arg)) return `${arg} is not allowed in the git tool while Read deny rules are set (it would answer questions about denied files' content).`;
  }
  if (subcommand === 'cat-file' && !options.some((arg) => ['-t', '-s', '-e'].includes(arg))) {
    return 'git cat-file names objects by id, and Read deny rules are set: only -t, -s and -e are allowed; use git show <rev>:<path> for a file.';
  }
  for (const arg of args) {
    const named = namedPaths(subcommand, arg, args, ctx);
    for (const p of named) {
      const rule = denied(p);
      if (rule !== undefined) return `${arg}: ${path.relative(ctx.projectRoot, p) || p} is denied by the rule ${rule}: its content cannot be read by any tool.`;
    }
  }
  return undefined;
}

/** The files an argument names: `<rev>:<path>` (from the top, or from cwd with `./`), and blame's
 * file; judged from both the cwd and the project root, so neither spelling slips through. */
function namedPaths(subcommand: GitSubcommand, arg: string, args: readonly string[], ctx: Pick<ToolContext, 'cwd' | 'projectRoot'>): string[] {
  if (arg.startsWith('-')) return [];
  const revPath = /^[^:]*:(?:[0-3]:)?(.+)$/s.exec(arg);
  const spelled = revPath ? revPath[1]! : subcommand === 'blame' ? arg : undefined;
  if (spelled === undefined || spelled === '') return [];
  return [path.resolve(ctx.cwd, spelled), path.resolve(ctx.projectRoot, spelled)];
}

/** For `git show`: the arguments that name a blob by id (`git show 3f2a…` prints the file). */
export async function blobArguments(subcommand: GitSubcommand, args: readonly string[], ctx: Pick<ToolContext, 'cwd' | 'readDenied'>, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (!ctx.readDenied || subcommand !== 'show') return [];
  const end = args.indexOf('--');
  const candidates = (end === -1 ? args : args.slice(0, end)).filter((arg) => !arg.startsWith('-') && !arg.includes(':'));
  const types = await Promise.all(candidates.map((arg) => objectType(`${arg}^{}`, ctx.cwd, env)));
  return candidates.filter((_, i) => types[i] === 'blob');
}

function objectType(name: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['cat-file', '-t', name], { cwd, env, timeout: 10_000, encoding: 'utf8' }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
  });
}

/** Lines of a diff section after its header: hunks, extended headers, blank lines. */
const DIFF_BODY = /^(?:[ +\-@\\]|$|index |old mode |new mode |deleted file mode |new file mode |similarity index |dissimilarity index |rename from |rename to |copy from |copy to |Binary files )/;
const DIFF_HEADER = /^diff --(?:git|cc|combined) /;

/**
 * Drops from git's output the diff sections of denied files: from a `diff --git a/X b/Y` (or
 * `--cc`) header whose path is denied, every line that belongs to a diff body. A section ends
 * at the next header or the first line no diff body has (`commit …`, a log message).
 */
export function filterDeniedDiffs(lines: readonly string[], bases: readonly string[], denied: (absPath: string) => string | undefined): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    // Paths are the repository's (or, with --relative, the cwd's): judged from each base.
    if (DIFF_HEADER.test(line)) skipping = headerPaths(line).some((p) => bases.some((base) => denied(path.resolve(base, p)) !== undefined));
    else if (skipping && !DIFF_BODY.test(line)) skipping = false;
    if (!skipping) out.push(line);
    else if (DIFF_HEADER.test(line)) out.push(`${line}\n[content of a file denied by a Read deny rule left out]`);
  }
  return out;
}

/** Every path a diff header could name (paths with spaces make the split ambiguous: all tried). */
export function headerPaths(line: string): string[] {
  const rest = line.replace(DIFF_HEADER, '');
  if (!line.startsWith('diff --git ')) return [unquote(rest)];
  const quoted = [...rest.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unquote(`"${m[1]!}"`));
  const plain: string[] = [];
  for (let at = rest.indexOf(' '); at !== -1; at = rest.indexOf(' ', at + 1)) plain.push(rest.slice(0, at), rest.slice(at + 1));
  return [...quoted, ...plain, rest].map((p) => p.replace(/^"?[a-z]\//, '').replace(/"$/, ''));
}

/** A C-quoted git path (`"a/caf\303\251"`), unquoted. */
function unquote(p: string): string {
  if (!p.startsWith('"')) return p;
  const body = p.slice(1, p.endsWith('"') ? -1 : undefined);
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') bytes.push(...Buffer.from(c));
    else if (/[0-7]/.test(body[i + 1] ?? '')) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      const next = body[++i] ?? '';
      bytes.push(...Buffer.from(({ n: '\n', t: '\t', '"': '"', '\\': '\\' } as Record<string, string>)[next] ?? next));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
