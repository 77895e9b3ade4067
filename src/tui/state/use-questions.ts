import { useEffect, useState } from 'react';
import type { PlanDecision, PlanReviewRequest } from '../../orchestrator/review.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../runtime/tool-gate.js';

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

/**
 * The questions the session asks through `bridge` (installed while mounted, removed after): the
 * permission question and the plan review waiting for an answer, and their setters (undefined
 * closes one). One permission question at a time: the gate serialises them.
 */
export function useQuestions(bridge: PermissionBridge) {
  const [permission, setPermission] = useState<PendingPermission>();
  const [review, setReview] = useState<PendingReview>();
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
  return { permission, setPermission, review, setReview };
}
