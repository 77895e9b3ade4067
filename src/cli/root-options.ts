/** The root command's parsed flags (`seek [prompt]`), shared by the modules that run a session. */
export interface RootOptions {
  print?: boolean;
  outputFormat: 'text' | 'json' | 'stream-json';
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
  model?: string;
  provider?: 'deepseek' | 'openai' | 'anthropic' | 'openai-compatible';
  baseUrl?: string;
  maxTurns: number;
  /** `-p --max-budget-usd`: the run's dollar budget, the session and every subagent counted. */
  maxBudgetUsd?: number;
  resume?: string;
  continue?: boolean;
  list?: boolean;
  includeSubagents?: boolean;
  save: boolean;
  verbose?: boolean;
  dream?: boolean;
  write?: boolean;
  worktree?: boolean;
  worktreeBranch?: string;
  /** `-i/--image PATH`, repeatable: images attached to the prompt. */
  image?: string[];
  /** `-p --input-format stream-json`: a conversation with a program over stdin (docs/headless-and-sdk.md). */
  inputFormat?: 'text' | 'stream-json';
  /** `stdio`: permission questions go to that program as can_use_tool control requests. */
  permissionPromptTool?: 'stdio';
}
