import { tempDir } from '../../../support/temp-dirs.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { loadPermissionRules } from '../../../../src/policy/config-rules.js';
import { addConfigRule } from '../../../../src/policy/config-write.js';
import { PermissionPolicy } from '../../../../src/policy/policy.js';
import type { PolicyRule } from '../../../../src/policy/types.js';
import { PermissionsPanel } from '../../../../src/tui/components/PermissionsPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { permissionsPanelSource } from '../../../../src/tui/state/permissions.js';
import { saveFilesOf } from '../../../../src/tui/state/rule-scopes.js';
import { flush, KEYS, waitFor } from '../input/helpers.js';

/** A project (with a .git directory) and a SEEK_HOME, with config files written as given. */
async function project(files: { user?: object; project?: object; local?: object } = {}) {
  const base = tempDir('seek-perm-panel-');
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, '.seek'), { recursive: true });
  mkdirSync(home, { recursive: true });
  if (files.user) writeFileSync(join(home, 'config.json'), JSON.stringify(files.user));
  if (files.project) writeFileSync(join(root, '.seek', 'config.json'), JSON.stringify(files.project));
  if (files.local) writeFileSync(join(root, '.seek', 'config.local.json'), JSON.stringify(files.local));
  const userConfig = files.user ? (files.user as Record<string, unknown>) : {};
  const loaded = await loadPermissionRules({ seekHome: home, projectRoot: root, userConfig, userConfigFile: join(home, 'config.json') });
  const policy = new PermissionPolicy({ root, rules: loaded.rules, sandbox: { available: false, reason: 'bwrap is not installed' } });
  return { root, home, policy };
}

function open(setup: Awaited<ReturnType<typeof project>>) {
  const { root, home, policy } = setup;
  const source = permissionsPanelSource({ policy, seekHome: home, projectRoot: root });
  let closed = 0;
  const view = render(
    <PermissionsPanel source={source} files={saveFilesOf(home, root, '/nowhere')} projectRoot={root} width={100} color={false} onClose={() => void closed++} />,
  );
  const frame = () => stripAnsi(view.lastFrame() ?? '');
  const rows = () => frame().split('\n').map((line) => line.replace(/^│ /, '').replace(/ *│$/, '').trimEnd());
  async function press(...sequences: string[]): Promise<void> {
    await flush();
    for (const sequence of sequences) {
      view.stdin.write(sequence);
      await flush();
    }
  }
  return { view, frame, rows, press, closed: () => closed };
}

const texts = (rules: readonly PolicyRule[]) => rules.map((rule) => `${rule.source} ${rule.decision} ${rule.origin?.text ?? `${rule.tool}(${rule.pattern})`}`);
const fileJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { permissions?: Record<string, string[]> };

describe('/permissions panel: the list', () => {
  it('lists every rule with its decision, text and source, held-back project rules marked, the mode and the sandbox', async () => {
    const setup = await project({
      user: { permissions: { allow: ['Bash(npm test:*)'] } },
      project: { permissions: { deny: ['Read(./.env)'], allow: ['Bash(make deploy)'] } },
    });
    setup.policy.addRule({ tool: 'bash', pattern: 'git status', decision: 'allow', source: 'session' });
    const { rows, view } = open(setup);
    await waitFor(() => expect(rows().join('\n')).toContain('held back'));
    const shown = rows();
    expect(shown[1]).toBe('Permissions mode ask · no sandbox (bwrap is not installed) · 3 rules · 1 held back');
    const body = shown.filter((line) => /^(❯ | {2})(allow|ask|deny) /.test(line)).map((line) => line.slice(2).replace(/ +/g, ' '));
    expect(body).toEqual([
      'allow bash(git status) this session',
      'deny Read(./.env) project .seek/config.json',
      `allow Bash(npm test:*) user ${join(setup.home, 'config.json')}`,
      'allow Bash(make deploy) project .seek/config.json [held back: project not trusted]',
    ]);
    // The selected rule's whereabouts, below the list; the keys at the bottom.
    expect(shown).toContain('this session only: gone when it ends');
    expect(shown.at(-2)).toBe('↑↓ select · pgup/pgdn page · a add · d remove · r reload · esc close');
    view.unmount();
  });

  it('lists a rule an "always" answer saved to a file since the session started, and applies it', async () => {
    const setup = await project();
    await addConfigRule({ scope: 'local', seekHome: setup.home, projectRoot: setup.root }, 'allow', 'bash(npm test)');
    expect(setup.policy.rules).toEqual([]);
    const { rows, view } = open(setup);
    await waitFor(() => expect(rows().join('\n')).toMatch(/allow +bash\(npm test\) +local \.seek\/config\.local\.json/));
    expect(texts(setup.policy.rules)).toEqual(['local allow bash(npm test)']);
    view.unmount();
  });

  it('says when there are no rules, moves with ↑↓ and PgDn, and Esc closes', async () => {
    const empty = await project();
    const first = open(empty);
    await waitFor(() => expect(first.frame()).toContain('no rules: the defaults apply'));
    await first.press(KEYS.escape);
    expect(first.closed()).toBe(1);
    first.view.unmount();

    const many = await project({ project: { permissions: { deny: Array.from({ length: 20 }, (_, index) => `Read(secret-${index}.txt)`) } } });
    const { rows, press, view } = open(many);
    await waitFor(() => expect(rows().join('\n')).toContain('1/20'));
    await press('\u001b[6~' /* PgDn */);
    expect(rows().find((line) => line.startsWith('❯'))).toMatch(/Read\(secret-12\.txt\)/);
    await press(KEYS.up);
    expect(rows().find((line) => line.startsWith('❯'))).toMatch(/Read\(secret-11\.txt\)/);
    expect(rows().join('\n')).toContain('12/20');
    view.unmount();
  });
});

