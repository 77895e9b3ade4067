// Vendor chunks: large dependencies that most runs never load, built as scripts of their own
// (dist/cli/chunks/<name>.cjs) instead of into the CLI bundles. A start reads, decodes and hashes
// the whole of its script; zod, the Anthropic SDK, the MCP SDK (with ajv) and yaml were 2.3 MB of
// the headless build's 3.6 MB, loaded by no `seek -p "say hello"` on DeepSeek (bench/say-hello).
//
// The contract, shared with the launcher (src/launch/chunks.ts):
// - In a bundle, an import of a listed package (or of one of its subpaths) becomes
//   `require("seek-chunk:<chunk>:<specifier>")`, reached through a small module of the bundle's
//   own (below) so that default and named imports mean what they mean in an ES module.
// - A chunk is a CommonJS function expression like the CLI scripts: its module.exports maps each
//   specifier the bundles ask for to a function that initialises that module and returns it. Its
//   modules initialise at their first use, not when the chunk loads.
// - The launcher compiles a chunk at its first use with a V8 code cache of its own, and gives the
//   chunk the same chunk-aware `require`, so every package exists once in a process: a chunk that
//   uses another chunk's package (the MCP SDK uses zod) asks for it the same way.
// - scripts/build.mjs fails the build if a package ends up in two outputs.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Built in this order: a chunk may use the packages of the chunks after it, never before it. */
export const VENDOR_CHUNKS = [
  // web_fetch's HTML to Markdown (src/web/html-markdown.ts): loaded at the first page converted.
  { name: 'web', packages: ['@mozilla/readability', 'linkedom', 'turndown'] },
  // Language servers' JSON-RPC (src/lsp/server.ts): loaded when the first language server starts.
  { name: 'lsp', packages: ['vscode-languageserver-protocol', 'vscode-jsonrpc', 'vscode-languageserver-types'] },
  { name: 'anthropic', packages: ['@anthropic-ai/sdk'] },
  { name: 'mcp', packages: ['@modelcontextprotocol/sdk'] },
  { name: 'yaml', packages: ['yaml'] },
  { name: 'zod', packages: ['zod', 'zod-to-json-schema'] },
];

export const CHUNK_REQUEST_PREFIX = 'seek-chunk:';

export const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const chunkOfPackage = new Map(VENDOR_CHUNKS.flatMap((chunk) => chunk.packages.map((name) => [name, chunk.name])));

/**
 * Sends imports of the chunks' packages to their chunk. `wanted` (chunk name -> Set of specifiers)
 * collects what this build asks of each chunk; `own` is the chunk being built, whose packages are
 * bundled. The module between the importer and the chunk is an ES module outside any package, so
 * esbuild's interop takes `default` from an ES module's default export (seek's sources are
 * "type": "module", where a default import of a required module would be its whole exports).
 */
export function vendorChunks(wanted, own) {
  return {
    name: 'vendor-chunks',
    setup(b) {
      b.onResolve({ filter: /^[@a-z]/ }, (args) => {
        const chunk = chunkOfPackage.get(packageOf(args.path));
        if (chunk === undefined || chunk === own) return undefined;
        if (!wanted.has(chunk)) throw new Error(`vendor-chunks: ${args.path} (chunk ${chunk}) is used from ${own ?? 'the CLI'}, which is built after it: reorder VENDOR_CHUNKS`);
        wanted.get(chunk).add(args.path);
        return { path: `${chunk}:${args.path}`, namespace: 'vendor-chunk' };
      });
      b.onResolve({ filter: /^seek-chunk:/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'vendor-chunk' }, (args) => {
        const request = JSON.stringify(`${CHUNK_REQUEST_PREFIX}${args.path}`);
        return {
          contents: [
            `const loaded = require(${request});`,
            `export * from ${request};`,
            "export default loaded !== null && typeof loaded === 'object' && loaded.__esModule && 'default' in loaded ? loaded.default : loaded;",
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/** The entry of a chunk: each specifier the builds asked for, as a function that loads it. */
function chunkEntry(specifiers) {
  const lines = [...specifiers].sort().map((specifier) => `  ${JSON.stringify(specifier)}: () => require(${JSON.stringify(specifier)}),`);
  return `module.exports = {\n${lines.join('\n')}\n};\n`;
}

/**
 * Builds every chunk into `${outdir}/<name>.cjs` with `options` (the CLI bundles' esbuild options
 * but their entry point and output), once the CLI bundles have filled `wanted`. Returns esbuild's
 * results, metafiles included.
 */
export async function buildVendorChunks(wanted, outdir, options) {
  const results = [];
  for (const chunk of VENDOR_CHUNKS) {
    const specifiers = wanted.get(chunk.name);
    wanted.delete(chunk.name); // from here on, a chunk asking for this one fails the build (vendorChunks)
    if (specifiers.size === 0) throw new Error(`vendor-chunks: nothing uses the ${chunk.name} chunk: take it out of VENDOR_CHUNKS`);
    results.push(
      await build({
        ...options,
        stdin: { contents: chunkEntry(specifiers), resolveDir: ROOT, sourcefile: `chunks/${chunk.name}.cjs`, loader: 'js' },
        outfile: `${outdir}/${chunk.name}.cjs`,
        plugins: [vendorChunks(wanted, chunk.name), ...options.plugins],
      }),
    );
  }
  return results;
}

/** Chunk name -> the specifiers asked of it, filled by the builds that use vendorChunks. */
export function emptyWants() {
  return new Map(VENDOR_CHUNKS.map((chunk) => [chunk.name, new Set()]));
}
