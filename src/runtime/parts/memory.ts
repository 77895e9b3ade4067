/** Memory's piece of a session (runtime/memory.ts does the work): settled before the first prompt. */
import { wireMemory, type MemoryWiring } from '../memory.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';

export async function openMemory(base: SessionBase, conversation: Conversation, options: OpenSessionOptions): Promise<MemoryWiring> {
  const memory = await wireMemory({
    seekHome: base.home,
    projectId: base.pid,
    projectRoot: base.projectRoot,
    sessionId: conversation.id,
    resumed: Boolean(conversation.resumed),
    interactive: options.interactive,
    save: options.save !== false,
    stream: conversation.stream,
    flashModel: conversation.settings.flashModel,
    config: base.config,
    env: options.env,
    tracker: conversation.tracker,
    notify: base.board.notify,
  });
  for (const notice of memory.notices) base.board.add(notice.level, notice.text);
  return memory;
}
