/**
 * The recordings of ../shared/wire-recordings, and those of test/fixtures/recordings (found in public
 * repositories and issues, each listed with its source in that folder's manifest.json), as replay
 * cases: each file's bytes framed as the SSE body the real server sent (see the shared folder's
 * README), its wire, and what the recording itself says the response contained, computed from its
 * payloads without any of seek's code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const RECORDINGS_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'wire-recordings');
/** Recordings found for issue 34, committed with the repository. */
export const FOUND_DIR = join(import.meta.dirname, '..', 'fixtures', 'recordings');

export interface ExpectedCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Expected {
  text: string;
  reasoning: string;
  toolCalls: ExpectedCall[];
  stopReason: 'stop' | 'tool_calls' | 'length' | 'refusal';
  /** OpenAI-style wire: the delta field the reasoning came in, the field it must go back under. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** An `{"error": …}` chunk inside the 200 stream: its type and message. */
  streamError?: { type: string; message: string };
  /** Anthropic: the thinking block's signature, concatenated from its signature_delta events. */
  signature?: string;
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

export interface ReplayCase {
  name: string;
  wire: 'openai' | 'anthropic';
  body: string;
  payloads: Record<string, unknown>[];
  expected: Expected;
  /** A found recording that is an HTTP error body: its status, what seek must classify it as, and
   * the server's message (which the error must carry, with the status). */
  httpError?: { status: number; kind: string; message: string };
}

interface ManifestEntry {
  file: string;
  source: string;
  note: string;
  expect?: 'stream' | 'stream-error' | 'http-error';
  wire?: 'openai' | 'anthropic';
  status?: number;
  kind?: string;
}

/**
 * The found recordings, in manifest order. Every file of the folder must be listed with a source and
 * a note, and every listed file must exist: a recording without its provenance is not kept.
 */
export function foundCases(): { cases: ReplayCase[]; entries: ManifestEntry[] } {
  const manifest = JSON.parse(readFileSync(join(FOUND_DIR, 'manifest.json'), 'utf8')) as { recordings: ManifestEntry[] };
  const entries = manifest.recordings;
  const listed = new Set(entries.map((entry) => entry.file));
  const onDisk: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else onDisk.push(relative(FOUND_DIR, path));
    }
  };
  walk(FOUND_DIR);
  const unlisted = onDisk.filter((file) => file !== 'manifest.json' && file !== 'README.md' && !listed.has(file));
  const missing = [...listed].filter((file) => !onDisk.includes(file));
  const unsourced = entries.filter((entry) => !entry.source || !entry.note).map((entry) => entry.file);
  if (unlisted.length + missing.length + unsourced.length > 0) {
    throw new Error(`test/fixtures/recordings/manifest.json: unlisted ${unlisted.join(', ')}; missing ${missing.join(', ')}; without source or note ${unsourced.join(', ')}`);
  }
  const cases = entries.map((entry) => {
    const path = join(FOUND_DIR, entry.file);
    if (entry.expect !== 'http-error') return { ...loadCase(path, FOUND_DIR), name: `found/${entry.file}` };
    const raw = readFileSync(path, 'utf8');
    const body = JSON.parse(raw) as { error?: { message?: string } };
    return {
      name: `found/${entry.file}`,
      wire: entry.wire ?? 'openai',
      body: raw,
      payloads: [],
      expected: { text: '', reasoning: '', toolCalls: [], stopReason: 'stop' as const },
      httpError: { status: entry.status ?? 400, kind: entry.kind ?? 'bad_request', message: body.error?.message ?? '' },
    };
  });
  return { cases, entries };
}

/** Every file that holds a response body (cassette yamls and the README describe, they are not bodies). */
export function recordingFiles(): string[] {
  if (!existsSync(RECORDINGS_DIR)) return [];
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.chunks\.txt$|\.body$|\.L\d+-L\d+\.txt$/.test(entry)) files.push(path);
    }
  };
  walk(RECORDINGS_DIR);
  return files;
}

export function loadCase(path: string, root: string = RECORDINGS_DIR): ReplayCase {
  const raw = readFileSync(path, 'utf8');
  const name = relative(root, path);
  let body: string;
  if (/\.L\d+-L\d+\.txt$/.test(path)) {
    // Pasted server-log lines: "-- data: {...}", one SSE line each.
    body = raw
      .split('\n')
      .map((line) => line.replace(/^\s*--\s?/, ''))
      .filter((line) => line.startsWith('data:'))
      .map((line) => `${line}\n\n`)
      .join('');
  } else if (/^(event|data):/.test(raw) || path.endsWith('.body')) {
    body = raw.endsWith('\n\n') ? raw : `${raw.trimEnd()}\n\n`; // already SSE, byte for byte
  } else {
    const lines = raw.split('\n').filter((line) => line.trim() !== '');
    const anthropic = lines[0]?.includes('"message_start"') ?? false;
    body = lines
      .map((line) => (anthropic ? `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n` : `data: ${line}\n\n`))
      .join('');
    if (!anthropic) body += 'data: [DONE]\n\n';
  }
  const payloads = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
  const wire = payloads.some((payload) => payload['type'] === 'message_start') ? 'anthropic' : 'openai';
  return { name, wire, body, payloads, expected: wire === 'anthropic' ? expectAnthropic(payloads) : expectOpenAI(payloads) };
}

