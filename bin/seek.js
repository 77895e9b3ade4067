#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built by `npm install` through the prepare script).
// dist/launch.js runs the CLI bundle through a V8 code cache (src/launch/code-cache.ts).
// seek exits when main() resolves, even if a stray handle (an idle stdin pipe, a timer) is left.
import { launch } from '../dist/launch.js';

await launch(new URL('../dist/cli/main.cjs', import.meta.url).pathname, process.argv.slice(2));
process.exit(process.exitCode ?? 0);
