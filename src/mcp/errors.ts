/**
 * An MCP error's message said once. The SDK prefixes `MCP error <code>: ` to every error it
 * raises, and a server built on it sends that text as its own message, so a client sees
 * "MCP error -32602: MCP error -32602: …". Repeats of the same prefix are dropped.
 */
export function mcpErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^(MCP error (-?\d+): )(?:MCP error \2: )+/, '$1');
}
