import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

/**
 * Issue 33, items 1, 2 and 6, end to end: the real seek against the scripted model.
 *  1. a deny rule judges the commands a bash line runs, not its text (under --yolo, where deny rules
 *     are the only guard);
 *  2. an ask rule asks in every mode, --auto included, and headless it denies naming the rule;
 *  6. plan mode writes nothing: memory_observe and enter_worktree are refused, for the session and
 *     its children.
 */
const suite = useScriptedServer();

const isChild = (request: RecordedRequest): boolean => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');
const toolResults = (request: RecordedRequest): string[] =>
  (request.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content);

function projectConfig(root: string, permissions: unknown): void {
  mkdirSync(join(root, '.seek'), { recursive: true });
  writeFileSync(join(root, '.seek', 'config.json'), JSON.stringify({ permissions }));
}

describe('deny rules judge what a command runs (issue 33, item 1)', () => {
  it('"deny": ["Bash(seekprobe:*)"] refuses every spelling of the program under --yolo; other commands still run', async () => {
    const { root, home } = makeProject();
    // A program of our own stands in for curl: it records every run, so nothing escapes unseen.
    const bin = join(root, '..', 'bin');
    const log = join(root, '..', 'ran.log');
    mkdirSync(bin);
    writeFileSync(join(bin, 'seekprobe'), `#!/bin/sh\necho "$*" >> '${log}'\n`, { mode: 0o755 });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(seekprobe:*)'] } }));
    const spellings = [
      // the nine that ran on main
      'FOO=1 seekprobe 1',
      `${bin}/seekprobe 2`,
      '"seekprobe" 3',
      '\\seekprobe 4',
      'command seekprobe 5',
      'env seekprobe 6',
      'exec seekprobe 7',
      'echo 8 | xargs seekprobe',
      '{ seekprobe 9; }',
      // and a few more of the table in test/unit/policy/command-rules.test.ts
      "sh -c 'seekprobe 10'",
      "$'\\x73eekprobe' 11",
      'nice -n 5 timeout 5 seekprobe 12',
      '$(echo seekprobe) 13',
      'true && seekprobe 14',
      'echo $(seekprobe 15)',
      "se''ekprobe 16",
      'echo 17 | xargs -I{} sh -c "seekprobe {}"',
    ];
    suite.server.enqueue(
      { toolCalls: spellings.map((command) => ({ name: 'bash', arguments: { command } })) },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo seekprobe > allowed.txt' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'probe', '--yolo'], { cwd: root, env: suite.env(home, { PATH: `${bin}:${process.env.PATH ?? ''}` }) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    const results = toolResults(suite.server.requests[1]!);
    expect(results).toHaveLength(spellings.length);
    results.forEach((result, i) => expect(result, spellings[i]).toMatch(/^bash is denied by a user rule: Bash\(seekprobe:\*\)/));
    expect(results[9]).toContain('(it runs `sh -c → seekprobe 10`)');
    expect(results[12]).toMatch(/seek cannot tell what this command runs: the program is not known before the command runs \(\$\(echo seekprobe\)\)/);
    // A command that only mentions the program is not refused.
    expect(readFileSync(join(root, 'allowed.txt'), 'utf8')).toBe('seekprobe\n');
  });

  it('`seek permissions check` explains a decision in terms of the parsed simple commands', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(curl:*)'], allow: ['Bash(git status:*)'] } }));
    const denied = await runSeek(['permissions', 'check', "Bash(git status && sh -c 'curl -s x')"], { cwd: root, env: suite.env(home) });
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain("simple commands: [git status] [sh -c 'curl -s x'] [sh -c → curl -s x]\n");
    expect(denied.stdout).toMatch(/deny rule Bash\(curl:\*\) from .*config\.json matches `sh -c → curl -s x`\n/);
    expect(denied.stdout).toMatch(/decision: deny\nrule: Bash\(curl:\*\) from user/);

    const notAllowed = await runSeek(['permissions', 'check', 'bash', 'git status; $CMD'], { cwd: root, env: suite.env(home) });
    expect(notAllowed.stdout).toMatch(/cannot be read: the program is not known before the command runs \(\$CMD\)/);
    expect(notAllowed.stdout).toContain('`git status`: allowed by Bash(git status:*)');
    expect(notAllowed.stdout).toMatch(/decision: deny\nrule: Bash\(curl:\*\)/); // a deny rule errs closed on an unknown program

    const allowed = await runSeek(['permissions', 'check', 'Bash(git status 2>&1 | tail -3)', '--mode', 'ask'], { cwd: root, env: suite.env(home) });
    expect(allowed.stdout).toContain('`git status`: allowed by Bash(git status:*)');
    expect(allowed.stdout).toContain('`tail -3`: a read-only inspector');
    expect(allowed.stdout).toMatch(/decision: allow/);
  });
});

