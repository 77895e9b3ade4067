/**
 * Built-in modules that only some runs use, loaded at their first use. A static import loads its
 * module at every start, used or not, and these cost 0.5-2 ms each on a 2-core machine (https with
 * tls, worker_threads; bench/say-hello): a headless prompt to a local model server uses none.
 */
import { createRequire } from 'node:module';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type * as WorkerThreads from 'node:worker_threads';
import { lazy } from './lazy.js';

const requireBuiltin = createRequire(import.meta.url);

export const httpsModule = lazy(() => requireBuiltin('node:https') as typeof Https);
export const tlsModule = lazy(() => requireBuiltin('node:tls') as typeof Tls);
export const workerThreadsModule = lazy(() => requireBuiltin('node:worker_threads') as typeof WorkerThreads);
