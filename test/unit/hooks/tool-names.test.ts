import { existsSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TOOL_ALIASES, HooksConfigError, matchesTool, parseMatcher, seekToolNames } from '../../../src/hooks/index.js';
import { prepareSession } from '../../../src/runtime/prepare.js';
import { AgentSession } from '../../../src/runtime/session.js';
import type { StreamFn } from '../../../src/providers/types.js';
import { makeProject } from '../../support/seek-process.js';

const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

function project(files?: Record<string, string>): { root: string; home: string } {
  const made = makeProject(files);
  bases.push(path.dirname(made.root));
  return made;
}

let modelCalls = 0;
const noModel: StreamFn = () => {
  modelCalls++;
  throw new Error('no model call expected');
};

const open = (p: { root: string; home: string }, save = false) =>
  prepareSession({ cwd: p.root, env: { SEEK_HOME: p.home, DEEPSEEK_API_KEY: 'k' }, interactive: false, maxTurns: 1, stream: noModel, save });

describe('known tool names', () => {
  it('are exactly the tools a real session in a git repository registers (one source: the tool definitions)', async () => {
    // A skill installed, so the session registers the `skill` tool too.
    const p = project({ 'README.md': '# demo\n', '.seek/skills/demo/SKILL.md': '---\nname: demo\ndescription: a demo\n---\nDo it.\n' });
    const prepared = await open(p);
    // call_tool is the proxy: a call through it runs (and is matched by hooks) as the tool it names.
    const registered = prepared.tools.map((tool) => tool.name).filter((name) => name !== 'call_tool').sort();
    await new AgentSession(prepared).close();
    expect(seekToolNames()).toEqual(registered);
    expect(registered).toEqual(expect.arrayContaining(['bash', 'write_file', 'enter_worktree', 'agent', 'delegate_tasks', 'memory_recall']));
  });

  it('every Claude Code alias stands for a known tool', () => {
    for (const [alias, name] of CLAUDE_CODE_TOOL_ALIASES) expect(seekToolNames(), alias).toContain(name);
  });
});

describe('matchers', () => {
  const fires = (tool: string | undefined, name: string) => matchesTool(tool === undefined ? {} : { tool }, name);

  it('alternations of seek and Claude Code names match the seek tools they name, and nothing else', () => {
    expect(fires('Bash|Write', 'bash')).toBe(true);
    expect(fires('Bash|Write', 'write_file')).toBe(true);
    expect(fires('Bash|Write', 'edit_file')).toBe(false);
    expect(fires('Edit', 'edit_file')).toBe(true);
    expect(fires('MultiEdit', 'edit_file')).toBe(true);
    expect(fires('LS|Task|TodoWrite', 'agent')).toBe(true);
    expect(fires(' read_file | grep ', 'grep')).toBe(true);
    expect(fires('bash', 'Bash')).toBe(false); // seek calls tools by seek names only
  });

  it('"*" (alone or as an alternative) and an absent matcher match every tool', () => {
    expect(fires(undefined, 'git')).toBe(true);
    expect(fires('Bash|*', 'git')).toBe(true);
    expect(parseMatcher('*')).toEqual({ ok: true, matcher: { all: true } });
  });

  it('mcp__ names are accepted unchecked: exact, or as a prefix ending in * or .*', () => {
    expect(fires('mcp__github__create_issue', 'mcp__github__create_issue')).toBe(true);
    expect(fires('mcp__github__create_issue', 'mcp__github__close_issue')).toBe(false);
    expect(fires('mcp__github__*', 'mcp__github__close_issue')).toBe(true);
    expect(fires('mcp__github__.*', 'mcp__gitlab__x')).toBe(false);
    expect(fires('mcp__github__.*', 'bash')).toBe(false);
  });

  it('unknown names and empty alternatives are errors; an invalid matcher never fires', () => {
    expect(parseMatcher('Bash|Notebook.*')).toMatchObject({ ok: false, message: expect.stringMatching(/^unknown tool "Notebook\.\*"\. Known tools: /) });
    expect(parseMatcher('Bash|')).toMatchObject({ ok: false, message: expect.stringContaining('empty alternative') });
    expect(fires('Bash|Nope', 'bash')).toBe(false);
  });
});

describe('start-up fails closed', () => {
  it('a broken hooks file stops prepareSession with HooksConfigError: no model call, no session file', async () => {
    const p = project();
    mkdirSync(path.join(p.root, '.seek'));
    writeFileSync(path.join(p.root, '.seek', 'hooks.toml'), '[[pre_tool]]\nname = "guard"\ncommand = "exit 1"\nmatch = { tool = "Bash|Frobnicate" }\n');
    modelCalls = 0;
    const error = await open(p, true).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HooksConfigError);
    expect((error as HooksConfigError).exitStatus).toBe(2);
    expect((error as Error).message).toContain(`${p.root}/.seek/hooks.toml:4:11: pre_tool[0].match.tool: unknown tool "Frobnicate"`);
    expect(modelCalls).toBe(0);
    const projects = path.join(p.home, 'projects');
    const sessions = existsSync(projects) ? readdirSync(projects, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')) : [];
    expect(sessions).toEqual([]);
  });
});
