import { useEffect, useState } from 'react';
import type { ElicitationAnswer, ElicitationRequest } from '../../mcp/elicitation.js';
import type { McpManager } from '../../mcp/manager.js';
import type { PlanDecision, PlanReviewRequest } from '../../orchestrator/review.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../policy/tool-gate.js';

/** Lets the session's permission gate reach the UI: the App installs `ask` while mounted. */
export interface PermissionBridge {
  /** `signal`: the call was cancelled (Esc, Ctrl+C): the question goes away, answered "no". */
  ask?: (request: PermissionRequest, signal?: AbortSignal) => Promise<AskAnswer>;
  /** A delegate_tasks plan to approve, edit or reject before it runs. */
  reviewPlan?: (request: PlanReviewRequest) => Promise<PlanDecision>;
}

export interface PendingPermission {
  request: PermissionRequest;
  resolve: (answer: AskAnswer) => void;
}

export interface PendingReview {
  request: PlanReviewRequest;
  resolve: (decision: PlanDecision) => void;
}

let nextElicitationId = 0;

export interface PendingElicitation {
  /** Tells two forms apart (each one is a fresh form, even with the same message). */
  id: number;
  request: ElicitationRequest;
  /** Answers the server and closes the form. */
  answer: (answer: ElicitationAnswer) => void;
}

/**
 * The questions the session asks through `bridge` (installed while mounted, removed after): the
 * permission question and the plan review waiting for an answer, and their setters (undefined
 * closes one). One permission question at a time: the gate serialises them.
 * Also the forms MCP servers ask the user to fill (elicitation), through the handler installed on
 * the session's `mcp` manager while mounted: they wait in order, the first is shown; one whose
 * call is cancelled goes away, answered "cancel".
 */
export function useQuestions(bridge: PermissionBridge, mcp?: Pick<McpManager, 'setElicitationHandler'>) {
  const [permission, setPermission] = useState<PendingPermission>();
  const [review, setReview] = useState<PendingReview>();
  const [elicitations, setElicitations] = useState<PendingElicitation[]>([]);
  useEffect(() => {
    if (!mcp) return;
    mcp.setElicitationHandler(
      (request, signal) =>
        new Promise<ElicitationAnswer>((resolve) => {
          let open = true;
          const pending: PendingElicitation = {
            id: (nextElicitationId += 1),
            request,
            answer: (answer) => {
              if (!open) return;
              open = false;
              setElicitations((list) => list.filter((entry) => entry !== pending));
              resolve(answer);
            },
          };
          if (signal.aborted) return resolve({ action: 'cancel' });
          signal.addEventListener('abort', () => pending.answer({ action: 'cancel' }), { once: true });
          setElicitations((list) => [...list, pending]);
        }),
    );
    return () => mcp.setElicitationHandler(undefined);
  }, [mcp]);
  useEffect(() => {
    bridge.ask = (request, signal) =>
      new Promise<AskAnswer>((resolve) => {
        setPermission({ request, resolve });
        signal?.addEventListener('abort', () => {
          setPermission((current) => (current?.request === request ? undefined : current));
          resolve('no');
        }, { once: true });
      });
    bridge.reviewPlan = (request) => new Promise<PlanDecision>((resolve) => setReview({ request, resolve }));
    return () => {
      bridge.ask = undefined;
      bridge.reviewPlan = undefined;
    };
  }, [bridge]);
  return { permission, setPermission, review, setReview, elicitation: elicitations[0] };
}
