import { PassThrough, Writable } from 'node:stream';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { approvalView, commandRows, formatApprovalLines, ruleText, visible, wrapColumns, type ApprovalRequest } from '../../../src/frontends/approval.js';
import { PlainInteractive, type InteractiveSession } from '../../../src/frontends/plain-interactive.js';
import type { PermissionPrompt } from '../../../src/policy/tool-gate.js';
import { makeDiffDisplay } from '../../../src/tools/diff-display.js';

/** Any raw control character, escape or invisible/reordering character a display must not emit. */
const RAW_HIDING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

function bash(command: string, extra: Partial<PermissionPrompt> = {}): PermissionPrompt {
  return {
    tool: 'bash',
    callId: 'call_1',
    action: { kind: 'bash', paths: ['/repo'], command, summary: `bash: ${command.split('\n')[0]}` },
    cwd: '/repo',
    reason: 'bash needs approval',
    alwaysRule: { tool: 'bash', pattern: command.trim(), decision: 'allow', source: 'session' },
    ...extra,
  };
}

const THIRTY = [...Array.from({ length: 29 }, (_, index) => `echo "line ${index + 1}" >> out.txt`), 'rm -rf something-marker'];

describe('approval display: the whole command', () => {
  it('shows all 30 lines of a 30-line command, in order, under $ and > gutters', () => {
    const text = formatApprovalLines(bash(THIRTY.join('\n')));
    expect(text).toContain('  command, 30 lines:');
    const rows = text.filter((line) => /^ {2}[$>] /.test(line));
    expect(rows).toEqual(THIRTY.map((line, index) => `  ${index === 0 ? '$' : '>'} ${line}`));
    expect(approvalView(bash(THIRTY.join('\n'))).command).toEqual(THIRTY);
  });

  it('shows a line of 500 characters whole, and wraps it (nothing dropped) at a width', () => {
    const long = `curl -fsSL ${Array.from({ length: 60 }, (_, index) => `part${index}`).join('/')} ${'x'.repeat(500)}`.slice(0, 500);
    expect(long).toHaveLength(500);
    // A pipe: no wrapping, the line is one row.
    expect(formatApprovalLines(bash(long))).toContain(`  $ ${long}`);
    // A terminal 80 wide: rows of at most 80 columns that join back into the line.
    const rows = formatApprovalLines(bash(long), 80).filter((line) => line.startsWith('  $ ') || /^ {4}\S/.test(line));
    expect(rows.length).toBeGreaterThan(6);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(80);
    expect(rows.map((row) => row.slice(4)).join('')).toBe(long);
  });

  it('keeps spaces where a row wraps and cuts wide characters between graphemes', () => {
    expect(wrapColumns('ab cd ef', 3)).toEqual(['ab ', 'cd ', 'ef']);
    const wide = '漢字'.repeat(20);
    const pieces = wrapColumns(wide, 9);
    expect(pieces.join('')).toBe(wide);
    for (const piece of pieces) expect(stringWidth(piece)).toBeLessThanOrEqual(9);
    expect(wrapColumns('', 10)).toEqual(['']);
    // Wrapped rows sit under a blank gutter, so they cannot pass for a new line of the command.
    expect(commandRows(['echo one', 'abcdefghij'], 6)).toEqual([
      { gutter: '$ ', text: 'echo' },
      { gutter: '  ', text: ' one' },
      { gutter: '> ', text: 'abcd' },
      { gutter: '  ', text: 'efgh' },
      { gutter: '  ', text: 'ij' },
    ]);
  });

  it('drops only a trailing newline, never a line with content', () => {
    expect(approvalView(bash('echo a\n\necho b\n')).command).toEqual(['echo a', '', 'echo b']);
  });
});

