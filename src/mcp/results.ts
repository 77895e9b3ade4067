import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../agent/types.js';
import { COMMAND_OUTPUT_MAX_CHARS, truncateHeadTail } from '../tools/truncate.js';
import { formatBytes } from '../tools/text-files.js';

/**
 * An MCP tool result as a seek tool result: text as it is; embedded text resources with their URI;
 * images, audio and binary resources named with their type and size (the model gets no bytes it
 * cannot read); resource links listed; structured content as JSON when the server sent no text;
 * `isError` kept. Capped like bash output (head and tail kept).
 */
export function toToolResult(server: string, tool: string, result: CallToolResult): ToolResult {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))} — not shown]`);
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource && typeof resource.text === 'string') parts.push(`[resource ${resource.uri}]\n${resource.text}`);
        else parts.push(`[resource ${resource.uri}: ${resource.mimeType ?? 'binary'}, ${formatBytes(base64Bytes('blob' in resource ? resource.blob : ''))} — not shown]`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}${block.description ? `: ${block.description}` : ''}]`);
        break;
      default:
        parts.push(`[${(block as { type: string }).type} content — not shown]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const text = parts.join('\n') || '(no output)';
  const content = truncateHeadTail(text, COMMAND_OUTPUT_MAX_CHARS);
  return result.isError ? { content: `[mcp__${server}__${tool} failed] ${content}`, isError: true } : { content };
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
