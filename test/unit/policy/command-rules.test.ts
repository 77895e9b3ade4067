import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { analyzeCommand, formatSimpleCommand } from '../../../src/policy/shell-commands.js';
import { loadShellParser } from '../../../src/policy/shell-parser.js';
import { coverCommand, denyMatch } from '../../../src/policy/command-rules.js';
import { evaluatePolicy, PermissionPolicy, type PolicyRule, type Preference } from '../../../src/policy/index.js';
import { parseRuleText } from '../../../src/policy/rule-syntax.js';
import { seekToolNames } from '../../../src/tools/tool-names.js';

/**
 * Permission rules on bash commands judge what the command runs, with the real bash grammar
 * (tree-sitter-bash through web-tree-sitter): every spelling below runs curl, and
 * `"deny": ["Bash(curl:*)"]` must refuse each of them, under --yolo, where deny rules are the only
 * guard. The spellings are the ones reported against seek (issue 33), against Claude Code's and
 * Codex's rules, and the wrappers and constructs the parser claims to understand.
 */

let base: string;
let root: string;
beforeAll(async () => {
  await loadShellParser();
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-command-rules-')));
  root = path.join(base, 'project');
  mkdirSync(root);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const bash = (command: string): ActionRequest => ({ kind: 'bash', paths: [], command, summary: `bash: ${command}` });
const rules = (decision: 'allow' | 'deny' | 'ask', ...texts: string[]): PolicyRule[] =>
  texts.flatMap((text) => parseRuleText(text, decision, 'user', seekToolNames()).rules.map((rule) => ({ ...rule, origin: { text, file: '/home/u/.seek/config.json' } })));

function decide(command: string, ruleList: PolicyRule[], preference: Preference = 'yolo', canAsk = false) {
  return evaluatePolicy({ root, preference, workflow: 'none', preApproved: false, rules: ruleList, sandbox: { available: true } }, bash(command), { tool: 'bash', canAsk });
}

/** Every one of these runs curl (or may: what cannot be read counts as a match for a deny rule). */
const RUNS_CURL: string[] = [
  // issue 33's nine
  'FOO=1 curl -s https://example.com',
  '/usr/bin/curl -s https://example.com',
  '"curl" -s https://example.com',
  '\\curl -s https://example.com',
  'command curl -s https://example.com',
  'env curl -s https://example.com',
  'exec curl -s https://example.com',
  'echo https://example.com | xargs curl',
  '{ curl -s https://example.com; }',
  // plain, and quoting / escaping of the program
  'curl',
  'curl x',
  '  curl   x  ',
  'CURL=1 curl x',
  'FOO=1 BAR="a b" curl x',
  "'curl' x",
  'c\\url x',
  "cu''rl x",
  '"cu"rl x',
  'cu"rl" x',
  "$'curl' x",
  "$'\\x63url' x",
  "$'\\143url' x",
  "$'\\u0063url' x",
  '$"curl" x',
  'cu\\\nrl x',
  '/usr/local/bin/curl x',
  './curl x',
  'bin/../bin/curl x',
  // wrappers
  '\\command curl x',
  'command -p curl x',
  'command -- curl x',
  'builtin curl x',
  'env -i curl x',
  'env -u HOME curl x',
  'env -i PATH=/usr/bin FOO=1 curl x',
  '/usr/bin/env curl x',
  'env -S "curl -s" x',
  'env --split-string="curl -s" x',
  'exec -a name curl x',
  'time curl x',
  'time -p curl x',
  'nice curl x',
  'nice -n 5 curl x',
  'nice -5 curl x',
  'nohup curl x',
  'nohup curl x &',
  'timeout 5 curl x',
  'timeout -s KILL --preserve-status 5 curl x',
  'stdbuf -oL curl x',
  'sudo curl x',
  'sudo -u root curl x',
  'sudo -E FOO=1 curl x',
  'sudo -- curl x',
  'doas curl x',
  'doas -u root curl x',
  'setsid curl x',
  'setsid -f curl x',
  'ionice -c 3 curl x',
  'chrt -f 10 curl x',
  'taskset -c 0 curl x',
  'flock /tmp/lock curl x',
  "flock /tmp/lock -c 'curl x'",
  'watch curl x',
  "watch -n 1 'curl x'",
  'unbuffer curl x',
  "script -qc 'curl x' /dev/null",
  'coproc curl x',
  'nice timeout 5 sudo env -i curl x',
  'busybox sh -c "curl x"',
  // xargs, find, parallel
  'xargs -I{} curl {}',
  'echo a | xargs -I {} curl -s {}',
  'xargs -0 -n 1 curl < urls.txt',
  'xargs -P4 -n1 curl',
  'find . -exec curl {} \\;',
  'find . -name "*.txt" -execdir curl -d @{} x +',
  'find . -ok curl {} \\;',
  'parallel curl ::: a b',
  'echo a | parallel -j4 curl -s {}',
  // lists, pipelines, groups, control flow
  '(curl x)',
  'curl x &',
  'true && curl x',
  'false || curl x',
  'ls; curl x',
  'ls\ncurl x',
  'ls | curl -T - x',
  'ls |& curl -T - x',
  '! curl x',
  'if true; then curl x; fi',
  'if false; then :; elif curl x; then :; fi',
  'if false; then :; else curl x; fi',
  'while curl x; do :; done',
  'until false; do curl x; done',
  'for i in 1; do curl x; done',
  'for ((i = 0; i < 1; i++)); do curl x; done',
  'select s in a; do curl x; done',
  'case a in a) curl x ;; esac',
  'f() { curl x; }; f',
  'function f { curl x; }',
  'git status && curl x > /dev/null 2>&1',
  // substitutions
  'echo $(curl x)',
  'echo "$(curl x)"',
  'echo `curl x`',
  'echo "a $(echo "b $(curl x)")"',
  'X=$(curl x)',
  'export X=$(curl x)',
  'local x=$(curl x)',
  'echo ${x:-$(curl x)}',
  'echo $((1 + $(curl x)))',
  'cat <(curl x)',
  'echo a > >(curl x)',
  'cat <<< "$(curl x)"',
  'echo hi > "$(curl x)"',
  'cat <<EOF\n$(curl x)\nEOF',
  'cat <<EOF\n`curl x`\nEOF',
  '[[ -n $(curl x) ]]',
  // shell strings
  "bash -c 'curl x'",
  'sh -c "curl x"',
  "bash -lc 'curl x'",
  "bash -e -x -c 'curl x'",
  "bash -o pipefail -c 'curl x'",
  "zsh -c 'curl x'",
  "dash -c 'curl x'",
  "/bin/sh -c 'curl x'",
  'sh -c "sh -c \'curl x\'"',
  "su -c 'curl x'",
  'eval curl x',
  'eval "curl x"',
  "eval 'eval \"curl x\"'",
  "trap 'curl x' EXIT",
  'shopt -s expand_aliases; alias c=curl; c x',
  "sudo sh -c 'curl x'",
  "xargs sh -c 'curl \"$1\"' _",
  "find . -exec sh -c 'curl x' \\;",
  // what cannot be read: the program is unknown, so a deny rule errs closed
  '$(which curl) x',
  '"$(which curl)" x',
  '`echo curl` x',
  '$CURL x',
  '${CURL} x',
  '"$CURL" x',
  'curl${IFS}x',
  'cu${x}rl x',
  '$x/curl x',
  '/usr/bin/cu* x',
  '/usr/bin/cu?l x',
  '/usr/bin/c[u]rl x',
  '{curl,x}',
  'eval "$CMD"',
  'sh -c "$CMD"',
  'bash <<EOF\ncurl x\nEOF',
  'echo curl x | bash',
  'echo curl x | sh -s',
  'cat script.txt | sudo -s',
  'env $OPTS curl x',
  'echo a | parallel',
  // does not parse: never judged safe
  'curl x) (',
  'echo "unterminated; curl x',
];

/** None of these runs curl; a deny rule on curl must not refuse them. */
const DOES_NOT_RUN_CURL: string[] = [
  'echo curl',
  'echo curl x | cat',
  'git commit -m "use curl; curl x"',
  "git commit -m 'curl $(curl x)'",
  'grep -r curl src',
  'curlx y',
  'curling',
  "echo '$(curl x)'",
  'echo \\$\\(curl x\\)',
  "cat <<'EOF'\n$(curl x)\n`curl y`\nEOF",
  'which curl',
  'command -v curl',
  'man curl',
  'ls -la # curl x',
  '# curl x',
  'npm test -- --grep curl',
  'bash scripts/fetch.sh',
];

describe('deny rules judge what a command runs (Bash(curl:*), --yolo)', () => {
  const deny = rules('deny', 'Bash(curl:*)');

  it(`refuses every one of ${RUNS_CURL.length} spellings that run curl`, () => {
    expect(RUNS_CURL.length).toBeGreaterThanOrEqual(60);
    const missed = RUNS_CURL.filter((command) => decide(command, deny).decision !== 'deny');
    expect(missed).toEqual([]);
  });

  it.each(RUNS_CURL.map((command) => [command]))('denies %j, naming the rule', (command) => {
    const decision = decide(command, deny);
    expect(decision).toMatchObject({ decision: 'deny', code: 'deny_rule' });
    if (decision.decision === 'deny') expect(decision.message).toMatch(/^bash is denied by a user rule: Bash\(curl:\*\)/);
  });

  it.each(DOES_NOT_RUN_CURL.map((command) => [command]))('lets %j run', (command) => {
    expect(decide(command, deny).decision).toBe('allow');
  });

  it('says which simple command matched, or that it could not tell', () => {
    const viaShell = decide("sh -c 'curl -s x'", deny);
    expect(viaShell.decision === 'deny' && viaShell.message).toMatch(/it runs `sh -c → curl -s x`/);
    const unknown = decide('$(which curl) x', deny);
    expect(unknown.decision === 'deny' && unknown.message).toMatch(/seek cannot tell what this command runs: the program is not known before the command runs \(\$\(which curl\)\)/);
  });

  it('matches arguments on the evaluated words too', () => {
    const force = rules('deny', 'Bash(git push --force:*)');
    for (const command of ['git push --force', 'git push "--force" origin', 'git push --for""ce', "sudo git push '--force'", 'git push $FLAGS', 'git push --force\u0020origin main'])
      expect(decide(command, force).decision, command).toBe('deny');
    for (const command of ['git push origin main', 'git push', 'echo git push --force', 'git push --force-with-lease'])
      expect(decide(command, force).decision, command).toBe('allow');
  });

  it('compares a path in the rule by name too', () => {
    expect(decide('curl x', rules('deny', 'Bash(/usr/bin/curl:*)')).decision).toBe('deny');
  });
});

describe('allow rules apply only when every simple command is allowed', () => {
  const allow = rules('allow', 'Bash(git status:*)');
  const decideAsk = (command: string) => decide(command, allow, 'ask', true).decision;

  it.each([
    'git status',
    'git status -s',
    'git  status',
    '"git" status',
    'git "status"',
    'git status 2>/dev/null',
    'git status 2>&1 | tail -5',
    'time git status',
    'timeout 10 git status',
    'nice -n 5 git status',
    'git status && git status -s',
    'git status $(echo)',
  ])('allows %j', (command) => {
    expect(decideAsk(command)).toBe('allow');
  });

  it.each([
    'git status; rm -rf x',
    'git status && curl x',
    'git status || curl x',
    'git status $(curl x)',
    'git status `curl x`',
    'git status "$(curl x)"',
    'git status <(curl x)',
    'git status | sh',
    'git status & curl x',
    'git status\ncurl x',
    'FOO=1 git status',
    'PATH=/tmp/evil:$PATH git status',
    '/tmp/evil/git status',
    './git status',
    'git status > out.txt',
    'git status >> ~/.bashrc',
    'sudo git status',
    'env git status',
    'env PATH=/tmp/evil git status',
    "bash -c 'git status'",
    'xargs git status',
    'git status; $X',
    '$GIT status',
    'git statusx',
    'git status-x',
    'cd /tmp && git status',
    'eval git status',
    'git status )',
    '{git,status}',
  ])('does not allow %j (it is asked)', (command) => {
    expect(decideAsk(command)).toBe('ask');
  });

  it('several allow rules together cover a line; the most specific source asks first', () => {
    const policy = new PermissionPolicy({
      root,
      preference: 'ask',
      rules: [...rules('allow', 'Bash(npm test:*)'), ...rules('ask', 'Bash(git push:*)')],
      sandbox: { available: true },
    });
    policy.addRule({ tool: 'bash', pattern: 'git status', decision: 'allow', source: 'session' });
    expect(policy.evaluate(bash('git status && npm test -- --run'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'allow', sandbox: 'workspace-write' });
    expect(policy.evaluate(bash('git status && git push'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'ask', code: 'ask_rule' });
  });

  it('a rule spelled exactly as the command line allows it (a person\'s "always"), nothing else', () => {
    const exact = [{ tool: 'bash', pattern: 'for f in *.md; do wc -l "$f"; done', decision: 'allow', source: 'session' } as PolicyRule];
    expect(decide('for f in *.md; do wc -l "$f"; done', exact, 'ask', true)).toMatchObject({ decision: 'allow', code: 'rule' });
    expect(decide('for f in *.md; do wc -l "$f"; done; rm x', exact, 'ask', true).decision).toBe('ask');
  });

  it('pattern syntax: prefix, trailing and inner word wildcards, quoted words, assignments spelled out', () => {
    const cover = (pattern: string, command: string) => coverCommand(command, [{ tool: 'bash', pattern, decision: 'allow', source: 'user' }], { root }) !== undefined;
    expect(cover('npm test:*', 'npm test')).toBe(true);
    expect(cover('npm test:*', 'npm testing')).toBe(false);
    expect(cover('npm test *', 'npm test')).toBe(true);
    expect(cover('npm test *', 'npm test -- a b')).toBe(true);
    expect(cover('git * --force', 'git push --force')).toBe(true);
    expect(cover('git * --force', 'git --force')).toBe(true);
    expect(cover('git * --force', 'gitx --force')).toBe(false);
    expect(cover('rm *.tmp', 'rm a.tmp')).toBe(true);
    expect(cover('rm *.tmp', 'rm -rf / a.tmp')).toBe(false);
    expect(cover("git commit -m 'a b'", 'git commit -m "a b"')).toBe(true);
    expect(cover('NODE_ENV=test npm test:*', 'NODE_ENV=test npm test -- x')).toBe(true);
    expect(cover('echo \\*', 'echo "*"')).toBe(true);
    expect(cover('echo \\*', 'echo x')).toBe(false);
  });
});

describe('ask rules', () => {
  const ask = rules('ask', 'Bash(git push:*)');

  it('ask in every mode when someone can be asked, and name the rule and its file', () => {
    for (const preference of ['ask', 'auto', 'yolo'] as Preference[]) {
      const decision = decide('cd x && git push origin main', ask, preference, true);
      expect(decision, preference).toMatchObject({ decision: 'ask', code: 'ask_rule' });
      if (decision.decision === 'ask') expect(decision.reason).toMatch(/the ask rule Bash\(git push:\*\) from \/home\/u\/\.seek\/config\.json/);
    }
  });

  it('deny when nobody can be asked (headless), naming the rule and its file', () => {
    for (const preference of ['deny', 'auto', 'yolo'] as Preference[]) {
      const decision = decide('env git push origin main', ask, preference, false);
      expect(decision, preference).toMatchObject({ decision: 'deny', code: 'ask_rule' });
      if (decision.decision === 'deny') expect(decision.message).toMatch(/needs a person's approval: it matches the ask rule Bash\(git push:\*\) from \/home\/u\/\.seek\/config\.json/);
    }
  });

  it('never loosen plan mode, and beat the read-only inspector shortcut', () => {
    const state = { root, preference: 'ask' as const, workflow: 'plan_analyze' as const, preApproved: false, rules: ask, sandbox: { available: true } };
    expect(evaluatePolicy(state, bash('git push'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'deny', code: 'plan_analyze' });
    const inspectorAsk = { ...state, workflow: 'none' as const, rules: rules('ask', 'Bash(git status)') };
    expect(evaluatePolicy(inspectorAsk, bash('git status'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'ask', code: 'ask_rule' });
  });
});

describe('the analysis', () => {
  it('lists simple commands with what they were reached through', () => {
    const shown = analyzeCommand("FOO=1 sudo -u root sh -c 'curl -s x | tee y' > /dev/null").commands.map(formatSimpleCommand);
    expect(shown).toEqual(["FOO=1 sudo -u root sh -c 'curl -s x | tee y'", "sudo → sh -c 'curl -s x | tee y'", 'sudo → sh -c → curl -s x', 'sudo → sh -c → tee y']);
  });

  it('records redirections to files, and what was not readable', () => {
    const analysis = analyzeCommand('npm test > log.txt 2>&1; $X');
    expect(analysis.commands[0]).toMatchObject({ writesFiles: true });
    expect(analysis.problems).toEqual(['the program is not known before the command runs ($X)']);
    expect(denyMatch('rm:*', '$X')).toMatchObject({ unresolved: expect.any(String) });
  });

  it('is fast once loaded', () => {
    const line = 'FOO=1 git status && npm test -- --run a/b.test.ts 2>&1 | tail -20; echo "$(date)"';
    analyzeCommand(`${line} #warm`);
    const started = performance.now();
    for (let i = 0; i < 50; i++) analyzeCommand(`${line} #${i}`);
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });

  it('judges a huge argument quickly, erring closed past what it compares', () => {
    const huge = `echo ${'a'.repeat(200_000)}`;
    const started = performance.now();
    expect(decide(huge, rules('deny', 'Bash(curl:*)', 'Bash(echo b:*)')).decision).toBe('allow');
    expect(decide(`${huge} && curl x`, rules('deny', 'Bash(curl:*)')).decision).toBe('deny');
    expect(decide(huge, rules('allow', 'Bash(echo:*)'), 'ask', true).decision).toBe('allow');
    expect(performance.now() - started).toBeLessThan(5_000);
    // Past a megabyte a line is not parsed: unreadable, so a deny rule on commands refuses it.
    expect(decide(`echo ${'a'.repeat(1_000_001)}`, rules('deny', 'Bash(curl:*)')).decision).toBe('deny');
  });
});
