import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../agent/types.js';
import type { ToolImage } from '../providers/types.js';
import { COMMAND_OUTPUT_MAX_CHARS, truncateHeadTail } from '../tools/truncate.js';
import { formatBytes } from '../tools/text-files.js';

/**
 * An MCP tool result as a seek tool result: text as it is; embedded text resources with their URI;
 * images attached (providers that take images in tool results get them) and named with their type
 * and size; audio and binary resources named (the model gets no bytes it cannot read); resource links listed; structured content as JSON when the server sent no text;
 * `isError` kept. Capped like bash output (head and tail kept).
 */
export function toToolResult(server: string, tool: string, result: CallToolResult): ToolResult {
  const parts: string[] = [];
  const images: ToolImage[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
        // Attached for models whose provider takes images in tool results; named for the others.
        if (block.data.length <= MAX_IMAGE_BASE64 && images.length < MAX_IMAGES) {
          images.push({ mimeType: block.mimeType, data: block.data });
          parts.push(`[image: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))} — attached]`);
        } else {
          parts.push(`[image: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))} — too large to attach, not shown]`);
        }
        break;
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
  const attached = images.length > 0 ? { images } : {};
  return result.isError ? { content: `[mcp__${server}__${tool} failed] ${content}`, isError: true, ...attached } : { content, ...attached };
}

/** Anthropic takes images up to 5 MB; the base64 text is 4/3 of that. */
const MAX_IMAGE_BASE64 = Math.floor((5 * 1024 * 1024 * 4) / 3);
const MAX_IMAGES = 8;

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
