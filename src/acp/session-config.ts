import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { MODEL_CATALOG } from '../providers/catalog.js';
import type { AgentSession } from '../runtime/session.js';

export type SeekMode = 'ask' | 'auto' | 'plan' | 'yolo';

/** seek's permission modes as ACP session modes (the editor's mode picker). */
const MODES: ReadonlyArray<{ id: SeekMode; name: string; description: string }> = [
  { id: 'ask', name: 'Ask', description: 'asks before edits, commands and anything outside the project' },
  { id: 'auto', name: 'Auto', description: 'edits and commands inside the project without asking, commands in the OS sandbox' },
  { id: 'plan', name: 'Plan', description: 'read-only: investigate and propose a plan' },
  { id: 'yolo', name: 'Yolo', description: 'everything without asking; commands run unsandboxed' },
];

export function isSeekMode(id: string): id is SeekMode {
  return MODES.some((mode) => mode.id === id);
}

/** The session's mode as an ACP mode id (plan execution counts as plan; a headless deny as ask). */
export function currentMode(session: AgentSession): SeekMode {
  const mode = session.policy.mode;
  if (mode === 'plan' || mode === 'plan_execute') return 'plan';
  return mode === 'deny' ? 'ask' : mode;
}

export function modeState(session: AgentSession): SessionModeState {
  return { currentModeId: currentMode(session), availableModes: MODES.map((mode) => ({ ...mode })) };
}

/** The models the picker offers: the catalog's models the session's provider serves (every one
 * for an OpenAI-compatible endpoint), and the current model if the catalog lacks it. */
export function modelChoices(session: AgentSession): string[] {
  const served = MODEL_CATALOG.filter((model) => session.provider === 'openai-compatible' || model.provider === session.provider).map((model) => model.id);
  return served.includes(session.model) ? served : [session.model, ...served];
}

/** The session's options: the model picker. */
export function configOptions(session: AgentSession): SessionConfigOption[] {
  const ids = modelChoices(session);
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: session.model,
      options: ids.map((id) => ({ value: id, name: id })),
    },
  ];
}
