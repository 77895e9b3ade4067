/**
 * Request checks: the structural rules the real APIs enforce with a 400, recorded as human-readable
 * violations so that a test can assert the client never sends a request a real provider would reject.
 */
import { isRecord } from './canonical.js';

export function checkOpenAIRequest(body: unknown): string[] {
  if (!isRecord(body)) return ['openai: request body is not a JSON object'];
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return ['openai: messages must be a non-empty array'];
  const violations: string[] = [];
  let callsOfNearestAssistant: Set<string> | undefined;
  let nearestAssistantIndex = -1;
  const unanswered = new Set<string>();
  const answered = new Set<string>();

  messages.forEach((message: unknown, i) => {
    if (!isRecord(message)) {
      violations.push(`openai: messages[${i}] is not an object`);
      return;
    }
    const role = String(message['role']);
    if (role === 'tool') {
      const id = String(message['tool_call_id']);
      if (callsOfNearestAssistant === undefined) {
        violations.push(`openai: messages[${i}] answers tool call ${id} but no assistant message precedes it`);
      } else if (!callsOfNearestAssistant.has(id)) {
        violations.push(
          `openai: messages[${i}] answers tool call ${id}, which is not a tool call of the nearest preceding assistant message (messages[${nearestAssistantIndex}])`,
        );
      } else if (answered.has(id)) {
        violations.push(`openai: messages[${i}] answers tool call ${id} a second time`);
      }
      answered.add(id);
      unanswered.delete(id);
      return;
    }
    if (unanswered.size > 0) {
      violations.push(
        `openai: tool call(s) ${[...unanswered].join(', ')} of messages[${nearestAssistantIndex}] not answered before messages[${i}] (${role})`,
      );
      unanswered.clear();
    }
    if (role === 'assistant') {
      const ids = toolCallIds(message['tool_calls']);
      callsOfNearestAssistant = new Set(ids);
      nearestAssistantIndex = i;
      answered.clear();
      for (const id of ids) unanswered.add(id);
      if (isEmptyContent(message['content']) && ids.length === 0) {
        violations.push(`openai: messages[${i}] (assistant) has neither content nor tool calls`);
      }
    } else if (role === 'user' || role === 'system') {
      if (isEmptyContent(message['content'])) violations.push(`openai: messages[${i}] (${role}) has empty content`);
    } else {
      violations.push(`openai: messages[${i}] has unknown role ${JSON.stringify(message['role'])}`);
    }
  });
  if (unanswered.size > 0) {
    violations.push(
      `openai: tool call(s) ${[...unanswered].join(', ')} of messages[${nearestAssistantIndex}] never answered`,
    );
  }
  return violations;
}

export function checkAnthropicRequest(body: unknown): string[] {
  if (!isRecord(body)) return ['anthropic: request body is not a JSON object'];
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return ['anthropic: messages must be a non-empty array'];
  const violations: string[] = [];
  let expectedResults: string[] = [];
  let expectedFrom = -1;

  messages.forEach((message: unknown, i) => {
    if (!isRecord(message)) {
      violations.push(`anthropic: messages[${i}] is not an object`);
      return;
    }
    const role = String(message['role']);
    const blocks = contentBlocks(message['content']);
    if (isEmptyContent(message['content'])) violations.push(`anthropic: messages[${i}] (${role}) has empty content`);
    blocks.forEach((block, b) => {
      if (block['type'] === 'text' && block['text'] === '') {
        violations.push(`anthropic: messages[${i}].content[${b}] is an empty text block`);
      }
    });
    const results = blocks.filter((block) => block['type'] === 'tool_result');
    const resultIds = results.map((block) => String(block['tool_use_id']));
    for (const id of resultIds) {
      if (!expectedResults.includes(id)) {
        violations.push(
          `anthropic: messages[${i}] has a tool_result for ${id}, which is not a tool_use of the immediately preceding assistant message`,
        );
      }
    }
    const firstOther = blocks.findIndex((block) => block['type'] !== 'tool_result');
    if (results.length > 0 && firstOther !== -1 && blocks.slice(firstOther).some((block) => block['type'] === 'tool_result')) {
      violations.push(`anthropic: messages[${i}] has content before some of its tool_result blocks`);
    }
    const missing = expectedResults.filter((id) => !resultIds.includes(id));
    if (missing.length > 0) {
      violations.push(
        `anthropic: tool_use ${missing.join(', ')} of messages[${expectedFrom}] has no tool_result in the next message (messages[${i}], ${role})`,
      );
    }
    if (role === 'assistant') {
      expectedResults = blocks.filter((block) => block['type'] === 'tool_use').map((block) => String(block['id']));
      expectedFrom = i;
    } else {
      expectedResults = [];
      if (role !== 'user') violations.push(`anthropic: messages[${i}] has unknown role ${JSON.stringify(message['role'])}`);
    }
  });
  if (expectedResults.length > 0) {
    violations.push(`anthropic: tool_use ${expectedResults.join(', ')} of messages[${expectedFrom}] never answered`);
  }
  return violations;
}

function toolCallIds(toolCalls: unknown): string[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.map((call: unknown) => (isRecord(call) ? String(call['id']) : 'undefined'));
}

function contentBlocks(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function isEmptyContent(content: unknown): boolean {
  if (content === undefined || content === null) return true;
  if (typeof content === 'string') return content.length === 0;
  if (Array.isArray(content)) return content.length === 0;
  return false;
}
