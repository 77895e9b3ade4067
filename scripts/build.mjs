// Builds dist/ for the `seek` binary: one esbuild pass over src/cli/main.ts, ESM with code
// splitting (subcommands, the terminal UI and provider SDKs stay lazy chunks). A bundle loads in
// less than half the time of ~400 separate modules (see bench/), which every `seek -p` pays.
// Type checking is `npm run typecheck`; this step only transpiles. All chunks land in dist/cli/,
// which src/util/version.ts relies on to find package.json. A failed build leaves the previous
// dist/ in place.
import { build } from 'esbuild';
import { renameSync, rmSync } from 'node:fs';

const staging = new URL('../dist/cli.next', import.meta.url);
const target = new URL('../dist/cli', import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli.next',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Ink loads React DevTools support only when DEV=true; it is not a dependency of ours.
  external: ['react-devtools-core'],
  // Some bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import { createRequire as __seekCreateRequire } from 'node:module'; const require = __seekCreateRequire(import.meta.url);" },
});
rmSync(target, { recursive: true, force: true });
renameSync(staging, target);