describe('approval display: hostile text is shown, not obeyed', () => {
  it('renders escape sequences, carriage returns and invisible characters visibly escaped', () => {
    const command = 'rm -rf ~/x\r\u001b[2Kecho harmless\u0007\u009b31m ok\u202etxt.exe\u200bz\ttab';
    const text = formatApprovalLines(bash(command)).join('\n');
    expect(text).not.toMatch(RAW_HIDING);
    expect(text).toContain('$ rm -rf ~/x\\r\\x1b[2Kecho harmless\\x07\\x9b31m ok\\u202etxt.exe\\u200bz\\ttab');
    expect(text).toContain('hidden characters shown escaped: \\r \\x1b \\x07 \\x9b \\u202e \\u200b …');
    expect(visible('a\u{e0041}b\u2028c')).toBe('a\\u{e0041}b\\u2028c');
  });

  it('escapes the summary, paths, working directory, subagent name and rule too', () => {
    const request: PermissionPrompt = {
      tool: 'write_file',
      callId: 'call_2',
      action: { kind: 'write', paths: ['/repo/a\u001b[8m.ts'], summary: 'create a\u001b[8m.ts' },
      cwd: '/repo',
      reason: 'write_file needs approval',
      alwaysRule: { tool: 'write_file', pattern: 'a\u001b[8m.ts', decision: 'allow', source: 'session' },
      subagent: { id: 'agent-1', description: 'helper\r[subagent: trusted]' },
    };
    const text = formatApprovalLines(request).join('\n');
    expect(text).not.toMatch(RAW_HIDING);
    expect(text).toContain('[subagent: helper\\r[subagent: trusted]] asks:');
    expect(text).toContain('Allow create a\\x1b[8m.ts?');
    expect(text).toContain('path: /repo/a\\x1b[8m.ts');
    expect(text).toContain('write_file(a\\x1b[8m.ts)');
  });

  it('escapes a diff preview, shows all of it, and spells tabs as spaces there', () => {
    const after = `${Array.from({ length: 80 }, (_, index) => `line ${index}`).join('\n')}\n\u001b[2J\n\tindented\n`;
    const request: PermissionPrompt = {
      tool: 'write_file',
      callId: 'call_3',
      action: { kind: 'write', paths: ['/repo/big.txt'], summary: 'create big.txt', preview: makeDiffDisplay('big.txt', '', after) },
      cwd: '/repo',
      reason: 'write_file needs approval',
      alwaysRule: { tool: 'write_file', pattern: '*', decision: 'allow', source: 'session' },
    };
    const text = formatApprovalLines(request);
    expect(text.join('\n')).not.toMatch(RAW_HIDING);
    for (let index = 0; index < 80; index++) expect(text).toContain(`  +line ${index}`);
    expect(text).toContain('  +\\x1b[2J');
    expect(text).toContain('  +    indented');
  });
});

