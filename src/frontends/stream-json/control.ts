import type { AskAnswer, AskFn, PermissionPrompt } from '../../policy/tool-gate.js';

/** One output line. */
export type WriteLine = (line: Record<string, unknown>) => void;

/** Claude Code's permission modes and seek's own names, to seek's modes. */
const MODES: Readonly<Record<string, 'ask' | 'auto' | 'yolo' | 'plan'>> = {
  default: 'ask',
  ask: 'ask',
  acceptEdits: 'auto',
  auto: 'auto',
  bypassPermissions: 'yolo',
  yolo: 'yolo',
  plan: 'plan',
};

/** What the control requests act on (the conversation's session and its running turn). */
export interface ControlTarget {
  interrupt(): void;
  setMode(mode: 'ask' | 'auto' | 'yolo' | 'plan'): string;
  setModel(model: string): void;
}

/** Answers one control request from the program: a `control_response` line, success or error. */
export function answerControlRequest(target: ControlTarget, requestId: string, subtype: string, request: Record<string, unknown>, write: WriteLine): void {
  const success = (response: Record<string, unknown> = {}) => write({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
  const error = (message: string) => write({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error: message } });
  switch (subtype) {
    case 'initialize':
      return success({});
    case 'interrupt':
      target.interrupt();
      return success();
    case 'set_permission_mode': {
      const mode = typeof request.mode === 'string' ? MODES[request.mode] : undefined;
      if (mode === undefined) return error(`set_permission_mode: unknown mode ${JSON.stringify(request.mode)} (one of ${Object.keys(MODES).join(', ')})`);
      return success({ mode, description: target.setMode(mode) });
    }
    case 'set_model': {
      if (typeof request.model !== 'string' || request.model.trim() === '') return error('set_model needs a model name: {"subtype":"set_model","model":"…"}');
      target.setModel(request.model.trim());
      return success({ model: request.model.trim() });
    }
    default:
      return error(`unknown control request subtype ${JSON.stringify(subtype)} (seek answers initialize, interrupt, set_permission_mode and set_model)`);
  }
}

type Settle = (answer: { ok: true; response: Record<string, unknown> } | { ok: false; error: string }) => void;

/**
 * `--permission-prompt-tool stdio`: every question the policy would ask a person becomes a
 * `can_use_tool` control request on stdout, and the program's `control_response` is the answer:
 * allow (with `updatedInput`: run those arguments instead, judged again by the policy), or deny
 * (its `message` goes to the model; `interrupt: true` ends the turn). Once stdin has closed nobody
 * can answer, so every question then is a no.
 */
export class PermissionQuestions {
  private next = 1;
  private readonly waiting = new Map<string, Settle>();
  private closed = false;

  constructor(private readonly write: WriteLine) {}

  readonly ask: AskFn = (prompt, signal) => {
    // A turn already interrupted asks nothing: its abort will not fire again to withdraw the question.
    if (this.closed || signal?.aborted) return Promise.resolve('no');
    const requestId = `seek-perm-${this.next++}`;
    return new Promise<AskAnswer>((resolve) => {
      const onAbort = () => {
        // Claude Code's way of withdrawing a question: the program may stop asking its user.
        if (this.settle(requestId, { ok: false, error: 'the turn was interrupted' })) this.write({ type: 'control_cancel_request', request_id: requestId });
      };
      this.waiting.set(requestId, (answer) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(answerOf(answer, prompt.input));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.write({ type: 'control_request', request_id: requestId, request: canUseTool(prompt) });
    });
  };

  /** Delivers the program's answer; false when no question of that id is waiting. */
  settle(requestId: string, answer: Parameters<Settle>[0]): boolean {
    const settle = this.waiting.get(requestId);
    if (!settle) return false;
    this.waiting.delete(requestId);
    settle(answer);
    return true;
  }

  /** True for a question asked earlier and already settled (a late answer, ignored). */
  wasAsked(requestId: string): boolean {
    const match = /^seek-perm-(\d+)$/.exec(requestId);
    return match !== null && Number(match[1]) < this.next && !this.waiting.has(requestId);
  }

  /** stdin closed: the questions waiting now and later are answered no. */
  close(): void {
    this.closed = true;
    for (const id of [...this.waiting.keys()]) this.settle(id, { ok: false, error: 'stdin closed before the program answered' });
  }
}

function canUseTool(prompt: PermissionPrompt): Record<string, unknown> {
  return {
    subtype: 'can_use_tool',
    tool_name: prompt.tool,
    input: prompt.input ?? {},
    tool_use_id: prompt.callId,
    decision_reason: prompt.reason,
    description: prompt.action.summary,
    ...(prompt.action.paths.length > 0 ? { paths: prompt.action.paths } : {}),
    cwd: prompt.cwd,
    ...(prompt.subagent ? { agent_id: prompt.subagent.id } : {}),
  };
}

/** The program's answer as the gate's: allow → yes (or the edited arguments), deny → a no whose
 * message the model reads; anything else, an error answer included, is a no. */
function answerOf(answer: Parameters<Settle>[0], input: unknown): AskAnswer {
  if (!answer.ok) return 'no';
  const { behavior, updatedInput, message, interrupt } = answer.response;
  if (behavior === 'allow') {
    if (updatedInput === undefined || JSON.stringify(updatedInput) === JSON.stringify(input)) return 'yes';
    return { edited: updatedInput };
  }
  if (behavior !== 'deny') return 'no';
  if (interrupt === true) return { decline: 'stop' };
  return typeof message === 'string' && message.trim() !== '' ? { decline: 'stop', feedback: message } : 'no';
}
