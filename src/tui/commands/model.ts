import { MODEL_CATALOG, lookupModel } from '../../providers/catalog.js';
import type { SlashCommand } from './types.js';

/** `/model [NAME]`: shows or switches the model. The system prompt and tools stay the same; a new
 * model has its own prefix cache, so the first request after a switch is a cache miss. */
export const modelCommand: SlashCommand = {
  name: 'model',
  description: 'show or switch the model',
  usage: '[NAME]',
  args: (partial, { session }) =>
    MODEL_CATALOG.filter((model) => providerServes(session.provider, model.provider) && model.id.startsWith(partial)).map((model) => ({
      value: model.id,
      description: `${Math.round(model.contextWindow / 1000)}K window · $${model.pricing.inputMiss}/$${model.pricing.output} per M`,
    })),
  run(context, args) {
    const name = args.trim();
    if (!name) {
      const candidates = MODEL_CATALOG.filter((model) => providerServes(context.session.provider, model.provider));
      context.openPicker({
        title: `Model (now ${context.session.model})`,
        items: candidates.map((model) => ({ value: model.id, label: model.id, description: `${Math.round(model.contextWindow / 1000)}K window` })),
        onSelect: (value) => switchTo(value),
      });
      return;
    }
    switchTo(name);

    function switchTo(model: string) {
      context.session.setModel(model);
      const info = lookupModel(model);
      const known = MODEL_CATALOG.some((entry) => entry.id === info.id || model.startsWith(entry.id));
      context.notice(`model: ${model}${known ? '' : ' (not in the catalog: 128K window assumed, cost shown as $0)'}`);
    }
  },
};

function providerServes(provider: string, modelProvider: string): boolean {
  if (provider === 'openai-compatible') return true;
  return provider === modelProvider;
}
