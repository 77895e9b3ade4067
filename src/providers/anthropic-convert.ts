/**
 * The byte-stable translation of a ModelRequest into an Anthropic Messages request body, with the
 * three prompt-cache breakpoints: the system block and the last tool (stable for a session), and
 * the last block of the last message (the standard moving breakpoint).
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { lookupModel } from './catalog.js';
import { jsonObjectBytes, jsonPiece, JsonPieces, LastStringPiece, type JsonField, type JsonPiece } from './request-bytes.js';
import type { AssistantMessage, Message, ModelRequest, ToolImage, ToolSchema } from './types.js';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Anthropic rejects empty text blocks; these stand in for an empty message (rare, but possible). */
const EMPTY_USER_TEXT = '(empty message)';
const EMPTY_ASSISTANT_TEXT = '(empty response)';

/** Smallest thinking budget Anthropic accepts. */
const MIN_THINKING_BUDGET = 1024;

/** Builds the body with a fixed key order: model, system, messages, tools, then the rest. */
export function buildMessagesRequest(request: ModelRequest): MessageCreateParamsStreaming {
  const tools = toAnthropicTools(request.tools);
  return {
    model: request.model,
    ...(request.system ? { system: systemBlocks(request.system) } : {}),
    messages: toAnthropicMessages(request.messages),
    ...(tools.length > 0 ? { tools } : {}),
    ...restFields(request),
  } as MessageCreateParamsStreaming;
}

/** The fields after `tools`, in their order. */
function restFields(request: ModelRequest): Record<string, unknown> {
  const maxTokens = request.maxTokens ?? lookupModel(request.model).maxOutputTokens;
  const thinkingBudget = Math.min(16_000, Math.floor(maxTokens / 2));
  return {
    max_tokens: maxTokens,
    ...(request.reasoning && thinkingBudget >= MIN_THINKING_BUDGET
      ? { thinking: { type: 'enabled' as const, budget_tokens: thinkingBudget } }
      : {}),
    stream: true,
  };
}

/** The JSON pieces one provider reuses across its requests (request-bytes.ts). A wire message
 * is cached by the history message it starts with and how many it holds: once another wire
 * message follows it, nothing merges into it and the moving breakpoint has left it. */
export interface MessagesRequestPieces {
  system: LastStringPiece;
  messages: WeakMap<Message, Map<number, JsonPiece>>;
  tools: JsonPieces<readonly ToolSchema[]>;
}

export function messagesRequestPieces(): MessagesRequestPieces {
  return { system: new LastStringPiece(), messages: new WeakMap(), tools: new JsonPieces() };
}

/** `JSON.stringify(buildMessagesRequest(request))` as bytes, every wire message but the last
 * serialised once per provider: the cost of a request is what is new in it. */
export function encodeMessagesRequest(request: ModelRequest, pieces: MessagesRequestPieces): Buffer {
  const { wire, groups } = anthropicMessageGroups(request.messages);
  const messages = wire.map((message, i): JsonPiece => {
    if (i === wire.length - 1) return jsonPiece(message);
    const { first, count } = groups[i]!;
    let byCount = pieces.messages.get(first);
    if (!byCount) pieces.messages.set(first, (byCount = new Map()));
    let cached = byCount.get(count);
    if (!cached) byCount.set(count, (cached = jsonPiece(message)));
    return cached;
  });
  const tools = toAnthropicTools(request.tools);
  const fields: JsonField[] = [
    ['model', jsonPiece(request.model)],
    ...(request.system ? [['system', pieces.system.of(request.system, systemBlocks)] as JsonField] : []),
    ['messages', { array: messages }],
    ...(tools.length > 0 ? [['tools', pieces.tools.of(request.tools, () => tools)] as JsonField] : []),
  ];
  return jsonObjectBytes(fields, restFields(request));
}