describe('/permissions panel: adding a rule', () => {
  it('adds a rule for this session: decision with Tab, the text, then s', async () => {
    const setup = await project();
    const { rows, frame, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('no rules'));
    await press('a');
    expect(frame()).toContain('decision: allow');
    await press(KEYS.tab, KEYS.tab); // allow → ask → deny
    expect(frame()).toContain('decision: deny');
    await press('Read(./.env)');
    expect(frame()).toContain('rule: Read(./.env)▏');
    await press(KEYS.enter);
    expect(rows()).toContain('Add deny Read(./.env) for:');
    expect(frame()).toContain('l) this project, only me  — .seek/config.local.json (kept out of git)');
    expect(setup.policy.rules).toEqual([]); // nothing happens before the scope is chosen
    await press('s');
    await waitFor(() => expect(frame()).toContain('deny Read(./.env) added for this session'));
    expect(texts(setup.policy.rules)).toEqual(['session deny Read(./.env)']);
    expect(setup.policy.rules[0]).toMatchObject({ kind: 'read', pattern: '.env', decision: 'deny', source: 'session' });
    expect(rows().join('\n')).toMatch(/deny +Read\(\.\/\.env\) +this session/);
    expect(existsSync(join(setup.root, '.seek', 'config.local.json'))).toBe(false);
    view.unmount();
  });

  it('saves a rule to the local file: the file has it, git ignores the file, the live policy has it as local', async () => {
    const setup = await project();
    const { frame, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('no rules'));
    await press('a', 'Bash(npm test:*)', KEYS.enter, 'l');
    const file = join(setup.root, '.seek', 'config.local.json');
    await waitFor(() => expect(frame()).toContain(`allow Bash(npm test:*) saved to ${file}`));
    expect(fileJson(file).permissions).toEqual({ allow: ['Bash(npm test:*)'] });
    expect(readFileSync(join(setup.root, '.git', 'info', 'exclude'), 'utf8')).toContain('/.seek/config.local.json');
    expect(texts(setup.policy.rules)).toEqual(['local allow Bash(npm test:*)']);
    expect(setup.policy.rules[0]!.origin?.file).toBe(file);
    expect(frame()).toMatch(/allow +Bash\(npm test:\*\) +local \.seek\/config\.local\.json/);
    view.unmount();
  });

  it('saves to the project and user files with ↑↓ Enter, keeping their other keys', async () => {
    const setup = await project({ user: { model: 'deepseek-v4-pro' } });
    const { frame, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('no rules'));
    await press('a', KEYS.tab, KEYS.tab, 'Edit(secrets/**)', KEYS.enter, KEYS.down, KEYS.down, KEYS.enter);
    await waitFor(() => expect(frame()).toContain('saved to'));
    expect(fileJson(join(setup.root, '.seek', 'config.json')).permissions).toEqual({ deny: ['Edit(secrets/**)'] });
    await press('a', 'write_file(docs/**)', KEYS.enter, KEYS.up, KEYS.enter);
    await waitFor(() => expect(frame()).toContain(`saved to ${join(setup.home, 'config.json')}`));
    expect(JSON.parse(readFileSync(join(setup.home, 'config.json'), 'utf8'))).toEqual({ model: 'deepseek-v4-pro', permissions: { allow: ['write_file(docs/**)'] } });
    // Edit(…) stands for edits and writes: two policy rules, one row.
    expect(texts(setup.policy.rules).sort()).toEqual(['project deny Edit(secrets/**)', 'project deny Edit(secrets/**)', 'user allow write_file(docs/**)']);
    expect(frame().match(/Edit\(secrets\/\*\*\)/g)).toHaveLength(1);
    view.unmount();
  });

  it('shows why an invalid rule is not one, inline, and changes nothing', async () => {
    const setup = await project();
    const { frame, rows, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('no rules'));
    await press('a', 'Bsh(npm test)', KEYS.enter);
    expect(frame()).toContain('! "Bsh(npm test)": unknown tool Bsh.');
    expect(rows()).not.toContain('Add allow Bsh(npm test) for:'); // still typing: no scope step
    await press(KEYS.enter, 'l');
    expect(setup.policy.rules).toEqual([]);
    expect(existsSync(join(setup.root, '.seek', 'config.local.json'))).toBe(false);
    // Fixing the text clears the error; Esc cancels the form.
    await press(KEYS.backspace); // the stray l
    await press(KEYS.backspace.repeat('Bsh(npm test)'.length)); // Backspace held down: one chunk
    expect(frame()).toContain('rule: ▏');
    expect(frame()).not.toContain('unknown tool');
    await press('Bash()\r'); // the text and its Enter in one read, as a busy terminal delivers them
    expect(frame()).toContain('empty parentheses');
    await press(KEYS.escape);
    expect(frame()).not.toContain('Add a rule');
    expect(setup.policy.rules).toEqual([]);
    view.unmount();
  });
});

