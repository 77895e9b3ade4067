/** Session persistence: append-only JSONL transcripts (see format.ts for the file format). */
export * from './format.js';
export * from './reader.js';
export * from './writer.js';
export * from './list.js';
export * from './repair.js';
export * from './lock.js';
export * from './resume.js';
