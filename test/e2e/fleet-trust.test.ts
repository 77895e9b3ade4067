/**
 * A fleet worker trusts nothing in a job's checkout, and runs `--auto` jobs in the OS sandbox, end
 * to end (real redis-server, real `seek worker` processes, the real `seek run --queue`, scripted
 * model): a job that points its checkout's `.git` at a git directory it planted (an fsmonitor hook
 * and a clean filter that would write marker files) fails with the reason and no planted program
 * runs on the worker; a job's `--auto` command runs in the sandbox the worker detects on first
 * need (not refused as "sandbox detection has not finished").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';
import { git, hasRedis, useFleet, view, write } from '../support/fleet-suite.js';
import { tempDir } from '../support/temp-dirs.js';

const fleet = useFleet();
const { route, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;

/** One turn of write_file calls that plants a git directory in the checkout and points `.git` at
 * it: its config runs programs that write `markers/fsmonitor` and `markers/clean`. */
function plantingTurn(markers: string): ScriptedReply {
  const config = [
    '[core]',
    '\trepositoryformatversion = 0',
    '\tbare = false',
    `\tfsmonitor = "touch ${join(markers, 'fsmonitor')}; false"`,
    '[filter "evil"]',
    `\tclean = "touch ${join(markers, 'clean')}; cat"`,
    '',
  ].join('\n');
  const files: Array<[string, string]> = [
    ['planted/HEAD', 'ref: refs/heads/main\n'],
    ['planted/config', config],
    ['planted/objects/.keep', ''],
    ['planted/refs/.keep', ''],
    ['.gitattributes', '* filter=evil\n'],
    ['work.txt', 'work\n'],
    ['.git', 'gitdir: planted\n'],
  ];
  return { toolCalls: files.map(([path, content]) => write(path, content).toolCalls![0]!) };
}

describe.skipIf(!hasRedis)('fleet workers and the job\'s checkout', () => {
  it('fails a job that pointed its checkout\'s .git at a planted git directory, with the reason; none of its programs runs', async () => {
    await startWorkers(1);
    const markers = tempDir('seek-fleet-markers-');
    route((req) => (req.turn === 0 ? plantingTurn(markers) : { text: 'done' }));
    const { root, home, bare } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Plant\ntasks:\n  - {id: p, role: editor, task: Write work.txt}\n');
    // --yolo: in --auto, write_file already refuses `.git` itself (protected-files.test.ts); this
    // proves the worker's own check, the wall behind that rule, where nothing asks.
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/p editor failed reason=job_failed/);
    expect(run.stdout).toMatch(/the job's checkout \.git was changed to point at \S+\/planted; refusing to run git there/);
    expect(existsSync(join(markers, 'fsmonitor'))).toBe(false);
    expect(existsSync(join(markers, 'clean'))).toBe(false);
    // Failed for good (no second attempt ran the task), nothing was published.
    expect(suite.server.requests.filter((r) => view(r).task === 'p')).toHaveLength(2);
    expect(fleet.workers[0]!.log()).toMatch(/job \S+ failed: attempt 1 on \S+: the job's checkout \.git was changed/);
    expect(existsSync(join(root, 'work.txt'))).toBe(false);
    expect(git(bare, 'for-each-ref', 'refs/heads/seek')).toBe('');
  }, 120_000);

  it.skipIf(!hasSandbox)('runs an --auto job\'s command in the OS sandbox the worker detects on first need', async () => {
    await startWorkers(1);
    const command = 'echo "sandbox=$SEEK_SANDBOX" > proof.txt && cat proof.txt';
    route((req) => (req.turn === 0 ? { toolCalls: [{ name: 'bash', arguments: { command } }] } : { text: 'wrote proof.txt' }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Prove\ntasks:\n  - {id: s, role: editor, task: Write proof.txt with a command}\n');
    const run = await runSeek(['run', 'plan.yaml', '--auto', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    const toolResult = JSON.stringify(suite.server.requests.find((r) => view(r).task === 's' && view(r).turn === 1)?.body.messages ?? []);
    expect(toolResult).not.toContain('detection has not finished');
    expect(toolResult).toContain('sandbox=workspace-write');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).orchestrations[0].tasks[0]).toMatchObject({ id: 's', status: 'completed' });
    // The command's file came back as the editor's commit, merged into the coordinator's tree.
    expect(readFileSync(join(root, 'proof.txt'), 'utf8')).toBe('sandbox=workspace-write\n');
  }, 120_000);
});
