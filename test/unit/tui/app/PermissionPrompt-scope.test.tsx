import { describe, expect, it } from 'vitest';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../../../src/policy/tool-gate.js';
import { PermissionPrompt } from '../../../../src/tui/components/PermissionPrompt.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { widestLine } from '../conversation/ink-at-width.js';
import { flush, KEYS, renderAttached } from '../input/helpers.js';

const BASH: PermissionRequest = {
  tool: 'bash',
  callId: 'call_b',
  action: { kind: 'bash', paths: ['/repo'], command: 'npm test', summary: 'bash: npm test' },
  cwd: '/repo',
  reason: 'bash needs approval',
  alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
};

const FILES = { local: '.seek/config.local.json', project: '.seek/config.json', user: '/tmp/seek-home/config.json' };

async function setup(request: PermissionRequest = BASH, rows = 40) {
  const answers: AskAnswer[] = [];
  const view = await renderAttached(<PermissionPrompt request={request} width={100} rows={rows} color={false} files={FILES} onAnswer={(answer) => answers.push(answer)} />);
  const inner = () =>
    stripAnsi(view.lastFrame() ?? '')
      .split('\n')
      .map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''));
  async function press(...sequences: string[]): Promise<void> {
    await flush();
    for (const sequence of sequences) {
      view.stdin.write(sequence);
      await flush();
    }
  }
  return { answers, view, inner, press };
}

describe('PermissionPrompt: where "always" saves the rule', () => {
  it('a asks where, showing the exact rule and each file before anything is answered', async () => {
    const { answers, inner, press, view } = await setup();
    expect(inner().join('\n')).toContain('a) Yes, and always, then choose where — adds bash(npm test)');
    await press('a');
    expect(answers).toEqual([]);
    const rows = inner();
    const header = rows.findIndex((line) => line === 'Yes, and always allow bash(npm test) — for:');
    expect(header).toBeGreaterThan(-1);
    expect(rows.slice(header + 1, header + 6).map((line) => line.trimEnd())).toEqual([
      '❯ a) this session only',
      '  l) this project, only me  — .seek/config.local.json (kept out of git)',
      '  p) this project, everyone — .seek/config.json (commit it to share)',
      '  u) me, in every project   — /tmp/seek-home/config.json',
      '↑↓ enter · esc back to the question',
    ]);
    expect(rows.some((line) => line.includes('y) Yes'))).toBe(false); // the first step's choices are gone
    view.unmount();
  });

  it.each([
    ['a', 'always'],
    ['s', 'always'],
    ['l', 'always-local'],
    ['p', 'always-project'],
    ['u', 'always-user'],
    ['U', 'always-user'],
  ] as const)('a then %j answers %s', async (key, expected) => {
    const { answers, press, view } = await setup();
    await press('a', key);
    expect(answers).toEqual([expected]);
    view.unmount();
  });

  it('chooses the scope with the arrows and Enter (↑ from the first wraps to the last)', async () => {
    const { answers, inner, press, view } = await setup();
    await press(KEYS.down, KEYS.enter); // Enter on "always" opens the second step
    expect(answers).toEqual([]);
    await press(KEYS.down);
    expect(inner().find((line) => line.startsWith('❯'))).toMatch(/^❯ l\) this project, only me/);
    await press(KEYS.enter);
    expect(answers).toEqual(['always-local']);
    const second = await setup();
    await second.press('a', KEYS.up, KEYS.enter);
    expect(second.answers).toEqual(['always-user']);
    second.view.unmount();
    view.unmount();
  });

  it('Esc goes back to the question without answering; y, n and chords do nothing in the second step', async () => {
    const { answers, inner, press, view } = await setup();
    await press('a', 'y', 'n', KEYS.ctrlA, '\u001bl' /* Alt+L */, '\u000c' /* Ctrl+L */);
    expect(answers).toEqual([]);
    expect(inner().join('\n')).toContain('— for:');
    await press(KEYS.escape);
    expect(answers).toEqual([]);
    expect(inner().join('\n')).toContain('n) No (esc)');
    await press(KEYS.escape);
    expect(answers).toEqual([{ decline: 'stop' }]);
    view.unmount();
  });

  it('keeps the second step inside the width and the height, windowing a long command', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `echo "line ${index + 1}" >> out.txt`);
    const request: PermissionRequest = { ...BASH, action: { ...BASH.action, command: lines.join('\n') }, alwaysRule: { ...BASH.alwaysRule, pattern: lines.join('\n') } };
    const { inner, press, view } = await setup(request, 24);
    await press('a');
    const rows = inner();
    expect(rows.length).toBeLessThanOrEqual(24 - 4);
    expect(rows.join('\n')).toContain('Yes, and always allow bash(<the command above>) — for:');
    expect(rows.join('\n')).toMatch(/more below · pgup\/pgdn to scroll/);
    expect(rows.join('\n')).toContain('u) me, in every project');
    expect(widestLine(view.lastFrame() ?? '')).toBeLessThanOrEqual(100);
    view.unmount();
  });
});
