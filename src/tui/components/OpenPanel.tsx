import { useMemo } from 'react';
import type { AgentSession } from '../../runtime/session.js';
import type { PanelSpec } from '../commands/index.js';
import { memoryPanelSource } from '../state/memory.js';
import { permissionsPanelSource } from '../state/permissions.js';
import type { SaveFiles } from '../state/rule-scopes.js';
import type { SubagentsState } from '../state/subagents.js';
import type { WorktreePanelSource } from '../state/worktrees.js';
import type { ConversationItem } from '../types.js';
import { AgentsPanel } from './AgentsPanel.js';
import { DistillReview } from './DistillReview.js';
import { MemoryPanel } from './MemoryPanel.js';
import { PermissionsPanel } from './PermissionsPanel.js';
import { TextPanel } from './TextPanel.js';
import { ToolOutputPanel } from './ToolOutputPanel.js';
import { WorktreesPanel } from './WorktreesPanel.js';

export interface OpenPanelProps {
  /** The panel to draw; nothing when undefined (or when what it needs is missing). */
  panel: PanelSpec | undefined;
  session: AgentSession;
  /** The session's worktrees, for `/worktrees` (undefined: the session has no manager). */
  worktreeSource: WorktreePanelSource | undefined;
  /** Where `/permissions` saves rules. */
  saveFiles: SaveFiles;
  /** The conversation so far, for Ctrl+T's tool rows. */
  items: readonly ConversationItem[];
  subagents: SubagentsState;
  width: number;
  /** Rows the panel may take (the App's `layout.bottom`). */
  maxRows: number;
  color: boolean;
  /** False while a question owns the keyboard. */
  active: boolean;
  onClose: () => void;
  notice: (text: string) => void;
}

/** The panels drawn on the alternate screen (full-screen views: opening and closing them leaves
 * the scrollback exactly as it was); the others are drawn in the live area of the main screen. */
export const onAlternateScreen = (panel: PanelSpec): boolean => panel.kind === 'tool-output' || panel.kind === 'agents';

/** The panel a slash command (or Ctrl+T) opened, below the conversation, in the rows it is given. */
export function OpenPanel({ panel, session, worktreeSource, saveFiles, items, subagents, width, maxRows, color, active, onClose, notice }: OpenPanelProps) {
  const memory = session.memory;
  const memorySource = useMemo(() => (memory ? memoryPanelSource(memory.store, session.memorySettings.halfLifeDays) : undefined), [memory, session]);
  const permissionsSource = useMemo(
    () => permissionsPanelSource({ policy: session.policy, seekHome: session.seekHome, projectRoot: session.projectRoot }),
    [session],
  );
  const common = { width, maxRows, color };
  switch (panel?.kind) {
    case 'memory':
      return memorySource ? <MemoryPanel source={memorySource} {...common} active={active} onClose={onClose} /> : null;
    case 'permissions':
      return <PermissionsPanel source={permissionsSource} files={saveFiles} projectRoot={session.projectRoot} {...common} active={active} onClose={onClose} />;
    case 'distill':
      return (
        <DistillReview
          candidates={panel.candidates}
          {...common}
          onSave={(candidate) => session.rememberDistilled(candidate)}
          onDone={(summary) => {
            onClose();
            notice(summary);
          }}
        />
      );
    case 'worktrees':
      return worktreeSource ? <WorktreesPanel source={worktreeSource} {...common} active={active} onClose={onClose} /> : null;
    case 'tool-output':
      return <ToolOutputPanel items={items.filter((item) => item.kind === 'tool')} {...common} active={active} onClose={onClose} />;
    case 'text': {
      const then = panel.onClose;
      const close = () => {
        onClose();
        then?.();
      };
      return <TextPanel title={panel.title} lines={panel.lines} {...(panel.style ? { style: panel.style } : {})} {...common} active={active} onClose={close} />;
    }
    case 'agents':
      return <AgentsPanel state={subagents} {...common} active={active} onKill={(subSid) => session.killSubagent(subSid)} onClose={onClose} />;
    default:
      return null;
  }
}