function systemBlocks(system: string): TextBlockParam[] {
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

/** The image types Anthropic takes; others stay named in the text only. */
type AnthropicImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageType>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Consecutive tool results become one user message (Anthropic wants every tool_result of a turn in
 * the message right after the tool_use blocks). A user message that follows another user-role wire
 * message (a compaction summary then the next prompt; tool results then a prompt after an
 * interrupted run) is merged into it as one more text block, so roles always alternate; the merge
 * depends only on the message sequence, so the bytes stay stable. Each content is always a block
 * array, so moving the cache breakpoint never changes a message's shape.
 */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  return anthropicMessageGroups(messages).wire;
}

/** The wire messages, each with the history messages it was made of (the first, and how many). */
function anthropicMessageGroups(messages: readonly Message[]): { wire: MessageParam[]; groups: Array<{ first: Message; count: number }> } {
  const wire: MessageParam[] = [];
  const groups: Array<{ first: Message; count: number }> = [];
  let openResults: ContentBlockParam[] | undefined;
  for (const message of messages) {
    // Every history message lands in the last wire message, a new one or one it merges into.
    const before = wire.length;
    place(message);
    if (wire.length > before) groups.push({ first: message, count: 1 });
    else groups[groups.length - 1]!.count += 1;
  }
  markLastBlock(wire);
  return { wire, groups };

  function place(message: Message): void {
    if (message.role === 'tool') {
      const images = imageBlocks(message.images);
      const content: ToolResultBlockParam['content'] =
        images.length === 0
          ? message.content || undefined
          : [...(message.content ? [{ type: 'text' as const, text: message.content }] : []), ...images];
      const block: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        ...(content !== undefined ? { content } : {}),
        ...(message.isError ? { is_error: true } : {}),
      };
      if (openResults) {
        openResults.push(block);
      } else {
        openResults = [block];
        wire.push({ role: 'user', content: openResults });
      }
      return;
    }
    openResults = undefined;
    if (message.role === 'user') {
      // Images first, then the text that speaks of them (Anthropic's advice).
      const blocks: ContentBlockParam[] = [...imageBlocks(message.images), { type: 'text', text: message.content || EMPTY_USER_TEXT }];
      const previous = wire.at(-1);
      // Text after tool_result blocks is allowed; tool results never follow user text (they answer
      // an assistant message), so a merged message never has content before its tool_result blocks.
      if (previous?.role === 'user' && Array.isArray(previous.content)) previous.content.push(...blocks);
      else wire.push({ role: 'user', content: blocks });
    } else {
      wire.push({ role: 'assistant', content: assistantBlocks(message) });
    }
  }
}

/** The image blocks of a message's images, in order; types Anthropic does not take stay named in
 * the text only. Only the type and the data go on the wire. */
function imageBlocks(images: readonly ToolImage[] | undefined): ImageBlockParam[] {
  return (images ?? [])
    .filter((image) => ANTHROPIC_IMAGE_TYPES.has(image.mimeType))
    .map((image) => ({ type: 'image', source: { type: 'base64', media_type: image.mimeType as AnthropicImageType, data: image.data } }));
}

function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  // Thinking goes back only with its signature (reasoning from another provider has none).
  if (message.reasoning && message.reasoningSignature) {
    blocks.push({ type: 'thinking', thinking: message.reasoning, signature: message.reasoningSignature });
  }
  if (message.content) blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseToolInput(call.arguments) });
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: EMPTY_ASSISTANT_TEXT });
  return blocks;
}

/** Our arguments are the model's raw text; Anthropic wants an object. Unparseable text becomes `{}`
 * (the loop already answered the model that its arguments were malformed). */
export function parseToolInput(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The moving breakpoint. The blocks were built for this request only, so setting it is safe. */
function markLastBlock(wire: MessageParam[]): void {
  const content = wire.at(-1)?.content;
  const last = Array.isArray(content) ? content.at(-1) : undefined;
  if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') {
    Object.assign(last, { cache_control: EPHEMERAL });
  }
}

const convertedTools = new WeakMap<readonly ToolSchema[], Tool[]>();

/** Converted once per tools array: every request of a session carries the very same objects. */
export function toAnthropicTools(tools: readonly ToolSchema[]): Tool[] {
  let converted = convertedTools.get(tools);
  if (!converted) {
    converted = tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as Tool.InputSchema,
      ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
    }));
    convertedTools.set(tools, converted);
  }
  return converted;
}
