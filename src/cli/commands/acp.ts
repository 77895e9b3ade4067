import { Command, Option } from 'commander';
import type { RootOptions } from '../root-options.js';

interface AcpOptions {
  model?: string;
  provider?: RootOptions['provider'];
  baseUrl?: string;
  maxTurns: number;
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
}

/**
 * `seek acp`: seek as an Agent Client Protocol agent on stdin/stdout, for editors (Zed's
 * `agent_servers`). The flags set what every session starts with; the editor's mode and model
 * pickers change them per session. The ACP SDK is loaded only here.
 */
export function createAcpCommand(): Command {
  return new Command('acp')
    .description('serve an editor over the Agent Client Protocol on stdin/stdout (Zed: agent_servers)')
    .option('--model <name>', "model name (default: the provider's default)")
    .addOption(new Option('--provider <name>', 'model provider').choices(['deepseek', 'openai', 'anthropic', 'openai-compatible']))
    .option('--base-url <url>', 'provider base URL (local or proxy servers)')
    .option('--max-turns <n>', 'stop a prompt after this many model turns', (value) => Number(value), 200)
    .addOption(new Option('--yolo', 'sessions start in yolo mode').conflicts(['auto', 'plan']))
    .addOption(new Option('--auto', 'sessions start in auto mode').conflicts('plan'))
    .option('--plan', 'sessions start in plan mode (read-only)')
    .action(async (options: AcpOptions) => {
      const { runAcp } = await import('../../acp/run.js');
      process.exitCode = await runAcp({
        env: process.env,
        maxTurns: Number.isInteger(options.maxTurns) && options.maxTurns > 0 ? options.maxTurns : 200,
        ...(options.model ? { model: options.model } : {}),
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.yolo ? { yolo: true } : {}),
        ...(options.auto ? { auto: true } : {}),
        ...(options.plan ? { plan: true } : {}),
      });
    });
}
