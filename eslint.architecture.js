// The architecture rules, apart so a test can apply them to a fixture tree (test/unit/lint/).
//
// Layers run one way: providers -> agent (the loop) -> services -> front ends -> cli. Inside the
// services the rooms are ordered too, lowest first; a folder may import only from folders before it
// in LAYER_ORDER (and from itself). `src/util` is the shared leaf, and `src/launch` (the code-cache
// launcher) imports nothing of seek's. The rule covers every way one module reaches another:
// static imports (type-only ones too), `export … from`, and dynamic `import()`.
// Import circles fail as well (import-x/no-cycle; type-only imports are not circles at run time,
// and test/unit/lint/architecture.test.ts keeps those at zero as well).
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

export const LAYER_ORDER = [
  'util',
  'providers',
  'agent',
  // services, lowest first
  'sandbox', 'web', 'images', 'config', 'cost', 'session', 'worktree', 'memory', 'checkpoints', 'tools', 'lsp', 'hooks',
  'policy', 'extensions', 'mcp', 'subagents', 'orchestrator',
  'runtime', // the composition root: builds sessions from the rooms above
  'fleet', // runs sessions on queues
  // front ends
  'frontends', 'tui', 'acp',
  'cli',
];

/** Folders outside the order, importing nothing of seek's: the launcher (the CLI may import it) and
 * the SDK (seek-agent/sdk, a client of the seek process, built on its own into dist/sdk/). */
export const ISOLATED = ['launch', 'sdk'];

function zones(base) {
  const ordered = LAYER_ORDER.map((folder, index) => ({
    target: `./${base}/${folder}`,
    from: LAYER_ORDER.slice(index + 1).map((higher) => `./${base}/${higher}`),
    message: `Layer rule: ${folder}/ sits below these folders (LAYER_ORDER in eslint.architecture.js); this import points back up.`,
  }));
  const isolated = ISOLATED.map((folder) => ({
    target: `./${base}/${folder}`,
    from: [...LAYER_ORDER, ...ISOLATED.filter((other) => other !== folder)].map((other) => `./${base}/${other}`),
    message: `${folder}/ is built on its own and imports nothing of seek's.`,
  }));
  return [...ordered.filter((zone) => zone.from.length > 0), ...isolated];
}

/** The layer and circle rules for the TypeScript files under `base` (a folder of the repository). */
export function architectureConfig(base = 'src') {
  return {
    files: [`${base}/**/*.{ts,tsx}`],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: zones(base) }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  };
}
