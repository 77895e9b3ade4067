/**
 * Vitest setup file: checks that every test file gets without asking for them.
 *
 * - An end-to-end file (under test/e2e/) fails at its start when this run's build of dist/
 *   failed (build.ts), rather than testing the previous build.
 * - After each test, every scripted model server still open must have seen only well-formed
 *   requests since the test began (or since the test's own `reset()`): a violation, such as a tool
 *   result that answers no call or a request after the script ran out, fails the test that caused
 *   it. Tests that provoke violations on purpose assert on them and `reset()` the server in their
 *   own afterEach, which runs before this one.
 * - The package's own node_modules/.bin (which npx and npm put on PATH) is taken off PATH, so the
 *   seek processes tests start find no language servers there (typescript-language-server, pyright;
 *   src/lsp would start them after every edit of a .ts or .py file). test/e2e/lsp.test.ts puts them
 *   back for its own runs.
 */
import { afterEach, beforeAll, expect, inject } from 'vitest';
import { ScriptedServer } from './scripted-server/index.js';

const E2E_DIR = new URL('../e2e/', import.meta.url).pathname;

process.env.PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.endsWith('/node_modules/.bin')).join(':');

beforeAll(() => {
  if (!expect.getState().testPath?.startsWith(E2E_DIR)) return;
  const failure = inject('seekBuildFailure');
  if (failure) throw new Error(`the build of dist/ failed, so the end-to-end tests cannot run seek:\n${failure}`);
});

afterEach(() => {
  const violations = ScriptedServer.openServers().flatMap((server) => server.takeNewViolations());
  if (violations.length > 0) {
    throw new Error(`the scripted model server saw ${violations.length} protocol violation(s):\n${violations.map((line) => `  - ${line}`).join('\n')}`);
  }
});