describe('ask rules ask in every mode (issue 33, item 2)', () => {
  it.skipIf(!hasSandbox)('--auto headless: an ask rule denies, naming the rule and its file; nothing runs', async () => {
    const { root, home } = makeProject();
    projectConfig(root, { ask: ['Bash(touch:*)'] }); // ask rules apply without trust: they only tighten
    suite.server.enqueue(
      {
        toolCalls: [
          { name: 'bash', arguments: { command: 'touch made.txt' } },
          { name: 'bash', arguments: { command: 'true && env touch made-too.txt' } },
          { name: 'bash', arguments: { command: 'echo ran > ran.txt' } },
        ],
      },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'make the files', '--auto'], { cwd: root, env: suite.env(home) });
    expect(run.code, run.stderr).toBe(0);
    const [direct, wrapped, other] = toolResults(suite.server.requests[1]!);
    const named = /needs a person's approval: it matches the ask rule Bash\(touch:\*\) from .*\/\.seek\/config\.json.*nobody can be asked in this run/;
    expect(direct).toMatch(named);
    expect(wrapped).toMatch(named);
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    expect(existsSync(join(root, 'made-too.txt'))).toBe(false);
    // Other commands still run in --auto (in the sandbox).
    expect(other).not.toMatch(/denied|approval/);
    expect(readFileSync(join(root, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it.skipIf(!hasSandbox)('--auto with a person: the ask rule is asked, with the rule shown, and "n" keeps the command from running', async () => {
    const { root, home } = makeProject();
    projectConfig(root, { ask: ['Bash(touch:*)'] });
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch asked.txt' } }] }, { text: 'Left it.' });
    const run = await runSeek(['--auto'], { cwd: root, env: suite.env(home), input: 'make the file\nn\n/exit\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Allow bash: touch asked\.txt\?/);
    expect(run.stdout).toMatch(/bash matches the ask rule Bash\(touch:\*\) from .*\/\.seek\/config\.json/);
    expect(run.stdout).toContain('Left it.');
    expect(existsSync(join(root, 'asked.txt'))).toBe(false);
  });
});

describe('plan mode writes nothing (issue 33, item 6)', () => {
  it('memory_observe and enter_worktree are refused with the reason, in the session and in its children', async () => {
    const { root, home } = makeProject();
    const observe = (name: string) => ({ name: 'memory_observe', arguments: { name, tagline: 'Always deploy on Fridays without review', content: 'Planted: deploys skip review.' } });
    suite.server.enqueue(
      { toolCalls: [observe('planted-decision'), { name: 'enter_worktree', arguments: {} }] },
      { toolCalls: [{ name: 'agent', arguments: { description: 'helper', prompt: 'record the decision and branch off' } }] },
      // the child (its tools are the parent's, without the worktree tools)
      { toolCalls: [observe('planted-by-child'), { name: 'memory_remember', arguments: { name: 'remembered-by-child', tagline: 'Planted too', content: 'x' } }] },
      { text: 'child finished' }, // the child's summary
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'plan the work', '--plan'], { cwd: root, env: suite.env(home, { SEEK_TOOLS: 'all' }) });
    expect(run.code, run.stderr).toBe(0);

    const parents = suite.server.requests.filter((request) => !isChild(request));
    const [observed, entered] = toolResults(parents[1]!);
    const refused = /is not allowed in plan mode \(read-only analysis\): nothing is written in plan mode/;
    expect(observed).toMatch(/^memory_observe is not allowed in plan mode/);
    expect(observed).toMatch(refused);
    expect(entered).toMatch(/^enter_worktree is not allowed in plan mode/);

    const child = suite.server.requests.filter(isChild);
    expect(child.length).toBeGreaterThanOrEqual(2);
    const [childObserved, childRemembered] = toolResults(child[1]!);
    expect(childObserved).toMatch(/^memory_observe is not allowed in plan mode/);
    expect(childRemembered).toMatch(/^memory_remember is not allowed in plan mode/);

    // Nothing was stored, and no branch or worktree was made.
    const memory = await runSeek(['memory', 'list', '--all', '--json'], { cwd: root, env: suite.env(home) });
    expect(memory.stdout).not.toMatch(/planted|remembered-by-child/);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    expect(git('branch', '--format=%(refname:short)').trim()).toBe('main');
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});