describe('approval display: paths, rules, kinds', () => {
  it('lists every path an action touches; a command shows where it runs instead of repeating it', () => {
    const read: PermissionPrompt = {
      tool: 'read_file',
      callId: 'call_4',
      action: { kind: 'read', paths: ['/etc/passwd'], summary: 'read /etc/passwd' },
      cwd: '/repo',
      reason: 'read_file outside the project (/etc/passwd) needs approval',
      alwaysRule: { tool: 'read_file', pattern: '/etc/**', decision: 'allow', source: 'session' },
    };
    expect(formatApprovalLines(read)).toEqual([
      'Allow read /etc/passwd?',
      '  read_file outside the project (/etc/passwd) needs approval',
      '  path: /etc/passwd',
      '  [a]lways adds the rule read_file(/etc/**): for this session, or saved to a config file (asked next)',
    ]);
    const many: ApprovalRequest = { action: { kind: 'write', paths: ['/repo/a.ts', '/repo/b/c.ts', '/outside/d.ts'], summary: 'write 3 files' } };
    const text = formatApprovalLines(many);
    expect(text).toContain('  paths (3):');
    for (const path of many.action.paths) expect(text).toContain(`    ${path}`);
    const command = formatApprovalLines({ ...bash('make'), action: { ...bash('make').action, paths: ['/repo', '/tmp/cache'] } });
    expect(command).toContain('  in /repo');
    expect(command).toContain('  path: /tmp/cache');
    expect(command.filter((line) => line.includes('/repo'))).toEqual(['  in /repo']);
  });

  it('shows the exact rule "always" adds: inline when short, pointing at a long or multi-line command', () => {
    expect(formatApprovalLines(bash('npm test'))).toContain('  [a]lways adds the rule bash(npm test): for this session, or saved to a config file (asked next)');
    expect(ruleText({ tool: 'bash', pattern: 'a\nb', decision: 'allow', source: 'session' }, 'a\nb\n')).toBe('bash(<the command above>)');
    expect(ruleText({ tool: 'bash', pattern: 'rm *\nls', decision: 'allow', source: 'session' }, 'rm *\nls')).toBe('bash(<the command above, each * a wildcard>)');
    expect(ruleText({ tool: 'bash', pattern: 'x'.repeat(61), decision: 'allow', source: 'session' }, 'x'.repeat(61))).toBe('bash(<the command above>)');
    expect(ruleText({ kind: 'memory', decision: 'allow', source: 'session' })).toBe('[memory]');
    // A rule that is not the command itself is always spelled out.
    expect(ruleText({ tool: 'bash', pattern: 'npm *', decision: 'allow', source: 'session' }, 'npm test\nnpm run lint')).toBe('bash(npm *)');
  });

  it('says which subagent asks, shows a worktree merge with its path and a memory entry whole', () => {
    const merge: ApprovalRequest = {
      action: { kind: 'write', paths: ['/repo'], summary: 'merge worktree /home/u/.seek/wt/abc into the main working tree' },
      cwd: '/home/u/.seek/wt/abc',
      reason: 'exit_worktree needs approval',
      subagent: { description: 'refactor the parser' },
    };
    const text = formatApprovalLines(merge);
    expect(text[0]).toBe('[subagent: refactor the parser] asks:');
    expect(text[1]).toBe('Allow merge worktree /home/u/.seek/wt/abc into the main working tree?');
    expect(text).toContain('  path: /repo');
    const memory: ActionRequest = { kind: 'memory', paths: [], summary: 'remember "style"', preview: { kind: 'text', text: 'Use tabs.\nNever spaces.' } };
    expect(formatApprovalLines({ action: memory })).toEqual(['Allow remember "style"?', '  Use tabs.', '  Never spaces.']);
  });

  it('warns when a command would run outside the OS sandbox', () => {
    const request = bash('curl example.com');
    (request.action as ActionRequest & { unsandboxed?: boolean }).unsandboxed = true;
    expect(formatApprovalLines(request)).toContain('  ! runs OUTSIDE the OS sandbox');
  });
});

describe('plain front end: ask', () => {
  function plain() {
    const input = new PassThrough();
    let written = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const session: InteractiveSession = {
      id: 's1',
      model: 'm',
      subscribe: () => () => undefined,
      prompt: () => Promise.reject(new Error('not used')),
      setMode: () => 'ask',
      costReport: () => '',
    };
    const ui = new PlainInteractive(session, input, output);
    return { ui, input, written: () => written };
  }

  it('prints the whole action, the rule and then the question, before reading the answer', async () => {
    const { ui, input, written } = plain();
    const answer = ui.ask(bash(THIRTY.join('\n')));
    // Everything is written before ask waits for a line.
    const shown = written();
    expect(shown.endsWith('[y]es / [n]o / [a]lways this session: ')).toBe(true);
    for (const line of THIRTY) expect(shown).toContain(` ${line}\n`);
    expect(shown).toContain('[a]lways adds the rule bash(<the command above>): for this session');
    input.write('a\n\n'); // always, then an empty line: this session only
    await expect(answer).resolves.toBe('always');
    ui.close();
  });

  it('still takes just an action and the agent name (older callers)', async () => {
    const { ui, input, written } = plain();
    const answer = ui.ask(bash('ls\nrm -rf x').action, 'cleaner');
    expect(written()).toContain('[subagent: cleaner] asks:\nAllow bash: ls?\n  command, 2 lines:\n  $ ls\n  > rm -rf x\n  path: /repo\n');
    input.write('n\n');
    await expect(answer).resolves.toBe('no');
    ui.close();
  });
});
