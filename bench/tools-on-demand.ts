/**
 * Tools on demand against every tool declared (`npm run bench:tools`): which is smaller over a
 * whole session? Prints figures; asserts nothing.
 *
 * One realistic scripted session is run twice in this process against the scripted model server,
 * once as seek runs by default (common tools declared, the rest loaded with tool_search and called
 * through call_tool) and once with SEEK_TOOLS=all (every tool declared in every request). The work
 * is the same: a plan with todo_write, an explore subagent, reads, searches, edits, commands, git.
 * On demand it takes one turn more (the tool_search that loads agent and todo_write): 20 turns of
 * the parent against 19. Figures: first-request bytes, every request's bytes summed (parent and
 * child), and whether each request extends the previous one byte for byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from '../src/runtime/session.js';
import { canonicalPrompt, ScriptedServer, type RecordedRequest, type ScriptedReply } from '../test/support/scripted-server/index.js';
import { makeProject } from '../test/support/seek-process.js';

type Mode = 'on-demand' | 'all';

const lines = (prefix: string, count: number): string => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`).join('\n');
const SOURCE_A = `export function add(a: number, b: number): number {\n  return a + b;\n}\n\n${lines('// note ', 60)}\n`;
const SOURCE_B = `import { add } from './a.js';\n\nexport const total = add(1, 2);\n\n${lines('// detail ', 40)}\n`;
const README = `# demo\n\nA small project for the benchmark.\n\n${lines('- item ', 30)}\n`;

const call = (name: string, args: Record<string, unknown>, mode: Mode): ScriptedReply =>
  mode === 'all' || ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git'].includes(name)
    ? { toolCalls: [{ name, arguments: args }] }
    : { toolCalls: [{ name: 'call_tool', arguments: { name, arguments: args } }] };

/** The parent's replies, with the child's (explore: one read, one answer) right after the agent call. */
function script(mode: Mode): ScriptedReply[] {
  return [
    ...(mode === 'on-demand' ? [{ toolCalls: [{ name: 'tool_search', arguments: { query: 'todo_write agent' } }] }] : []),
    call('todo_write', { items: [{ content: 'Understand add()', status: 'in_progress' }, { content: 'Rename and test', status: 'pending' }] }, mode),
    call('list_dir', { depth: 2 }, mode),
    call('glob', { pattern: '**/*.ts' }, mode),
    call('read_file', { path: 'src/a.ts' }, mode),
    call('grep', { pattern: 'add\\(' }, mode),
    call('agent', { description: 'find the callers', prompt: 'List every caller of add() with path:line.', subagent_type: 'explore' }, mode),
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'add\\(', context_lines: 1 } }] }, // the child
    { text: 'add() is called at src/b.ts:3 only.' }, // the child's answer
    call('read_file', { path: 'src/b.ts' }, mode),
    call('edit_file', { path: 'src/a.ts', old_string: 'export function add(', new_string: 'export function sum(' }, mode),
    call('edit_file', { path: 'src/b.ts', edits: [{ old_string: 'import { add }', new_string: 'import { sum }' }, { old_string: '= add(', new_string: '= sum(' }] }, mode),
    call('bash', { command: 'grep -rn "sum(" src' }, mode),
    call('read_file', { path: 'src/a.ts', offset: 1, limit: 5 }, mode),
    call('git', { subcommand: 'status' }, mode),
    call('git', { subcommand: 'diff' }, mode),
    call('read_file', { path: 'README.md' }, mode),
    call('edit_file', { path: 'README.md', old_string: 'A small project', new_string: 'A small project (add is now sum)' }, mode),
    call('bash', { command: 'wc -l src/a.ts src/b.ts README.md' }, mode),
    call('git', { subcommand: 'diff', args: ['--stat'] }, mode),
    call('grep', { pattern: 'sum\\(', glob: '*.ts' }, mode),
    { text: 'Renamed add() to sum() in src/a.ts and its caller src/b.ts, and noted it in README.md. git diff shows the three changes.' },
  ];
}

interface Figures {
  parentTurns: number;
  requests: number;
  firstBytes: number;
  parentBytes: number;
  childBytes: number;
  extending: string;
}

async function session(server: ScriptedServer, mode: Mode): Promise<Figures> {
  const { root, home } = makeProject({ 'README.md': README });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), SOURCE_A);
  writeFileSync(join(root, 'src', 'b.ts'), SOURCE_B);
  server.reset();
  server.enqueue(...script(mode));
  const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url, ...(mode === 'all' ? { SEEK_TOOLS: 'all' } : {}) };
  const opened = await openSession({ cwd: root, env, interactive: false, maxTurns: 50, yolo: true });
  const summary = await opened.prompt('Rename add() to sum() everywhere and note it in the README.');
  await opened.close();
  if (summary.reason !== 'completed') throw new Error(`${mode}: the session ended with ${summary.reason}`);
  const isChild = (request: RecordedRequest): boolean => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');
  const parents = server.requests.filter((request) => !isChild(request));
  const children = server.requests.filter(isChild);
  const bytes = (requests: RecordedRequest[]): number => requests.reduce((sum, request) => sum + Buffer.byteLength(request.raw), 0);
  const extending = (requests: RecordedRequest[]): number => requests.slice(1).filter((request, i) => canonicalPrompt(request).startsWith(canonicalPrompt(requests[i]!))).length;
  return {
    parentTurns: parents.length,
    requests: server.requests.length,
    firstBytes: Buffer.byteLength(parents[0]!.raw),
    parentBytes: bytes(parents),
    childBytes: bytes(children),
    extending: `${extending(parents)}/${parents.length - 1} parent, ${extending(children)}/${children.length - 1} child`,
  };
}

const server = await ScriptedServer.start();
try {
  const onDemand = await session(server, 'on-demand');
  const all = await session(server, 'all');
  const row = (label: string, f: Figures) =>
    `${label.padEnd(22)} ${String(f.parentTurns).padStart(5)} ${String(f.firstBytes).padStart(12)} ${String(f.parentBytes).padStart(13)} ${String(f.childBytes).padStart(12)} ${String(f.parentBytes + f.childBytes).padStart(12)}   ${f.extending}`;
  console.log('one session: plan (todo_write), an explore subagent, reads, searches, edits, commands, git');
  console.log(`${'declaration'.padEnd(22)} turns  first bytes  parent total   child total  whole total   requests extending the previous`);
  console.log(row('on demand (default)', onDemand));
  console.log(row('all declared', all));
  const total = (f: Figures) => f.parentBytes + f.childBytes;
  const saved = total(all) - total(onDemand);
  console.log(`on demand sends ${saved >= 0 ? `${saved} bytes fewer` : `${-saved} bytes more`} over the whole session (${((100 * saved) / total(all)).toFixed(1)}% of all-declared), first request ${all.firstBytes} -> ${onDemand.firstBytes} bytes`);
} finally {
  await server.close();
}
