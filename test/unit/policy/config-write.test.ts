import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPermissionRules } from '../../../src/policy/config-rules.js';
import { addConfigRule, removeConfigRule } from '../../../src/policy/config-write.js';
import { RuleSyntaxError } from '../../../src/policy/rule-syntax.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-config-write-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', root]);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const load = async () => loadPermissionRules({ seekHome: home, projectRoot: root, userConfig: JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')), userConfigFile: path.join(home, 'config.json') });

describe('writing rules to config files', () => {
  it('keeps the other keys, validates the rule, and is idempotent', async () => {
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ default_provider: 'deepseek', providers: { deepseek: { api_key: 'sk' } } }));
    expect(await addConfigRule({ scope: 'user', seekHome: home, projectRoot: root }, 'allow', 'Bash(npm test:*)')).toBe(true);
    expect(await addConfigRule({ scope: 'user', seekHome: home, projectRoot: root }, 'allow', 'Bash(npm test:*)')).toBe(false);
    const config = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));
    expect(config).toEqual({ default_provider: 'deepseek', providers: { deepseek: { api_key: 'sk' } }, permissions: { allow: ['Bash(npm test:*)'] } });
    await expect(addConfigRule({ scope: 'user', seekHome: home, projectRoot: root }, 'deny', 'Nope(x)')).rejects.toThrow(RuleSyntaxError);
    expect(await removeConfigRule({ scope: 'user', seekHome: home, projectRoot: root }, 'allow', 'Bash(npm test:*)')).toBe(true);
    expect(JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')).permissions).toEqual({});
  });

  it('a local rule goes to config.local.json, which git then ignores; the user\'s own allow rule is trusted', async () => {
    writeFileSync(path.join(home, 'config.json'), '{}');
    await addConfigRule({ scope: 'local', seekHome: home, projectRoot: root }, 'allow', 'Edit(src/**)');
    expect(readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\/\.seek\/config\.local\.json$/m);
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' })).not.toContain('config.local.json');
    const loaded = await load();
    expect(loaded.untrusted).toEqual([]);
    expect(loaded.rules.map((r) => r.origin?.text)).toContain('Edit(src/**)');
  });

  it('does not trust what someone else put in the project file', async () => {
    writeFileSync(path.join(home, 'config.json'), '{}');
    mkdirSync(path.join(root, '.seek'));
    writeFileSync(path.join(root, '.seek', 'config.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    await addConfigRule({ scope: 'project', seekHome: home, projectRoot: root }, 'deny', 'Bash(rm:*)');
    expect((await load()).untrusted.map((r) => r.origin?.text)).toEqual(['Bash']);
  });
});
