import { zod } from '../util/zod.js';

/**
 * An integer parameter with a lower bound and no upper bound in the JSON schema the model sees.
 * zod writes `"maximum": 9007199254740991` for every `.int()`; that costs ~27 bytes per field on
 * every request and tells the model nothing, so the metadata override drops it (JSON.stringify
 * omits undefined values). Validation still rejects non-integers and values below `min`; tools
 * clamp large values themselves. Call it inside a lazySchema builder (src/util/zod.ts).
 */
export function integerAtLeast(min: number) {
  return zod().number().int().min(min).meta({ maximum: undefined });
}
