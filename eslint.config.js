// Lint: type-aware basics plus the layer rule.
// Layers run one way: providers -> agent (the loop) -> services -> front ends -> cli.
// A folder may import only from its own layer and the layers before it; src/util is a shared leaf,
// and src/launch (the code-cache launcher) imports nothing of seek's.
import tseslint from 'typescript-eslint';

const SERVICES = ['tools', 'policy', 'sandbox', 'hooks', 'session', 'cost', 'config', 'runtime', 'subagents', 'worktree', 'memory', 'orchestrator', 'mcp', 'checkpoints', 'extensions', 'fleet', 'lsp'];
const FRONTENDS = ['frontends', 'tui', 'acp'];
const CLI = ['cli'];

/** Import patterns that reach into the given folders from anywhere under src/. */
const into = (folders) => folders.flatMap((f) => [`**/${f}/*`, `**/${f}/**`, `../${f}`, `./${f}`]);

const layerRule = (forbidden, layer) => ({
  files: layer.map((f) => `src/${f}/**/*.{ts,tsx}`),
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: into(forbidden),
            message: 'Layer rule: providers -> agent -> services -> front ends -> cli. This import points the wrong way.',
          },
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bin/**', 'bench/**/*.mjs', 'bench/**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  layerRule(['agent', ...SERVICES, ...FRONTENDS, ...CLI], ['providers']),
  layerRule([...SERVICES, ...FRONTENDS, ...CLI], ['agent']),
  layerRule([...FRONTENDS, ...CLI], SERVICES),
  layerRule([...CLI], FRONTENDS),
  layerRule(['agent', 'providers', ...SERVICES, ...FRONTENDS, ...CLI], ['util']),
  // The launcher (bin/seek.js -> dist/launch.js) runs before the CLI bundle and is built on its own.
  layerRule(['agent', 'providers', 'util', ...SERVICES, ...FRONTENDS, ...CLI], ['launch']),
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
  {
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
