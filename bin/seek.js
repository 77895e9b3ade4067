#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built by `npm install` through the prepare script).
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2)));
