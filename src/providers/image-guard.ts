/**
 * Images and models that cannot see. A model the catalog knows takes no images (DeepSeek's chat
 * models) is never sent one the user attached: the request stops here with a clear message, before
 * anything goes out (a tool's image is simply left out for it: the tool's text names it). A model
 * the catalog does not know is tried, and a 400 that speaks of images is explained.
 */
import { takesImages } from './catalog.js';
import type { AssistantMessage, ModelRequest, ProviderError, StreamEvent, StreamFn } from './types.js';

/** Whether any user message of the request carries an image. */
export function userImagesIn(request: ModelRequest): number {
  let count = 0;
  for (const message of request.messages) if (message.role === 'user') count += message.images?.length ?? 0;
  return count;
}

/** Whether any message of the request carries an image (a user's or a tool's). */
function anyImagesIn(request: ModelRequest): boolean {
  return request.messages.some((message) => message.role !== 'assistant' && (message.images?.length ?? 0) > 0);
}

/** The sentence that refuses images for `model`, or undefined when it may take them. */
export function imageRefusal(model: string): string | undefined {
  if (takesImages(model) !== false) return undefined;
  return `Model "${model}" cannot take images; nothing was sent. Remove the image, or pick a model that sees (for example --provider anthropic, or --provider openai --model gpt-5-mini).`;
}

/** Stops a request that holds a user's image for a model known to take none, before it is sent. */
export function withImageGuard(inner: StreamFn): StreamFn {
  return async function* guarded(request, signal): AsyncGenerator<StreamEvent> {
    const refusal = userImagesIn(request) > 0 ? imageRefusal(request.model) : undefined;
    if (!refusal) {
      yield* inner(request, signal);
      return;
    }
    const error: ProviderError = { kind: 'bad_request', message: refusal, summary: refusal, retryable: false };
    const message: AssistantMessage = { role: 'assistant', content: '', toolCalls: [], stopReason: 'error', model: request.model, errorMessage: refusal };
    yield { type: 'error', error, message };
  };
}

const ABOUT_IMAGES = /image|vision|multimodal|multi-modal|image_url|content.?part|unsupported content/i;

/** Advice for a rejected request that held images and whose error speaks of them. */
export function imageAdvice(error: ProviderError, request: ModelRequest): string | undefined {
  if (error.kind !== 'bad_request' || !anyImagesIn(request)) return undefined;
  if (!ABOUT_IMAGES.test(`${error.detail ?? ''} ${error.message}`)) return undefined;
  return `The request held an image and model "${request.model}" may not take images. Remove the image or pick a model that sees`;
}
