import type { AgentContext, CreateElicitationRequest } from '@agentclientprotocol/sdk';
import type { ElicitationHandler } from '../mcp/index.js';

/**
 * An MCP server's form question (elicitation, form mode) forwarded to the editor as ACP's
 * `elicitation/create`, for a client that advertised `elicitation.form`: the server's name and
 * message, its requested schema as it is (ACP takes the same restricted JSON Schema), scoped to
 * the session (stdio carries no link from a question to the call that caused it). The editor's
 * accept / decline / cancel goes back to the server; a question whose call is cancelled is
 * withdrawn (the request is cancelled) and answers "cancel". A client that fails the request
 * declines it.
 */
export function editorElicitation(client: AgentContext, sessionId: string): ElicitationHandler {
  return async (request, signal) => {
    const params = {
      sessionId,
      mode: 'form',
      message: `${request.server}: ${request.message}`,
      requestedSchema: request.requestedSchema,
    } as CreateElicitationRequest;
    try {
      const response = await client.request('elicitation/create', params, { cancellationSignal: signal });
      if (response.action === 'accept') return { action: 'accept', content: (response.content ?? {}) as Record<string, string | number | boolean | string[]> };
      return { action: response.action === 'cancel' ? 'cancel' : 'decline' };
    } catch {
      return { action: signal.aborted ? 'cancel' : 'decline' };
    }
  };
}
