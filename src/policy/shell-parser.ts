/**
 * The bash grammar, loaded on demand: tree-sitter-bash's WebAssembly build through web-tree-sitter,
 * both read from node_modules (never the network). Loading compiles two WebAssembly modules (the
 * runtime, ~0.2 MB, and the grammar, ~1.4 MB), which is why nothing here runs at start-up: a
 * session loads it the first time a permission rule has to judge a command (see
 * `commandRulesReady` in shell-commands.ts). Once loaded, parsing is synchronous, so the policy's
 * decisions stay synchronous too.
 *
 * The packages are required at run time through `createRequire`, not imported: the CLI bundles
 * (scripts/build.mjs) do not take them in, so their code and wasm files are found where npm put
 * them, from the sources and from dist/ alike.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';

export type { SyntaxNode };

type WebTreeSitter = typeof import('web-tree-sitter');

let parser: TreeSitterParser | undefined;
let loading: Promise<void> | undefined;
let failure: Error | undefined;

/** Loads the grammar once per process; later calls return the same promise. Rejects (every time)
 * when the packages are missing or broken; a policy then judges commands as unreadable. */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    try {
      const load = createRequire(import.meta.url);
      const treeSitter = load('web-tree-sitter') as WebTreeSitter;
      const wasmBinary = readFileSync(load.resolve('web-tree-sitter/web-tree-sitter.wasm'));
      await treeSitter.Parser.init({ wasmBinary });
      const bash = await treeSitter.Language.load(readFileSync(load.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
      const created = new treeSitter.Parser();
      created.setLanguage(bash);
      parser = created;
    } catch (error) {
      failure = new Error(`the bash grammar (web-tree-sitter, tree-sitter-bash) could not be loaded: ${(error as Error).message}`);
      throw failure;
    }
  })();
  return loading;
}

export function shellParserLoaded(): boolean {
  return parser !== undefined;
}

/** Why the grammar is not available (not loaded yet, or failed to load). */
export function shellParserProblem(): string {
  return failure?.message ?? 'the bash grammar is not loaded';
}

/**
 * Parses `source` and hands the root node to `use`; the tree is freed afterwards (it lives in the
 * WebAssembly heap). Undefined when the grammar is not loaded.
 */
export function withShellTree<T>(source: string, use: (root: SyntaxNode) => T): T | undefined {
  if (!parser) return undefined;
  const tree = parser.parse(source);
  if (!tree) return undefined;
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
