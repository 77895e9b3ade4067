import { redact } from '../util/redact.js';
import type { SessionEvent } from './events.js';

/** `event` with the texts that may quote a URL or a provider's error (notices, retries, errors)
 * passed through util/redact.ts: no URL credentials, key-like query values or API keys. */
export function redactEvent(event: SessionEvent): SessionEvent {
  switch (event.type) {
    case 'notice':
      return { ...event, text: redact(event.text) };
    case 'retry':
      return { ...event, error: { ...event.error, message: redact(event.error.message) } };
    case 'error':
      return { ...event, error: { ...event.error, message: redact(event.error.message) } };
    case 'loop_end':
      return event.errorMessage ? { ...event, errorMessage: redact(event.errorMessage) } : event;
    case 'subagent_event': {
      const inner = redactEvent(event.event);
      return inner === event.event ? event : ({ ...event, event: inner } as SessionEvent);
    }
    default:
      return event;
  }
}
