import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * A `session/prompt`'s content blocks as the one user message seek sends the model: text as is;
 * a resource link as the file path (or URI) the model can read itself; an embedded resource (an
 * editor's selection or open file, possibly unsaved) inline, fenced by a tag naming its URI.
 * Images and audio are not advertised, so a client sends none; one that does gets a placeholder.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`@${pathOf(block.uri)}`);
        break;
      case 'resource': {
        const { resource } = block;
        const where = pathOf(resource.uri);
        if ('text' in resource) parts.push(`\n<resource uri="${where}">\n${resource.text}${resource.text.endsWith('\n') ? '' : '\n'}</resource>\n`);
        else parts.push(`@${where} (binary content not shown)`);
        break;
      }
      default:
        parts.push(`[${block.type} content not supported]`);
    }
  }
  // Text blocks carry their own spacing; a space goes in only where two parts would run together.
  return parts.reduce((text, part) => (text === '' || /\s$/.test(text) || /^\s/.test(part) ? text + part : `${text} ${part}`), '').trim();
}

/** A `file://` URI as its path; anything else as given. */
function pathOf(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
