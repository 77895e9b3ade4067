/** Checkpoints of the working tree as git objects, and rewinding to them (see README "Checkpoints and rewind"). */
export * from './repository.js';
export * from './snapshot.js';
export * from './record.js';
export * from './restore.js';
export * from './rewind.js';
export * from './turns.js';
export * from './session-rewind.js';
export * from './describe.js';
export * from './prune.js';
export * from './settings.js';
export type { UnrestorableFile } from './large-files.js';
