/** Parameters shared by the memory tools (CONTRACT.md "Tools the model sees"). */
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { ActionRequest } from '../agent/types.js';

export const entryArgsSchema = lazySchema((z) =>
  z
    .object({
      name: z.string().describe('kebab-case'),
      tagline: z.string().describe('one specific sentence'),
      content: z.string().describe('what, why, rejected alternatives'),
      tags: z.array(z.string()).optional(),
      supersedes: z.string().optional().describe('entry this replaces (archived)'),
    })
    .strict(),
);

export type EntryArgs = z.infer<ReturnType<typeof entryArgsSchema>>;

/** A memory write for the permission policy: kind `memory`, no paths, the entry in the prompt. */
export function memoryAction(summary: string, detail: string): ActionRequest {
  return { kind: 'memory', paths: [], summary, preview: { kind: 'text', text: detail } };
}

export function errorResult(tool: string, message: string): { content: string; isError: true } {
  return { content: `${tool}: ${message}`, isError: true };
}
