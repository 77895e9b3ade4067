import type { AgentContext, PermissionOption, RequestPermissionRequest, ToolCallContent } from '@agentclientprotocol/sdk';
import { approvalView } from '../frontends/approval.js';
import { describePlan, specsOf, type ReviewPlanFn } from '../orchestrator/review.js';
import type { AskAnswer, AskFn, PermissionPrompt } from '../policy/tool-gate.js';
import { diffContent, textContent, toolKind } from './tool-calls.js';
import { childCallId } from './updates.js';

/** The three answers an editor offers; "always" adds the suggested rule for the session, as the
 * terminal's [a]lways does (saving it to a config file is left to `seek permissions`). */
const OPTIONS: Record<string, { kind: PermissionOption['kind']; answer: AskAnswer }> = {
  allow: { kind: 'allow_once', answer: 'yes' },
  always: { kind: 'allow_always', answer: 'always' },
  reject: { kind: 'reject_once', answer: 'no' },
};

/**
 * seek's permission prompts as `session/request_permission`: the policy decides as in every front
 * end, and what it would ask a person is asked of the editor, about the tool call the session
 * already announced (same id; a subagent's under its sub-sid). Allow runs the call once, Always
 * adds the rule the prompt names for the rest of the session, Reject declines it (the model is told
 * and carries on). A cancelled request (the turn was cancelled) is a no.
 */
export function editorAsk(client: AgentContext, sessionId: () => string | undefined): AskFn {
  return async (prompt, signal) => {
    const id = sessionId();
    if (id === undefined) return 'no';
    const view = approvalView(prompt);
    const options: PermissionOption[] = [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'always', name: `Always allow ${view.rule ?? 'this'} (this session)`, kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ];
    const toolCallId = prompt.subagent ? childCallId(prompt.subagent.id, prompt.callId) : prompt.callId;
    const params: RequestPermissionRequest = {
      sessionId: id,
      toolCall: {
        toolCallId,
        title: `${view.asker ? `${view.asker} ` : ''}${view.title}`,
        kind: toolKind(prompt.tool),
        status: 'pending',
        content: promptContent(prompt, view),
        ...(prompt.action.kind !== 'bash' && prompt.action.kind !== 'git' ? { locations: prompt.action.paths.map((path) => ({ path })) } : {}),
      },
      options,
    };
    const response = await client.request('session/request_permission', params, signal ? { cancellationSignal: signal } : {});
    const outcome = response.outcome;
    if (outcome.outcome !== 'selected') return 'no';
    return OPTIONS[outcome.optionId]?.answer ?? 'no';
  };
}

/** What the editor shows with the question: a write's diff, or the command, its directory, the
 * paths and the reason, each escaped as in the terminal. */
function promptContent(prompt: PermissionPrompt, view: ReturnType<typeof approvalView>): ToolCallContent[] {
  const created = prompt.action.summary.startsWith('create ');
  const diffs = diffContent(prompt.action.paths[0] ?? '', prompt.action.preview, created);
  const lines = [
    ...(view.reason ? [view.reason] : []),
    ...(view.tree ? [view.tree] : []),
    ...(view.command ?? []).map((line, index) => `${index === 0 ? '$' : '>'} ${line}`),
    ...(view.cwd !== undefined ? [`in ${view.cwd}`] : []),
    ...(diffs.length === 0 ? view.paths.map((path) => `path: ${path}`) : []),
    ...view.notes.map((note) => `! ${note}`),
    ...(diffs.length === 0 && view.preview ? view.preview.lines : []),
  ];
  return [...diffs, ...(lines.length > 0 ? [textContent(lines.join('\n'))] : [])];
}

/**
 * The delegate_tasks plan review (ask mode) as a permission request about the delegate_tasks call
 * itself: the plan as text, Run or Reject. Editing the plan (dropping tasks, changing roles) is the
 * terminal's; an editor runs it as proposed or rejects it.
 */
export function editorPlanReview(client: AgentContext, sessionId: () => string | undefined, callId: () => string | undefined): ReviewPlanFn {
  return async (request, signal) => {
    const id = sessionId();
    const toolCallId = callId();
    if (id === undefined || toolCallId === undefined) return { kind: 'reject', reason: 'no editor to ask' };
    const params: RequestPermissionRequest = {
      sessionId: id,
      toolCall: { toolCallId, title: `Run this plan of ${request.plan.tasks.length} task${request.plan.tasks.length === 1 ? '' : 's'}?`, kind: 'think', status: 'pending', content: [textContent(describePlan(request).join('\n'))] },
      options: [
        { optionId: 'run', name: 'Run the plan', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    };
    const response = await client.request('session/request_permission', params, { cancellationSignal: signal });
    const outcome = response.outcome;
    if (outcome.outcome === 'selected' && outcome.optionId === 'run') return { kind: 'run', tasks: specsOf(request.plan) };
    return { kind: 'reject', reason: 'the user rejected the plan in the editor' };
  };
}
