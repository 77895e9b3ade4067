// Lint: type-aware basics, plus the architecture: the layer order and no import circles
// (eslint.architecture.js).
import tseslint from 'typescript-eslint';
import { architectureConfig } from './eslint.architecture.js';

export default tseslint.config(
  { ignores: ['test/fixtures/**', 'dist/**', 'node_modules/**', 'coverage/**', 'bin/**', 'bench/**/*.mjs', 'bench/**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  architectureConfig('src'),
  // zod's values come from src/util/zod.ts, which the CLI bundle loads at first use: a value import
  // of 'zod' would put its ~95 modules back on the start path. Types are free. Modules loaded only
  // on demand (hooks files, plans, MCP servers, the fleet) may import it.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/util/zod-loader.ts',
      'src/hooks/parse.ts',
      'src/hooks/audit.ts',
      'src/orchestrator/plan-file.ts',
      'src/mcp/call-tool.ts',
      'src/mcp/serve.ts',
      'src/mcp/search-tool.ts',
      'src/mcp/deferred.ts',
      'src/fleet/payload.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', allowTypeImports: true, message: 'Build schemas with lazySchema/zod() from src/util/zod.ts, so zod loads at first use, not at start-up.' }] },
      ],
    },
  },
  // Ink attaches a useInput handler after the frame is drawn, so a key in that gap meets the previous
  // render's handler; the terminal UI's key handlers go through useLatestInput, which cannot.
  {
    files: ['src/tui/**/*.{ts,tsx}'],
    ignores: ['src/tui/input/use-latest-input.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', allowTypeImports: true, message: 'Build schemas with lazySchema/zod() from src/util/zod.ts, so zod loads at first use, not at start-up.' },
            { name: 'ink', importNames: ['useInput'], message: 'Use useLatestInput (src/tui/input/use-latest-input.ts): Ink attaches a handler after the frame is drawn, so a key in that gap met the stale one.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
