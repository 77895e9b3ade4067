/**
 * What differs between servers that speak OpenAI Chat Completions, as data (one row per family),
 * and the byte-stable translation of a ModelRequest into a request body.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPartImage,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { lookupModel, takesImages } from './catalog.js';
import { jsonObjectBytes, jsonPiece, JsonPieces, LastStringPiece, type JsonField, type JsonPiece } from './request-bytes.js';
import type { AssistantMessage, Message, ModelRequest, ToolImage, ToolResultMessage, ToolSchema } from './types.js';

export interface OpenAICompat {
  /** How errors name the server: "DeepSeek API". */
  label: string;
  /** Send assistant reasoning back as `reasoning_content`. DeepSeek needs it inside a tool-call
   * turn; sending it whenever present keeps every history message's bytes the same each request. */
  sendReasoningContent: boolean;
  /** OpenAI deprecated `max_tokens` for `max_completion_tokens`; most other servers know only the former. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Send the catalog's max output tokens when the request sets none (server defaults can be tiny). */
  defaultMaxTokens: boolean;
  /** Ask for the final usage chunk with `stream_options.include_usage`. */
  includeUsage: boolean;
  /** How `ModelRequest.reasoning` is expressed: DeepSeek's `thinking: {type}` switch, or not at all. */
  thinkingSwitch: 'deepseek' | 'none';
}

export type OpenAIProviderName = 'deepseek' | 'openai' | 'openai-compatible';

const DEEPSEEK: OpenAICompat = {
  label: 'DeepSeek API',
  sendReasoningContent: true,
  maxTokensField: 'max_tokens',
  defaultMaxTokens: true,
  includeUsage: true,
  thinkingSwitch: 'deepseek',
};

const OPENAI: OpenAICompat = {
  label: 'OpenAI API',
  sendReasoningContent: false,
  maxTokensField: 'max_completion_tokens',
  defaultMaxTokens: true,
  includeUsage: true,
  thinkingSwitch: 'none',
};

const GENERIC: OpenAICompat = {
  label: 'OpenAI-compatible server',
  sendReasoningContent: false,
  maxTokensField: 'max_tokens',
  defaultMaxTokens: false,
  includeUsage: true,
  thinkingSwitch: 'none',
};

interface CompatRow {
  matches(name: OpenAIProviderName, host: string): boolean;
  compat: OpenAICompat;
}

/** First match wins. The host decides before the name: `--provider openai` pointed at a local
 * server is a generic OpenAI-compatible server. */
const COMPAT_ROWS: readonly CompatRow[] = [
  { matches: (_name, host) => host === 'api.deepseek.com' || host.endsWith('.deepseek.com'), compat: DEEPSEEK },
  { matches: (_name, host) => host === 'api.openai.com', compat: OPENAI },
  { matches: (_name, host) => host === 'openrouter.ai', compat: { ...GENERIC, label: 'OpenRouter API' } },
  { matches: (name) => name === 'deepseek', compat: DEEPSEEK },
  { matches: () => true, compat: GENERIC },
];

export function detectOpenAICompat(name: OpenAIProviderName, baseUrl: string): OpenAICompat {
  let host = '';
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    host = '';
  }
  const row = COMPAT_ROWS.find((candidate) => candidate.matches(name, host));
  return { ...(row?.compat ?? GENERIC) };
}

/** The streaming request body, plus DeepSeek's `thinking` switch. */
export type ChatRequestBody = ChatCompletionCreateParamsStreaming & { thinking?: { type: 'enabled' | 'disabled' } };

type AssistantParam = ChatCompletionAssistantMessageParam & { reasoning_content?: string; reasoning?: string };

/**
 * Builds the body with a fixed key order: model, messages, tools, then the rest. Nothing in it
 * depends on time or chance, so the same history always gives the same bytes.
 */
export function buildChatRequest(request: ModelRequest, compat: OpenAICompat): ChatRequestBody {
  const { tools, rest } = chatRequestFields(request, compat);
  return {
    model: request.model,
    messages: toOpenAIMessages(request.system, request.messages, compat, takesImages(request.model) !== false),
    ...(tools.length > 0 ? { tools } : {}),
    ...rest,
  } as ChatRequestBody;
}

/** The fields after `messages`: the tools, then the rest in their order. */
function chatRequestFields(request: ModelRequest, compat: OpenAICompat): { tools: ChatCompletionTool[]; rest: Record<string, unknown> } {
  const maxTokens =
    request.maxTokens ?? (compat.defaultMaxTokens ? lookupModel(request.model).maxOutputTokens : undefined);
  return {
    tools: toOpenAITools(request.tools),
    rest: {
      ...(maxTokens !== undefined ? { [compat.maxTokensField]: maxTokens } : {}),
      ...(compat.thinkingSwitch === 'deepseek' && request.reasoning !== undefined
        ? { thinking: { type: request.reasoning ? 'enabled' : 'disabled' } }
        : {}),
      stream: true,
      ...(compat.includeUsage ? { stream_options: { include_usage: true } } : {}),
    },
  };
}

/** The JSON pieces one provider reuses across its requests (request-bytes.ts). */
export interface ChatRequestPieces {
  system: LastStringPiece;
  messages: JsonPieces<Message>;
  tools: JsonPieces<readonly ToolSchema[]>;
}