// Loosely typed on purpose: the recordings are arbitrary JSON.
/* eslint-disable @typescript-eslint/no-explicit-any */

function expectOpenAI(payloads: any[]): Expected {
  let text = '';
  let reasoning = '';
  let finish: string | undefined;
  let usage: any;
  let refusal = '';
  let reasoningField: Expected['reasoningField'];
  let streamError: Expected['streamError'];
  // Calls keyed by index, else by id; the first id seen names the call.
  const calls = new Map<string, ExpectedCall>();
  for (const payload of payloads) {
    if (payload.error) streamError ??= { type: String(payload.error.type), message: String(payload.error.message) };
    if (payload.usage) usage = payload.usage;
    for (const choice of payload.choices ?? []) {
      const delta = choice.delta ?? {};
      if (choice.usage) usage = choice.usage; // Moonshot puts usage inside the finishing choice too
      reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
      if (typeof delta.refusal === 'string') refusal += delta.refusal;
      for (const key of ['reasoning_content', 'reasoning'] as const) {
        if (typeof delta[key] === 'string' && delta[key] !== '') reasoningField ??= key;
      }
      if (typeof delta.content === 'string') text += delta.content;
      for (const part of Array.isArray(delta.content) ? delta.content : []) {
        if (part.type === 'text') text += part.text;
        if (part.type === 'thinking') reasoning += part.thinking.map((p: any) => p.text).join('');
      }
      for (const fragment of delta.tool_calls ?? []) {
        const key = String(fragment.index ?? fragment.id);
        const call = calls.get(key) ?? { id: fragment.id ?? '', name: fragment.function?.name ?? '', arguments: '' };
        call.arguments += fragment.function?.arguments ?? '';
        calls.set(key, call);
      }
      finish = choice.finish_reason ?? finish;
    }
  }
  const toolCalls = [...calls.values()];
  const cacheRead = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens ?? 0;
  return {
    text,
    reasoning,
    toolCalls,
    stopReason: refusal || finish === 'content_filter' ? 'refusal' : finish === 'length' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop',
    ...(reasoningField ? { reasoningField } : {}),
    ...(streamError ? { streamError } : {}),
    ...(usage
      ? {
          usage: {
            inputTokens: usage.prompt_tokens,
            // Everything billed beyond the prompt is output, reasoning included.
            outputTokens: typeof usage.total_tokens === 'number' ? usage.total_tokens - usage.prompt_tokens : usage.completion_tokens,
            cacheReadTokens: cacheRead,
            cacheWriteTokens: 0,
          },
        }
      : {}),
  };
}

function expectAnthropic(payloads: any[]): Expected {
  let text = '';
  let reasoning = '';
  let stop: string | undefined;
  let signature = '';
  const counts = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  const take = (usage: any): void => {
    counts.input = usage?.input_tokens ?? counts.input;
    counts.cacheRead = usage?.cache_read_input_tokens ?? counts.cacheRead;
    counts.cacheWrite = usage?.cache_creation_input_tokens ?? counts.cacheWrite;
    counts.output = usage?.output_tokens ?? counts.output;
  };
  const calls = new Map<number, ExpectedCall>();
  for (const event of payloads) {
    if (event.type === 'message_start') take(event.message.usage);
    if (event.type === 'message_delta') {
      take(event.usage);
      stop = event.delta?.stop_reason ?? stop;
    }
    if (event.type === 'content_block_start') {
      const block = event.content_block;
      if (block.type === 'tool_use') calls.set(event.index, { id: block.id, name: block.name, arguments: '' });
      if (block.type === 'text') text += block.text ?? '';
      if (block.type === 'thinking') reasoning += block.thinking ?? '';
    }
    if (event.type === 'content_block_delta') {
      const delta = event.delta;
      if (delta.type === 'text_delta') text += delta.text;
      if (delta.type === 'thinking_delta') reasoning += delta.thinking;
      if (delta.type === 'signature_delta') signature += delta.signature;
      if (delta.type === 'input_json_delta') {
        const call = calls.get(event.index);
        if (call) call.arguments += delta.partial_json;
      }
    }
  }
  const toolCalls = [...calls.values()];
  return {
    text,
    reasoning,
    toolCalls,
    stopReason: stop === 'refusal' ? 'refusal' : stop === 'max_tokens' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop',
    ...(signature ? { signature } : {}),
    usage: {
      inputTokens: counts.input + counts.cacheRead + counts.cacheWrite,
      outputTokens: counts.output,
      cacheReadTokens: counts.cacheRead,
      cacheWriteTokens: counts.cacheWrite,
    },
  };
}