describe('/permissions panel: a project that is not trusted', () => {
  it('saves a local allow rule but says it is held back, and lists it so, not in effect', async () => {
    const setup = await project({ project: { permissions: { allow: ['Bash(make deploy)'] } } });
    const { frame, rows, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('1 held back'));
    await press('a', 'bash(npm test)', KEYS.enter, 'l');
    await waitFor(() => expect(rows().join(' ')).toContain("not applied: this project's allow rules are not trusted"));
    expect(fileJson(join(setup.root, '.seek', 'config.local.json')).permissions).toEqual({ allow: ['bash(npm test)'] });
    expect(setup.policy.rules).toEqual([]);
    expect(rows().join('\n')).toMatch(/allow +bash\(npm test\) +local \.seek\/config\.local\.json \[held back: project not trusted\]/);
    // A deny rule tightens: it applies at once, trusted or not.
    await press('a', KEYS.tab, KEYS.tab, 'Read(./.env)', KEYS.enter, 'p');
    await waitFor(() => expect(frame()).toContain('deny Read(./.env) saved to'));
    expect(texts(setup.policy.rules)).toEqual(['project deny Read(./.env)']);
    view.unmount();
  });
});

describe('/permissions panel: removing a rule', () => {
  it('removes a session rule from the live policy after y', async () => {
    const setup = await project();
    setup.policy.addRule({ tool: 'bash', pattern: 'git status', decision: 'allow', source: 'session' });
    const { frame, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('bash(git status)'));
    await press('d');
    expect(frame()).toContain('remove allow bash(git status) from this session? y/n');
    await press('n');
    expect(setup.policy.rules).toHaveLength(1);
    await press('d', 'y');
    await waitFor(() => expect(frame()).toContain('removed allow bash(git status) from this session'));
    expect(setup.policy.rules).toEqual([]);
    view.unmount();
  });

  it('removes a config rule from its file and from the live policy, every policy rule it stands for', async () => {
    const setup = await project({ local: { permissions: { deny: ['Edit(secrets/**)'], allow: ['bash(npm test)'] } } });
    expect(setup.policy.rules).toHaveLength(2); // deny only (the allow one is held back: not trusted)
    const { frame, rows, press, view } = open(setup);
    await waitFor(() => expect(frame()).toContain('held back'));
    expect(rows().find((line) => line.startsWith('❯'))).toMatch(/deny +Edit\(secrets\/\*\*\) +local/);
    await press('d');
    expect(frame()).toContain('remove deny Edit(secrets/**) from .seek/config.local.json? y/n');
    await press('y');
    await waitFor(() => expect(frame()).toContain('removed deny Edit(secrets/**) from'));
    expect(setup.policy.rules).toEqual([]);
    expect(fileJson(join(setup.root, '.seek', 'config.local.json')).permissions).toEqual({ allow: ['bash(npm test)'] });
    // The held-back rule can go too.
    await press('d', 'y');
    await waitFor(() => expect(frame()).toContain('removed allow bash(npm test) from'));
    expect(fileJson(join(setup.root, '.seek', 'config.local.json')).permissions).toEqual({});
    expect(frame()).toContain('no rules');
    view.unmount();
  });
});
