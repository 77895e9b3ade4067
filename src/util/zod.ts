/**
 * zod, reached at first use instead of at start-up. Importing `z` from 'zod' initialises zod's
 * ~95 modules (and any schema built at module level) before seek's first request, although a
 * plain run validates nothing until a tool call or a config file: modules import zod's types only
 * (`import type { z } from 'zod'`) and get its values here, at the first call.
 *
 * From source (tests, tsx) `zod()` returns the static import (zod-loader.ts); the CLI bundles
 * replace that loader (scripts/build.mjs, lazyZod) so zod initialises at the first call. Either
 * way it is the one copy of zod in the process. A module that imports 'zod' for values puts zod
 * back on the start path of every module graph that reaches it.
 */
import type { z } from 'zod';
import { lazy } from './lazy.js';
import { zod } from './zod-loader.js';

export { zod };

/** A schema built at its first use: `const schema = lazySchema((z) => z.object({...}))`, then
 * `schema().safeParse(value)` and `z.infer<ReturnType<typeof schema>>`. */
export function lazySchema<T>(build: (zodNamespace: typeof z) => T): () => T {
  return lazy(() => build(zod()));
}
