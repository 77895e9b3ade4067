import { join } from 'node:path';
import { readTrustedFileSync } from '../util/trusted-read.js';

/** Files at the project root whose content becomes project instructions, in this order. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** Per-file cap: instructions are sent on every request, a runaway file must not eat the window. */
const MAX_INSTRUCTION_BYTES = 32 * 1024;

export interface ProjectInstructions {
  file: string;
  content: string;
  truncated: boolean;
}

/** Reads AGENTS.md and CLAUDE.md at the project root. Called once at session start: edits made to
 * them during the session are picked up by the next session, never mid-session (prefix cache).
 * Read with the trusted reader (util/trusted-read.ts): a file that links out of the project, to
 * /proc, /sys or /dev, or is not a regular file is left out, and `onRefused` says which and why. */
export function readProjectInstructions(projectRoot: string, onRefused?: (notice: string) => void): ProjectInstructions[] {
  const found: ProjectInstructions[] = [];
  for (const file of INSTRUCTION_FILES) {
    const path = join(projectRoot, file);
    const read = readTrustedFileSync(path, { within: [projectRoot], maxBytes: MAX_INSTRUCTION_BYTES, oversize: 'truncate', withinLabel: `the project (${projectRoot})` });
    if (!read.ok) {
      if (read.code !== 'missing' && read.code !== 'directory') onRefused?.(`project instructions ${path}: refused: it ${read.reason}; not loaded`);
      continue;
    }
    const content = read.text.trim();
    if (content) found.push({ file, content, truncated: read.truncated });
  }
  return found;
}

export interface SystemPromptInput {
  cwd: string;
  projectRoot: string;
  isGitRepo: boolean;
  /** Captured once at session start (YYYY-MM-DD) so the prompt never changes mid-session. */
  date: string;
  platform: string;
  instructions: readonly ProjectInstructions[];
  /** 'main' for the user's agent; later a subagent header replaces the role paragraph. */
  role?: string;
}

/**
 * The system prompt. Pure: the same input gives the same bytes. It must not contain anything that
 * changes within a session (time of day, permission mode, token counts): those go into user
 * messages, which are appended, never into this prefix.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const lines = [
    input.role ?? 'You are seek, a coding agent that works in a terminal on the user\'s repository.',
    '',
    '# Environment',
    `- Working directory: ${input.cwd}`,
    `- Project root: ${input.projectRoot}${input.isGitRepo ? ' (git repository)' : ' (not a git repository)'}`,
    `- Platform: ${input.platform}; shell: bash`,
    `- Date: ${input.date}`,
    '',
    '# How to work',
    '- Investigate first: find the code with list_dir, glob and grep; read a file before editing it.',
    '- Make the smallest change that solves the task, in the style of the code around it: edit_file for existing files, write_file for new ones.',
    '- Verify: run the tests, type checker or build with bash when the project has them; fix what you broke.',
    '- Independent read-only calls (reads, searches) belong in one turn: they run in parallel.',
    '- For a task of several steps, keep a plan with todo_write (one item in progress).',
    '- Do not run destructive commands (rm -rf, git reset --hard, force pushes) or commit unless asked to.',
    '- If a call is denied, do not repeat it unchanged: adapt, or say what you need.',
    '',
    '# Answering',
    '- Be concise and direct; lead with the answer or the result.',
    '- When done, say what you changed and how you verified it, in a few lines.',
    '- Refer to code as path:line. Use Markdown, with code in fenced blocks.',
  ];
  if (input.instructions.length > 0) {
    lines.push('', '# Project instructions', 'The project provides these instructions; follow them.');
    for (const item of input.instructions) {
      lines.push('', `## ${item.file}${item.truncated ? ' (truncated)' : ''}`, '', item.content);
    }
  }
  return lines.join('\n');
}

/** Appended to a user message when the permission mode asks the model to behave differently.
 * Lives in the user message so the system prompt stays byte-identical when the mode changes. */
export function modeReminder(mode: 'plan_analyze' | 'plan_execute' | 'none'): string {
  if (mode === 'plan_analyze') {
    return '\n\n<system-reminder>Plan mode: read-only. Investigate with read-only tools and propose a plan; do not modify files or run mutating commands.</system-reminder>';
  }
  return '';
}
