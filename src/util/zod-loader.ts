/**
 * `zod()`: zod's `z` namespace. This source form imports it statically (tests, tsx); the CLI
 * bundles replace this file (scripts/build.mjs, lazyZod) with one that initialises zod at the
 * first call of `zod()`. Keep the export's name and type; use src/util/zod.ts, not this file.
 */
import { z } from 'zod';

export function zod(): typeof z {
  return z;
}
