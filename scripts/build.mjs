// Builds dist/ for the `seek` binary: one esbuild pass over src/cli/main.ts, ESM with code
// splitting (subcommands and provider SDKs stay lazy chunks). A bundle loads in less than half
// the time of ~400 separate modules (see bench/), which every `seek -p` pays. Type checking is
// `npm run typecheck`; this step only transpiles. All chunks land in dist/cli/, which
// src/util/version.ts relies on to find package.json.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Some bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import { createRequire as __seekCreateRequire } from 'node:module'; const require = __seekCreateRequire(import.meta.url);" },
});
