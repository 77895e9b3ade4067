#!/usr/bin/env node
// Thin launcher: everything lives in dist/ (built by `npm install` through the prepare script).
// seek exits when main() resolves, even if a stray handle (an idle stdin pipe, a timer) is left.
import module from 'node:module';

// Node 22.1+ keeps V8's compiled code of the bundle on disk (invalidated by content and Node
// version), so later starts skip most parsing; Node 20 has no cache for ES modules and skips this.
module.enableCompileCache?.();

import('../dist/cli/main.js').then(async (m) => {
  await m.main(process.argv.slice(2));
  process.exit(process.exitCode ?? 0);
});
