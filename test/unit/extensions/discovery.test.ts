import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadYamlParser } from '../../../src/extensions/frontmatter.js';
import { extensionDirs } from '../../../src/extensions/discovery.js';
import { loadCommands } from '../../../src/extensions/commands.js';
import { loadSkills, parseSkill } from '../../../src/extensions/skills.js';
import { CATALOG_BUDGET_BYTES, skillCatalog } from '../../../src/extensions/skill-catalog.js';

let base: string;
let projectRoot: string;
let seekHome: string;
let home: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-ext-'));
  projectRoot = join(base, 'project');
  seekHome = join(base, 'seek-home');
  home = join(base, 'home');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function put(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const skill = (name: string, description: string, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody of ${name}.\n`;
const roots = () => ({ projectRoot, seekHome, home });


// The parser is loaded on demand by the loaders; tests that parse directly load it first.
beforeAll(loadYamlParser);
describe('the discovery rule', () => {
  it('orders folders project over user, seek over Claude, .agents only for skills', () => {
    const dirs = (kind: 'agents' | 'skills' | 'commands') => extensionDirs(kind, roots()).map((d) => `${d.source} ${d.dir}`);
    expect(dirs('skills')).toEqual([
      `project ${join(projectRoot, '.seek', 'skills')}`,
      `project-claude ${join(projectRoot, '.claude', 'skills')}`,
      `project-agents ${join(projectRoot, '.agents', 'skills')}`,
      `user ${join(seekHome, 'skills')}`,
      `user-claude ${join(home, '.claude', 'skills')}`,
    ]);
    expect(dirs('commands')).toHaveLength(4);
    expect(dirs('agents').map((line) => line.split(' ')[0])).toEqual(['project', 'project-claude', 'user', 'user-claude']);
    // seek run in the home directory: the folder is read once, under its first place.
    expect(extensionDirs('skills', { projectRoot: home, seekHome, home }).filter((d) => d.dir === join(home, '.claude', 'skills')).map((d) => d.source)).toEqual(['project-claude']);
  });
});

describe('skills', () => {
  it('are found in every folder; the first of a name wins, with a notice naming both files', async () => {
    const winner = put(join(projectRoot, '.seek/skills/review/SKILL.md'), skill('review', 'project seek review'));
    const loser = put(join(projectRoot, '.claude/skills/review/SKILL.md'), skill('review', 'project claude review'));
    put(join(projectRoot, '.agents/skills/lint/SKILL.md'), skill('lint', 'neutral lint'));
    put(join(seekHome, 'skills/deploy/SKILL.md'), skill('deploy', 'user deploy'));
    put(join(home, '.claude/skills/deploy/SKILL.md'), skill('deploy', 'user claude deploy'));
    put(join(home, '.claude/skills/notes/SKILL.md'), skill('notes', 'user claude notes'));
    put(join(projectRoot, '.seek/skills/empty-folder/README.md'), 'not a skill');
    const { skills, notices } = await loadSkills(roots());
    expect(skills.map((s) => `${s.name}:${s.description}`)).toEqual(['deploy:user deploy', 'lint:neutral lint', 'notes:user claude notes', 'review:project seek review']);
    expect(skills.find((s) => s.name === 'lint')?.source).toBe('project-agents');
    expect(notices).toContain(`skill ${loser}: name "review" is already defined by ${winner}; skipped`);
    expect(notices.filter((n) => n.includes('deploy'))).toHaveLength(1);
  });

  it('take the folder name when the frontmatter has none, and map allowed-tools to seek names', () => {
    const parsed = parseSkill('---\ndescription: d\nallowed-tools: Read Grep Bash(git status:*) mcp__github__* Frobnicate\n---\nx', '/s/My-Skill/SKILL.md', 'project');
    expect(parsed.skill?.name).toBe('my-skill');
    expect(parsed.skill?.allowedTools).toEqual(['read_file', 'grep', 'bash', 'mcp__github__*']);
    expect(parsed.notices).toEqual(['skill /s/My-Skill/SKILL.md: allowed-tools: unknown tool(s) Frobnicate dropped']);
  });

  it('are skipped with a notice when the frontmatter is missing or has no description', () => {
    expect(parseSkill('just text', '/a/SKILL.md', 'user').notices[0]).toMatch(/no YAML frontmatter.*skipped$/);
    expect(parseSkill('---\nname: a\n---\n', '/a/SKILL.md', 'user').notices).toEqual(['skill /a/SKILL.md: description: missing; skipped']);
  });
});

describe('the skill catalog', () => {
  const many = Array.from({ length: 20 }, (_, i) => ({
    name: `skill-number-${String(i).padStart(2, '0')}`,
    description: `Does task ${i} thoroughly: checks inputs, runs the steps, reports what changed and what is left over.`,
  }));

  it('keeps whole descriptions when a few skills are installed', () => {
    expect(skillCatalog(many.slice(0, 2))).toBe(many.slice(0, 2).map((s) => `${s.name}: ${s.description}`).join('\n'));
  });

  it('stays within its byte budget with many skills, cutting descriptions at a word', () => {
    const text = skillCatalog(many);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CATALOG_BUDGET_BYTES);
    expect(text.split('\n')).toHaveLength(20);
    expect(text.split('\n')[0]).toMatch(/^skill-number-00: Does task 0\S*…$/);
  });

  it('falls back to names, then to a count of the rest, never over budget (multi-byte text too)', () => {
    const wide = Array.from({ length: 60 }, (_, i) => ({ name: `ünïcode-skill-${i}`, description: 'ä'.repeat(50) }));
    const text = skillCatalog(wide);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CATALOG_BUDGET_BYTES);
    // Counted as the request carries it: a JSON string, quotes and newlines escaped.
    const quoted = skillCatalog(many.map((skill) => ({ ...skill, description: '"quoted" \\ '.repeat(12) })));
    expect(Buffer.byteLength(JSON.stringify(quoted)) - 2).toBeLessThanOrEqual(CATALOG_BUDGET_BYTES);
    expect(text).toMatch(/\(\+\d+ more\)$/);
  });
});

describe('custom commands', () => {
  it("are named by their file (a subfolder shows in the description, as in Claude Code); project over user, seek over Claude", async () => {
    put(join(projectRoot, '.seek/commands/review.md'), '---\ndescription: seek review\nargument-hint: "[file]"\n---\nReview $ARGUMENTS');
    const shadowed = put(join(projectRoot, '.claude/commands/review.md'), 'claude review');
    put(join(projectRoot, '.claude/commands/frontend/test.md'), '# Run the frontend tests\nnpm test $1');
    put(join(seekHome, 'commands/frontend/test.md'), 'user version');
    put(join(home, '.claude/commands/notes.md'), '---\nmodel: some-model\nallowed-tools: [Read, Grep]\n---\nTake notes');
    put(join(projectRoot, '.seek/commands/bad name.md'), 'x');
    const { commands, notices } = await loadCommands(roots());
    expect(commands.map((c) => [c.name, c.description, c.source])).toEqual([
      ['notes', 'Take notes', 'user-claude'],
      ['review', 'seek review', 'project'],
      ['test', 'Run the frontend tests (project:frontend)', 'project-claude'],
    ]);
    expect(commands.find((c) => c.name === 'test')?.namespaced).toBe('frontend:test');
    expect(commands.find((c) => c.name === 'review')?.argumentHint).toBe('[file]');
    expect(commands.find((c) => c.name === 'notes')).toMatchObject({ model: 'some-model', allowedTools: ['read_file', 'grep'] });
    expect(notices.some((n) => n.startsWith(`command ${shadowed}: name "review" is already defined by`))).toBe(true);
    expect(notices.some((n) => n.includes('bad name.md') && n.includes('not a command name'))).toBe(true);
  });

  it('report a clash of two subfolder commands naming both files; the second keeps its namespaced name', async () => {
    const first = put(join(projectRoot, '.claude/commands/backend/test.md'), 'backend tests');
    const second = put(join(projectRoot, '.claude/commands/frontend/test.md'), 'frontend tests');
    const { commands, notices } = await loadCommands(roots());
    expect(commands.map((c) => [c.name, c.file])).toEqual([
      ['frontend:test', second],
      ['test', first],
    ]);
    expect(notices).toContain(`command ${second}: /test is already defined by ${first}; this one runs as /frontend:test`);
  });

  it('must stay inside their folder: a link out is refused, named, and its name kept as unloaded unless another file defines it', async () => {
    const secret = put(join(base, 'secret.txt'), 'SECRET');
    put(join(projectRoot, 'docs/shared.md'), 'shared prompt');
    mkdirSync(join(projectRoot, '.seek/commands'), { recursive: true });
    symlinkSync(secret, join(projectRoot, '.seek/commands/leak.md'));
    symlinkSync(join(projectRoot, 'docs/shared.md'), join(projectRoot, '.seek/commands/shared.md'));
    symlinkSync('/proc/self/environ', join(projectRoot, '.seek/commands/env.md'));
    // A user command linking into the project is outside the user's folder.
    mkdirSync(join(seekHome, 'commands'), { recursive: true });
    symlinkSync(join(projectRoot, 'docs/shared.md'), join(seekHome, 'commands/mine.md'));
    // The same name defined again, properly, by the user: that one loads.
    put(join(home, '.claude/commands/leak.md'), 'user leak command');
    const { commands, notices, unloaded } = await loadCommands(roots());
    expect(commands.map((c) => [c.name, c.source])).toEqual([['leak', 'user-claude'], ['shared', 'project']]);
    expect(notices).toContain(`command ${join(projectRoot, '.seek/commands/leak.md')}: refused: it links to ${secret}, outside the project (${projectRoot}); not loaded`);
    expect(notices).toContain(`command ${join(seekHome, 'commands/mine.md')}: refused: it links to ${join(projectRoot, 'docs/shared.md')}, outside your config folder ${seekHome}; not loaded`);
    expect(notices.find((n) => n.startsWith(`command ${join(projectRoot, '.seek/commands/env.md')}: refused: it links to /proc/`))).toBeDefined();
    expect(unloaded.map((u) => u.name).sort()).toEqual(['env', 'mine']);
  });
});

describe('frontmatter written by hand', () => {
  it('reads a description holding ": " as a string, but still refuses broken YAML', () => {
    const parsed = parseSkill('---\nname: hand\ndescription: Use when: the user asks for X\n---\nBody', '/h/SKILL.md', 'user');
    expect(parsed.skill?.description).toBe('Use when: the user asks for X');
    expect(parseSkill('---\nname: [unclosed\ndescription: d\n---\n', '/h/SKILL.md', 'user').notices[0]).toMatch(/invalid YAML frontmatter/);
  });
});
