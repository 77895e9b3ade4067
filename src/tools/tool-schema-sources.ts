/**
 * The built-in tools whose parameters no option changes, by tool name, with their zod schemas:
 * what `npm run gen:tool-schemas` (scripts/gen-tool-schemas.ts) converts into
 * tool-schemas.generated.ts, and what test/unit/tools/tool-schemas-generated.test.ts checks that
 * file against. Not on the start path: sessions read the generated file, not this one.
 * agent and delegate_tasks are absent: their schemas depend on the session's subagent types.
 */
import type { ZodType } from 'zod';
import { bashSchema } from './bash.js';
import { callToolSchema } from './call-tool.js';
import { editFileSchema } from './edit-file.js';
import { enterWorktreeSchema } from './enter-worktree.js';
import { exitWorktreeSchema } from './exit-worktree.js';
import { gitSchema } from './git.js';
import { globSchema } from './glob.js';
import { grepSchema } from './grep.js';
import { listDirSchema } from './list-dir.js';
import { memoryAmendSchema } from './memory-amend.js';
import { memoryArchiveSchema } from './memory-archive.js';
import { entryArgsSchema } from './memory-args.js';
import { memoryRecallSchema } from './memory-recall.js';
import { readFileSchema } from './read-file.js';
import { skillSchema } from './skill-schema.js';
import { todoWriteSchema } from './todo-write.js';
import { toolSearchSchema } from './tool-search.js';
import { webFetchSchema } from './web-fetch.js';
import { webSearchSchema } from './web-search.js';
import { writeFileSchema } from './write-file.js';

export const STATIC_TOOL_SCHEMAS: Readonly<Record<string, () => ZodType>> = {
  read_file: readFileSchema,
  write_file: writeFileSchema,
  edit_file: editFileSchema,
  bash: bashSchema,
  glob: globSchema,
  grep: grepSchema,
  list_dir: listDirSchema,
  git: gitSchema,
  todo_write: todoWriteSchema,
  tool_search: toolSearchSchema,
  call_tool: callToolSchema,
  enter_worktree: enterWorktreeSchema,
  exit_worktree: exitWorktreeSchema,
  memory_remember: entryArgsSchema,
  memory_observe: entryArgsSchema,
  memory_amend: memoryAmendSchema,
  memory_archive: memoryArchiveSchema,
  memory_recall: memoryRecallSchema,
  skill: skillSchema,
  web_fetch: webFetchSchema,
  web_search: webSearchSchema,
};
