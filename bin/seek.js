#!/usr/bin/env node
// Thin launcher, CommonJS (bin/package.json) because Node starts a CommonJS entry a few ms sooner
// than an ES module one. Everything lives in dist/ (built by `npm install` through the prepare
// script): dist/launch.cjs runs the CLI bundle through a V8 code cache (src/launch/code-cache.ts).
// seek exits when main() resolves, even if a stray handle (an idle stdin pipe, a timer) is left.
'use strict';
const { join } = require('node:path');
const { launch } = require('../dist/launch.cjs');

const dist = join(__dirname, '..', 'dist');
launch({ full: join(dist, 'cli', 'main.cjs'), headless: join(dist, 'cli', 'headless.cjs') }, process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    process.stderr.write(`seek: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
