import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadYamlParser } from '../../../src/extensions/frontmatter.js';
import { BUILTIN_SUBAGENT_TYPES, READ_ONLY_SUBAGENT_TOOLS } from '../../../src/subagents/builtin-types.js';
import {
  loadSubagentTypes,
  MAX_DEFINITION_FILE_BYTES,
  parseSubagentDefinition,
  subagentTypeNames,
} from '../../../src/subagents/definitions.js';

let base: string;
let projectRoot: string;
let seekHome: string;
let home: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-defs-'));
  projectRoot = join(base, 'project');
  seekHome = join(base, 'seek-home');
  home = join(base, 'home');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Writes `<dir>/<name>` (creating the directory) and returns its path. */
function put(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const seekAgents = (): string => join(projectRoot, '.seek', 'agents');
const claudeAgents = (): string => join(projectRoot, '.claude', 'agents');
const userAgents = (): string => join(seekHome, 'agents');

const simple = (name: string, description = `${name} agent`): string => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

const load = () => loadSubagentTypes({ projectRoot, seekHome, home });


// The parser is loaded on demand by the loaders; tests that parse directly load it first.
beforeAll(loadYamlParser);
describe('built-in types', () => {
  it('are general-purpose, explore and plan, in that order', () => {
    expect(subagentTypeNames(BUILTIN_SUBAGENT_TYPES)).toEqual(['general-purpose', 'explore', 'plan']);
    const [general, explore, plan] = BUILTIN_SUBAGENT_TYPES;
    expect(general).toMatchObject({ permission: 'inherit', instructions: '', source: 'builtin' });
    expect(general!.tools).toBeUndefined();
    expect(explore).toMatchObject({ permission: 'plan', tools: ['read_file', 'grep', 'glob', 'list_dir', 'git', 'memory_recall', 'mcp_search', 'mcp_call'] });
    expect(plan).toMatchObject({ permission: 'plan', tools: [...READ_ONLY_SUBAGENT_TOOLS] });
    expect(explore!.instructions).toContain('path:line');
    expect(plan!.instructions).toContain('numbered');
  });

  it('is all there is without definition files, with no notices', async () => {
    const result = await load();
    expect(subagentTypeNames(result.types)).toEqual(['general-purpose', 'explore', 'plan']);
    expect(result.notices).toEqual([]);
  });
});

describe('parseSubagentDefinition', () => {
  it('reads the seek format', async () => {
    const text = [
      '---',
      'name: Reviewer',
      'description: |',
      '  Reviews a diff',
      '    for bugs.',
      'tools: [read_file, grep, git]',
      'model: deepseek-reasoner',
      'permission: ask',
      'max_turns: 30',
      'budget_tokens: 100000',
      'timeout_seconds: 600',
      'colour: blue',
      '---',
      '',
      '  Review carefully.',
      '',
      'Report bugs only.  ',
      '',
    ].join('\n');
    const { type, notices } = await parseSubagentDefinition(text, '/p/.seek/agents/reviewer.md', 'project');
    expect(notices).toEqual([]);
    expect(type).toEqual({
      name: 'reviewer',
      description: 'Reviews a diff for bugs.',
      source: 'project',
      file: '/p/.seek/agents/reviewer.md',
      tools: ['read_file', 'grep', 'git'],
      instructions: 'Review carefully.\n\nReport bugs only.',
      model: 'deepseek-reasoner',
      permission: 'ask',
      maxTurns: 30,
      budgetTokens: 100000,
      timeoutSeconds: 600,
    });
  });

  it('reads the Claude Code format', async () => {
    const text = '---\r\nname: code-searcher\r\ndescription: Finds code.\r\ntools: Read, Grep, Glob\r\npermissionMode: plan\r\nmodel: inherit\r\nmaxTurns: 12\r\n---\r\nSearch.\r\n';
    const { type, notices } = await parseSubagentDefinition(text, '/p/.claude/agents/cs.md', 'project-claude');
    expect(notices).toEqual([]);
    expect(type).toEqual({
      name: 'code-searcher',
      description: 'Finds code.',
      source: 'project-claude',
      file: '/p/.claude/agents/cs.md',
      tools: ['read_file', 'grep', 'glob'],
      instructions: 'Search.',
      permission: 'plan',
      maxTurns: 12,
    });
  });

  it('defaults: permission inherit, no tools, no model', async () => {
    const { type } = await parseSubagentDefinition('---\nname: a\ndescription: d\nmodel:\n---\n', '/a.md', 'user');
    expect(type).toEqual({ name: 'a', description: 'd', source: 'user', file: '/a.md', instructions: '', permission: 'inherit' });
  });

  it('maps Claude Code permission modes and reports unknown ones', async () => {
    const mode = async (value: string) => parseSubagentDefinition(`---\nname: a\ndescription: d\npermissionMode: ${value}\n---\n`, '/a.md', 'user');
    expect((await mode('default')).type?.permission).toBe('inherit');
    expect((await mode('acceptEdits')).type?.permission).toBe('ask');
    expect((await mode('bypassPermissions')).type?.permission).toBe('yolo');
    expect((await mode('dontAsk')).type?.permission).toBe('deny');
    expect((await mode('sideways')).type?.permission).toBe('inherit');
    expect((await mode('sideways')).notices).toEqual(['subagent definition /a.md: permissionMode "sideways" is not known; using inherit']);
  });

  it('drops unknown tools with one notice, maps and deduplicates the rest in first-seen order', async () => {
    const text = '---\nname: a\ndescription: d\ntools: [Grep, WebFetch, read_file, Read, mcp__github__search, LS, Task]\n---\n';
    const { type, notices } = await parseSubagentDefinition(text, '/a.md', 'user');
    expect(type?.tools).toEqual(['grep', 'web_fetch', 'read_file', 'list_dir', 'agent']);
    expect(notices).toEqual(['subagent definition /a.md: tools: dropped unknown tool(s) mcp__github__search']);
  });

  it('strips argument patterns to the base tool, with a notice', async () => {
    const text = '---\nname: a\ndescription: d\ntools: Read, Bash(npm test:*), Bash(git add:*, git commit:*)\n---\n';
    const { type, notices } = await parseSubagentDefinition(text, '/a.md', 'user');
    expect(type?.tools).toEqual(['read_file', 'bash']);
    expect(notices).toEqual([
      'subagent definition /a.md: tools: argument patterns are not applied, the whole tool is allowed: Bash(npm test:*), Bash(git add:*, git commit:*)',
    ]);
  });

  it('disallowedTools without tools removes from every seek tool', async () => {
    const text = '---\nname: a\ndescription: d\ndisallowedTools: Write, Edit, MultiEdit, WebSearch\n---\n';
    const { type, notices } = await parseSubagentDefinition(text, '/a.md', 'user');
    expect(type?.tools).toEqual(['read_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'todo_write', 'agent', 'web_fetch']);
    expect(notices).toEqual([]);
  });

  it('disallowedTools with tools removes from that list', async () => {
    const text = '---\nname: a\ndescription: d\ntools: [Read, Bash, Grep]\ndisallowedTools: [Bash(rm:*)]\n---\n';
    const { type, notices } = await parseSubagentDefinition(text, '/a.md', 'user');
    expect(type?.tools).toEqual(['read_file', 'grep']);
    expect(notices).toEqual(['subagent definition /a.md: disallowedTools: argument patterns are not applied, the whole tool is removed: Bash(rm:*)']);
  });

  it('collapses and caps the description at 200 characters', async () => {
    const { type } = await parseSubagentDefinition(`---\nname: a\ndescription: "${'word '.repeat(100)}"\n---\n`, '/a.md', 'user');
    expect(type?.description).toHaveLength(200);
    expect(type?.description.endsWith('…')).toBe(true);
    expect(type?.description.startsWith('word word')).toBe(true);
  });

  it.each([
    ['no frontmatter', 'name: a\n', 'no YAML frontmatter (the first line must be "---", closed by another "---" line); skipped'],
    ['unclosed frontmatter', '---\nname: a\ndescription: d\n', 'no YAML frontmatter (the first line must be "---", closed by another "---" line); skipped'],
    ['a list as frontmatter', '---\n- a\n---\n', 'the frontmatter is not a YAML mapping of fields; skipped'],
    ['a missing name', '---\ndescription: d\n---\n', 'name: missing; skipped'],
    ['a missing description', '---\nname: a\n---\n', 'description: missing; skipped'],
    ['an empty description', '---\nname: a\ndescription: "  "\n---\n', 'description: empty; skipped'],
    ['an invalid name', '---\nname: my agent\ndescription: d\n---\n', 'name "my agent" is invalid (1-64 of a-z, 0-9, "-", "_", starting with a letter or digit); skipped'],
    ['a zero max_turns', '---\nname: a\ndescription: d\nmax_turns: 0\n---\n', 'max_turns: must be a positive integer; skipped'],
    ['a fractional budget', '---\nname: a\ndescription: d\nbudget_tokens: 1.5\n---\n', 'budget_tokens: must be a positive integer; skipped'],
    ['a numeric tools field', '---\nname: a\ndescription: d\ntools: 3\n---\n', 'tools: must be a list or a comma-separated string; skipped'],
    ['a built-in name', '---\nname: Explore\ndescription: d\n---\n', 'name "explore" is a built-in type, which cannot be overridden; skipped'],
  ])('skips a file with %s', async (_label, text, what) => {
    const { type, notices } = await parseSubagentDefinition(text, '/x.md', 'project');
    expect(type).toBeUndefined();
    expect(notices).toEqual([`subagent definition /x.md: ${what}`]);
  });

  it('skips an unknown permission', async () => {
    const { type, notices } = await parseSubagentDefinition('---\nname: a\ndescription: d\npermission: root\n---\n', '/x.md', 'project');
    expect(type).toBeUndefined();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^subagent definition \/x\.md: permission: .*; skipped$/);
  });

  it('reports YAML errors on one line', async () => {
    const { type, notices } = await parseSubagentDefinition('---\nname: a\ndescription: [unclosed\n---\n', '/x.md', 'project');
    expect(type).toBeUndefined();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^subagent definition \/x\.md: invalid YAML frontmatter: .+; skipped$/);
    expect(notices[0]).not.toContain('\n');
  });
});

describe('loadSubagentTypes', () => {
  it('loads every source, sets source and absolute file, and sorts defined types by name', async () => {
    const zeta = put(seekAgents(), 'zeta.md', simple('zeta'));
    const alpha = put(claudeAgents(), 'alpha.md', simple('alpha'));
    const mid = put(userAgents(), 'mid.md', simple('mid'));
    const cc = put(join(home, '.claude', 'agents'), 'beta.md', simple('beta'));
    put(seekAgents(), 'notes.txt', 'not a definition');
    const result = await load();
    expect(result.notices).toEqual([]);
    expect(subagentTypeNames(result.types)).toEqual(['general-purpose', 'explore', 'plan', 'alpha', 'beta', 'mid', 'zeta']);
    const byName = new Map(result.types.map((type) => [type.name, type]));
    expect(byName.get('zeta')).toMatchObject({ source: 'project', file: zeta, instructions: 'Body of zeta.' });
    expect(byName.get('alpha')).toMatchObject({ source: 'project-claude', file: alpha });
    expect(byName.get('mid')).toMatchObject({ source: 'user', file: mid });
    expect(byName.get('beta')).toMatchObject({ source: 'user-claude', file: cc });
  });

  it('reads ~/.claude/agents only when home is given', async () => {
    put(join(home, '.claude', 'agents'), 'beta.md', simple('beta'));
    const result = await loadSubagentTypes({ projectRoot, seekHome });
    expect(subagentTypeNames(result.types)).toEqual(['general-purpose', 'explore', 'plan']);
  });

  it('gives the same order however the files were written', async () => {
    for (const name of ['m', 'b', 'z', 'a']) put(userAgents(), `${name}.md`, simple(name));
    put(seekAgents(), 'c.md', simple('c'));
    const first = await load();
    const second = await load();
    expect(subagentTypeNames(first.types)).toEqual(['general-purpose', 'explore', 'plan', 'a', 'b', 'c', 'm', 'z']);
    expect(JSON.stringify(second.types)).toBe(JSON.stringify(first.types));
  });

  it('lets the project .seek definition win over the user one, with a notice', async () => {
    const project = put(seekAgents(), 'reviewer.md', simple('reviewer', 'project reviewer'));
    const user = put(userAgents(), 'review.md', simple('Reviewer', 'user reviewer'));
    const result = await load();
    const reviewer = result.types.find((type) => type.name === 'reviewer');
    expect(reviewer).toMatchObject({ description: 'project reviewer', source: 'project', file: project });
    expect(result.types.filter((type) => type.name === 'reviewer')).toHaveLength(1);
    expect(result.notices).toEqual([`subagent definition ${user}: name "reviewer" is already defined by ${project}; skipped`]);
  });

  it('skips a definition named like a built-in', async () => {
    const file = put(claudeAgents(), 'plan.md', simple('plan', 'my planner'));
    const result = await load();
    expect(result.types.find((type) => type.name === 'plan')).toBe(BUILTIN_SUBAGENT_TYPES[2]);
    expect(result.types).toHaveLength(3);
    expect(result.notices).toEqual([`subagent definition ${file}: name "plan" is a built-in type, which cannot be overridden; skipped`]);
  });

  it('skips broken YAML and still loads the others', async () => {
    const broken = put(seekAgents(), 'broken.md', '---\nname: broken\ndescription: "unterminated\n---\nbody\n');
    put(seekAgents(), 'good.md', simple('good'));
    const result = await load();
    expect(subagentTypeNames(result.types)).toEqual(['general-purpose', 'explore', 'plan', 'good']);
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]!.startsWith(`subagent definition ${broken}: invalid YAML frontmatter: `)).toBe(true);
  });

  it('passes on notices about dropped tools', async () => {
    const file = put(claudeAgents(), 'web.md', '---\nname: web\ndescription: d\ntools: Read, WebFetch, WebSearch, NotebookRead\n---\n');
    const result = await load();
    expect(result.types.find((type) => type.name === 'web')?.tools).toEqual(['read_file', 'web_fetch', 'web_search']);
    expect(result.notices).toEqual([`subagent definition ${file}: tools: dropped unknown tool(s) NotebookRead`]);
  });

  it('skips files over 64 KiB', async () => {
    const big = put(seekAgents(), 'big.md', `${simple('big')}${'x'.repeat(MAX_DEFINITION_FILE_BYTES)}`);
    put(seekAgents(), 'small.md', simple('small'));
    const result = await load();
    expect(subagentTypeNames(result.types)).toEqual(['general-purpose', 'explore', 'plan', 'small']);
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]).toMatch(new RegExp(`^subagent definition ${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ bytes is over the 64 KiB limit; skipped$`));
  });

  it('loads at most 64 defined types', async () => {
    for (let index = 0; index < 66; index += 1) put(userAgents(), `a${String(index).padStart(2, '0')}.md`, simple(`a${String(index).padStart(2, '0')}`));
    const result = await load();
    expect(result.types).toHaveLength(3 + 64);
    expect(result.types.at(-1)?.name).toBe('a63');
    expect(result.notices).toEqual([
      `subagent definition ${join(userAgents(), 'a64.md')}: more than 64 subagent types are defined; this and any later definitions are skipped`,
    ]);
  });

  it('reads a directory reached twice only once', async () => {
    // seek run in the home directory: <root>/.seek/agents is <seekHome>/agents.
    const root = join(base, 'me');
    put(join(root, '.seek', 'agents'), 'solo.md', simple('solo'));
    const result = await loadSubagentTypes({ projectRoot: root, seekHome: join(root, '.seek'), home: root });
    expect(result.notices).toEqual([]);
    expect(result.types.find((type) => type.name === 'solo')?.source).toBe('project');
  });
});
