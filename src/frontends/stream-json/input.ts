/**
 * `--input-format stream-json`: what a program may write on seek's stdin, one JSON object a line,
 * in the shapes of Claude Code's stream-json input and SDK control protocol:
 *
 *   {"type":"user","message":{"role":"user","content":"…" | [content blocks]}}
 *   {"type":"control_request","request_id":"…","request":{"subtype":"interrupt" | "set_permission_mode" | "set_model" | "initialize", …}}
 *   {"type":"control_response","response":{"subtype":"success" | "error","request_id":"…","response":{…},"error":"…"}}
 *
 * Parsing only: a line becomes one typed message or a reason it is refused (the caller answers
 * with an error line and reads on).
 */
import type { ImageContentBlock } from '../../images/attach.js';

export type InputMessage =
  | { type: 'user'; text: string; images: ImageContentBlock[] }
  | { type: 'control_request'; requestId: string; subtype: string; request: Record<string, unknown> }
  | { type: 'control_response'; requestId: string; ok: true; response: Record<string, unknown> }
  | { type: 'control_response'; requestId: string; ok: false; error: string }
  | { type: 'ignored' };

export type Parsed = { ok: true; message: InputMessage } | { ok: false; error: string; requestId?: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One line of input; blank lines are ignored. */
export function parseInputLine(line: string): Parsed {
  if (line.trim() === '') return { ok: true, message: { type: 'ignored' } };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})` };
  }
  if (!isObject(value)) return { ok: false, error: 'expected a JSON object' };
  switch (value.type) {
    case 'user':
      return parseUser(value);
    case 'control_request':
      return parseControlRequest(value);
    case 'control_response':
      return parseControlResponse(value);
    // Claude Code's SDK may cancel a question it was asked; seek's questions end with their turn.
    case 'control_cancel_request':
    case 'keep_alive':
      return { ok: true, message: { type: 'ignored' } };
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(value.type)} (expected user, control_request or control_response)` };
  }
}

function parseUser(value: Record<string, unknown>): Parsed {
  const message = value.message;
  if (!isObject(message)) return { ok: false, error: 'a user message needs "message": {"role":"user","content":…}' };
  if (message.role !== undefined && message.role !== 'user') return { ok: false, error: `a user message's role must be "user", not ${JSON.stringify(message.role)}` };
  const content = userContentFromBlocks(message.content);
  if ('error' in content) return { ok: false, error: content.error };
  if (content.text.trim() === '' && content.images.length === 0) return { ok: false, error: 'the user message is empty' };
  return { ok: true, message: { type: 'user', text: content.text, images: content.images } };
}

/**
 * A user message's content: a string as it is, or content blocks whose text blocks are joined by
 * blank lines and whose image blocks (Anthropic's `{"type":"image","source":{…}}` or OpenAI's
 * `{"type":"image_url","image_url":{"url":"data:…"}}`) are kept in order, their shape checked here
 * and their bytes by images/attach.ts when the message's turn comes.
 */
export function userContentFromBlocks(content: unknown): { text: string; images: ImageContentBlock[] } | { error: string } {
  if (typeof content === 'string') return { text: content, images: [] };
  if (!Array.isArray(content)) return { error: 'a user message\'s "content" must be a string or an array of content blocks' };
  const texts: string[] = [];
  const images: ImageContentBlock[] = [];
  for (const [index, block] of content.entries()) {
    if (!isObject(block)) return { error: `content block ${index} is not an object` };
    if (block.type === 'text') {
      if (typeof block.text !== 'string') return { error: `content block ${index} (text) needs a string "text"` };
      texts.push(block.text);
    } else if (block.type === 'image' || block.type === 'image_url') {
      const image = imageBlock(block);
      if (typeof image === 'string') return { error: `content block ${index} (${block.type}) ${image}` };
      images.push(image);
    } else {
      return { error: `content block ${index} has unsupported type ${JSON.stringify(block.type)} (text, image and image_url blocks are accepted)` };
    }
  }
  return { text: texts.join('\n\n'), images };
}

/** An image block of a known shape, or what it lacks. */
function imageBlock(block: Record<string, unknown>): ImageContentBlock | string {
  if (block.type === 'image_url') {
    const target = block.image_url;
    if (typeof target === 'string') return { type: 'image_url', image_url: target };
    if (isObject(target) && typeof target.url === 'string') return { type: 'image_url', image_url: { url: target.url } };
    return 'needs "image_url": {"url": "data:image/…;base64,…"}';
  }
  const source = block.source;
  if (isObject(source) && source.type === 'base64' && typeof source.data === 'string') {
    return { type: 'image', source: { type: 'base64', media_type: typeof source.media_type === 'string' ? source.media_type : '', data: source.data } };
  }
  if (isObject(source) && source.type === 'url' && typeof source.url === 'string') return { type: 'image', source: { type: 'url', url: source.url } };
  return 'needs "source": {"type": "base64", "media_type": …, "data": …}';
}

function parseControlRequest(value: Record<string, unknown>): Parsed {
  const requestId = value.request_id;
  if (typeof requestId !== 'string' || requestId === '') return { ok: false, error: 'a control_request needs a string "request_id"' };
  const request = value.request;
  if (!isObject(request) || typeof request.subtype !== 'string') return { ok: false, error: 'a control_request needs "request": {"subtype": …}', requestId };
  return { ok: true, message: { type: 'control_request', requestId, subtype: request.subtype, request } };
}

function parseControlResponse(value: Record<string, unknown>): Parsed {
  const response = value.response;
  if (!isObject(response) || typeof response.request_id !== 'string') return { ok: false, error: 'a control_response needs "response": {"subtype": …, "request_id": …}' };
  const requestId = response.request_id;
  if (response.subtype === 'success') {
    const body = response.response === undefined ? {} : response.response;
    if (!isObject(body)) return { ok: false, error: `control_response ${requestId}: "response" must be an object` };
    return { ok: true, message: { type: 'control_response', requestId, ok: true, response: body } };
  }
  if (response.subtype === 'error') {
    const error = typeof response.error === 'string' ? response.error : 'the program answered with an error';
    return { ok: true, message: { type: 'control_response', requestId, ok: false, error } };
  }
  return { ok: false, error: `control_response ${requestId}: "subtype" must be "success" or "error"` };
}