export function chatRequestPieces(): ChatRequestPieces {
  return { system: new LastStringPiece(), messages: new JsonPieces(), tools: new JsonPieces() };
}

/**
 * `JSON.stringify(buildChatRequest(request, compat))` as bytes, each history message serialised
 * once per provider (request-bytes.ts): the cost of a request is what is new in it.
 */
export function encodeChatRequest(request: ModelRequest, compat: OpenAICompat, pieces: ChatRequestPieces): Buffer {
  const { tools, rest } = chatRequestFields(request, compat);
  const messages: JsonPiece[] = [];
  if (request.system) messages.push(pieces.system.of(request.system, (content) => ({ role: 'system', content })));
  const images = takesImages(request.model) !== false;
  request.messages.forEach((message, i) => {
    // A tool result that ends a run carries the run's images in a user message after it: its
    // piece is both wire messages. The run is complete whenever it is first sent (a request goes
    // out after every result of a turn), so the piece never changes afterwards.
    messages.push(pieces.messages.ofText(message, () => wireMessagesAt(request.messages, i, compat, images).map((wire) => JSON.stringify(wire)).join(',')));
  });
  const fields: JsonField[] = [
    ['model', jsonPiece(request.model)],
    ['messages', { array: messages }],
    ...(tools.length > 0 ? [['tools', pieces.tools.of(request.tools, () => tools)] as JsonField] : []),
  ];
  return jsonObjectBytes(fields, rest);
}

export function toOpenAIMessages(
  system: string,
  messages: readonly Message[],
  compat: OpenAICompat,
  images = true,
): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = [];
  if (system) wire.push({ role: 'system', content: system });
  messages.forEach((_message, i) => wire.push(...wireMessagesAt(messages, i, compat, images)));
  return wire;
}

/**
 * The wire messages of history message `i`: its own, and after a tool result that ends a run of
 * them, a user message with the run's images (Chat Completions takes images only from the user,
 * and every tool message must directly follow its call). `images` false (a model that takes none):
 * the tool's text, which names the images, is all that goes.
 */
function wireMessagesAt(messages: readonly Message[], i: number, compat: OpenAICompat, images: boolean): ChatCompletionMessageParam[] {
  const message = messages[i]!;
  const own = toOpenAIMessage(message, compat);
  if (message.role !== 'tool' || !images || messages[i + 1]?.role === 'tool') return [own];
  const runImages: ToolImage[] = [];
  for (let j = i; j >= 0 && messages[j]!.role === 'tool'; j--) runImages.unshift(...((messages[j] as ToolResultMessage).images ?? []));
  if (runImages.length === 0) return [own];
  const text = runImages.length === 1 ? 'The image the tool result above returned.' : `The ${runImages.length} images the tool results above returned.`;
  return [own, { role: 'user', content: [{ type: 'text', text }, ...imageParts(runImages)] }];
}

/** Images as `image_url` parts with data URLs. */
function imageParts(images: readonly ToolImage[]): ChatCompletionContentPartImage[] {
  return images.map((image) => ({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } }));
}

/** One history message on the wire; it depends on the message alone (and the server's row). */
function toOpenAIMessage(message: Message, compat: OpenAICompat): ChatCompletionMessageParam {
  if (message.role === 'user') {
    if (!message.images?.length) return { role: 'user', content: message.content };
    return { role: 'user', content: [{ type: 'text', text: message.content }, ...imageParts(message.images)] };
  }
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  const hasCalls = message.toolCalls.length > 0;
  const assistant: AssistantParam = {
    role: 'assistant',
    content: message.content === '' && hasCalls ? null : message.content,
    ...reasoningBack(message, compat, hasCalls),
    ...(hasCalls
      ? {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
  return assistant;
}

/**
 * The reasoning an assistant message carries back, as one field or none. DeepSeek's row sends it
 * whenever present (as it always has). Elsewhere a tool-call message whose stream carried the
 * reasoning in a field sends it back, byte for byte, under that field: Moonshot's Kimi thinking
 * models answer 400 "reasoning_content is missing in assistant tool call message" without it, and
 * DeepSeek-style thinking behind vLLM or SGLang needs it to go on. A message without such a field
 * (no reasoning, reasoning in content parts, another provider's thinking) gets nothing, so its
 * bytes are what they were; the choice depends on the message alone, so history stays byte-stable.
 */
function reasoningBack(message: AssistantMessage, compat: OpenAICompat, hasCalls: boolean): { reasoning_content?: string; reasoning?: string } {
  if (!message.reasoning) return {};
  if (compat.sendReasoningContent) return { reasoning_content: message.reasoning };
  if (!hasCalls) return {};
  // Only the two known names: the field comes from a session file, and must never be `content`.
  if (message.reasoningField === 'reasoning_content') return { reasoning_content: message.reasoning };
  if (message.reasoningField === 'reasoning') return { reasoning: message.reasoning };
  return {};
}

const convertedTools = new WeakMap<readonly ToolSchema[], ChatCompletionTool[]>();

/** Converted once per tools array, so every request of a session carries the very same objects. */
export function toOpenAITools(tools: readonly ToolSchema[]): ChatCompletionTool[] {
  let converted = convertedTools.get(tools);
  if (!converted) {
    converted = tools.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    convertedTools.set(tools, converted);
  }
  return converted;
}
