/**
 * MCP sampling: a server asks seek's model for a completion (`sampling/createMessage`). It goes
 * through the session's provider and model and is billed to the session like any turn. Like any
 * model call a server starts, it is asked first: config `"mcp_sampling"` in config.json says
 * `"ask"` (the default: the user is asked in the terminal UI or the editor; denied where nobody
 * can be asked, headless), `"allow"` or `"deny"`, for every server or per server
 * (`{"everything": "allow", "*": "deny"}`). "Always" allows that server for the session.
 */
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { CostTracker } from '../cost/tracker.js';
import type { Message, StreamFn } from '../providers/types.js';
import type { AskFn } from '../policy/tool-gate.js';

export type SamplingMode = 'ask' | 'allow' | 'deny';
export type Sampler = (server: string, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;

export interface SamplerOptions {
  stream: StreamFn;
  model: () => string;
  /** The front end's question; absent headless. */
  ask: AskFn | undefined;
  /** `mcp_sampling` from config.json, as written. */
  setting: unknown;
  cwd: string;
  tracker: CostTracker;
  onNotice: (text: string) => void;
}

/** What `mcp_sampling` says for one server (a string for all, or an object by server name, `*` the rest). */
export function samplingMode(setting: unknown, server: string): SamplingMode {
  const valid = (value: unknown): value is SamplingMode => value === 'ask' || value === 'allow' || value === 'deny';
  if (valid(setting)) return setting;
  if (setting && typeof setting === 'object') {
    const byServer = setting as Record<string, unknown>;
    if (valid(byServer[server])) return byServer[server];
    if (valid(byServer['*'])) return byServer['*'];
  }
  return 'ask';
}

/** A refusal the server gets as its request's error (and the user as a notice). */
class SamplingRefused extends Error {}

export function createSampler(options: SamplerOptions): Sampler {
  const allowed = new Set<string>(); // "always" answers, for this session
  let asked = 0;
  return async (server, params, signal) => {
    const prompt = params.messages.map((message) => contentText(message.content)).join('\n');
    const shown = prompt.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
    const mode = allowed.has(server) ? 'allow' : samplingMode(options.setting, server);
    const refuse = (why: string): never => {
      options.onNotice(`MCP server ${server} asked the model ("${shown}"); refused: ${why}`);
      throw new SamplingRefused(`seek refused the sampling request: ${why}`);
    };
    if (mode === 'deny') refuse('"mcp_sampling" in config.json denies it');
    if (mode === 'ask') {
      if (!options.ask) refuse('nobody can approve it here (headless); set "mcp_sampling": "allow" (or {"' + server + '": "allow"}) in config.json to allow it');
      asked += 1;
      const answer = await options.ask!(
        {
          tool: `mcp__${server}__sampling`,
          callId: `sampling-${asked}`,
          action: { kind: 'other', paths: [], summary: `MCP server ${server} asks the model: "${shown}"` },
          cwd: options.cwd,
          reason: `MCP server ${server} wants a model call (sampling), billed to this session`,
          alwaysRule: { tool: `mcp__${server}__sampling`, decision: 'allow', source: 'session' },
        },
        signal,
      );
      if (typeof answer !== 'string' || answer === 'no') refuse('you declined it');
      if (typeof answer === 'string' && answer.startsWith('always')) allowed.add(server);
    }
    return complete(options, params, signal);
  };
}

async function complete(options: SamplerOptions, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> {
  const model = options.model();
  const messages: Message[] = params.messages.map((message) => {
    const text = contentText(message.content);
    return message.role === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: text, toolCalls: [], stopReason: 'stop' };
  });
  let text = '';
  for await (const event of options.stream({ model, system: params.systemPrompt ?? '', messages, tools: [], maxTokens: params.maxTokens }, signal)) {
    if (event.type === 'error') throw new Error(`the model call failed: ${event.error.message}`);
    if (event.type === 'done') {
      text = event.message.content;
      if (event.message.usage) options.tracker.record({ usage: event.message.usage, ...(event.message.costUsd !== undefined ? { costUsd: event.message.costUsd } : {}), model });
    }
  }
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
}

/** A sampling message's text; other content (images, audio, tool use) is named, not passed on. */
function contentText(content: CreateMessageRequest['params']['messages'][number]['content']): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type} content not passed on]`)).join('\n');
}
