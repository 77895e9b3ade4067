import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

const localConfig = (root: string) => JSON.parse(readFileSync(join(root, '.seek', 'config.local.json'), 'utf8')) as { permissions?: { allow?: string[] } };

describe.skipIf(!hasTmux)('permissions in the terminal UI (tmux)', () => {
  it('"always" for this project, only me: saves the rule to .seek/config.local.json (excluded from git); /permissions lists it', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch made-by-bash' } }] }, { text: 'Touched it.' });
    const t = h.start(root, home, { width: 120 });
    await t.waitFor('ask seek');
    t.type('make a file');
    t.keys('Enter');
    await t.waitFor('adds bash(touch made-by-bash)');
    t.type('a');
    const scopes = await t.waitFor('— for:');
    // The exact rule and every file, before anything is saved.
    expect(scopes).toContain('Yes, and always allow bash(touch made-by-bash) — for:');
    expect(scopes).toContain('l) this project, only me  — .seek/config.local.json (kept out of git)');
    expect(scopes).toContain('p) this project, everyone — .seek/config.json');
    expect(scopes).toContain(`u) me, in every project   — ${join(home, 'config.json')}`);
    expect(existsSync(join(root, '.seek', 'config.local.json'))).toBe(false);
    t.type('l');
    await t.waitFor('Touched it.');
    expect(existsSync(join(root, 'made-by-bash'))).toBe(true);
    expect(localConfig(root).permissions?.allow).toEqual(['bash(touch made-by-bash)']);
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8').split('\n')).toContain('/.seek/config.local.json');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).not.toContain('.seek');

    t.type('/permissions');
    t.keys('Enter');
    const panel = await t.waitFor(/allow +bash\(touch made-by-bash\) +local \.seek\/config\.local\.json/);
    expect(panel).toMatch(/Permissions mode ask · .* · 2 rules/);
    expect(panel).toMatch(/allow +bash\(touch made-by-bash\) +this session/); // the answer itself holds for the session
    expect(panel).toContain('a add · d remove');
    t.keys('Escape');
    await t.waitFor('ask seek');
  });

  it('a rule added in /permissions applies to the next call at once, and one removed there stops applying', async () => {
    const { root, home } = makeProject();
    const t = h.start(root, home, { width: 120 });
    await t.waitFor('ask seek');
    t.type('/permissions');
    t.keys('Enter');
    await t.waitFor('no rules: the defaults apply');
    t.type('a');
    await t.waitFor('decision: allow');
    t.type('Bsh(touch x)');
    t.keys('Enter');
    await t.waitFor('unknown tool Bsh');
    for (let index = 0; index < 'Bsh(touch x)'.length; index++) t.keys('BSpace');
    await t.waitFor(/rule: ▏/);
    t.type('bash(touch from-panel)');
    t.keys('Enter');
    await t.waitFor('Add allow bash(touch from-panel) for:');
    t.type('s');
    await t.waitFor(/allow +bash\(touch from-panel\) +this session/);
    t.keys('Escape');
    await t.waitFor('ask seek');

    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch from-panel' } }] }, { text: 'Ran without asking.' });
    t.type('touch it');
    t.keys('Enter');
    const ran = await t.waitFor('Ran without asking.');
    expect(ran).not.toContain('Allow bash: touch from-panel?');
    expect(existsSync(join(root, 'from-panel'))).toBe(true);

    t.type('/permissions');
    t.keys('Enter');
    await t.waitFor(/❯ allow +bash\(touch from-panel\)/);
    t.type('d');
    await t.waitFor('remove allow bash(touch from-panel) from this session? y/n');
    t.type('y');
    await t.waitFor('removed allow bash(touch from-panel) from this session');
    t.keys('Escape');
    await t.waitFor('ask seek');
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch from-panel' } }] });
    t.type('again');
    t.keys('Enter');
    await t.waitFor('Allow bash: touch from-panel?');
    await t.answer('n', /⊘ bash touch from-panel/);
  });
});
