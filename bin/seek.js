#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built by `npm install` through the prepare script).
// seek exits when main() resolves, even if a stray handle (an idle stdin pipe, a timer) is left.
import('../dist/cli/main.js').then(async (m) => {
  await m.main(process.argv.slice(2));
  process.exit(process.exitCode ?? 0);
});
