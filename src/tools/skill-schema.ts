/** The skill tool's name and parameters; the tool itself is extensions/skill-tool.ts (it reads the
 * skills extensions/ finds), and both the schema generator and the hook matchers need these here. */
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';

export const SKILL_TOOL_NAME = 'skill';

// No property description: every byte of this tool is in every request (the catalog says it all).
export const skillSchema = lazySchema((z) => z.object({ name: z.string() }).strict());
export type SkillArgs = z.infer<ReturnType<typeof skillSchema>>;
