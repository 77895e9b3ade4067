/** Paths, project identity and user configuration. */
export * from './paths.js';
export * from './config.js';
export * from './atomic-file.js';
