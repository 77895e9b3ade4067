import type { ToolCall } from '../providers/types.js';

/**
 * Tools on demand (see src/tools/on-demand.ts): the model sees a few tools declared plus two fixed
 * ones, `tool_search`, which returns the full definitions of the others as a tool result, and
 * `call_tool`, a proxy with a fixed schema through which it calls them. The declared set never
 * changes within a session, so every request extends the previous one byte for byte.
 */
export const TOOL_SEARCH = 'tool_search';
export const CALL_TOOL = 'call_tool';

/**
 * The call a `call_tool {name, arguments}` call stands for, with the same id: the real tool's name
 * and its arguments as JSON text. Everything after the model's reply (dispatch, permissions, hooks,
 * events, rows on a screen, tool results) sees this call, never the proxy. Any other call, or a
 * proxy call too malformed to read, comes back unchanged (the proxy tool then explains the fault).
 */
export function unwrapProxyCall(call: ToolCall): ToolCall {
  if (call.name !== CALL_TOOL) return call;
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return call;
  }
  if (!isRecord(parsed) || typeof parsed.name !== 'string' || parsed.name === '') return call;
  const inner = parsed.arguments;
  // Models now and then send the inner arguments as JSON text rather than an object.
  const text = typeof inner === 'string' ? inner : JSON.stringify(inner ?? {});
  return { id: call.id, name: parsed.name, arguments: text };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
