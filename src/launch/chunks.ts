/**
 * The `require` a CLI script and its vendor chunks run with. Large dependencies that most runs
 * never load (zod, the Anthropic SDK, the MCP SDK, yaml) are not in the CLI scripts but in chunks
 * of their own, dist/cli/chunks/<name>.cjs (scripts/vendor-chunks.mjs builds them), and the
 * scripts ask for them as `require("seek-chunk:<chunk>:<specifier>")`.
 *
 * Contract:
 * - A chunk is compiled at its first request, through the same V8 code cache as the CLI scripts
 *   (the `compile` function given), and run once per process; its module.exports maps each
 *   specifier to a function that initialises that module and returns it.
 * - Every other request goes to Node's require, resolved from the CLI script's folder.
 * - A chunk that is missing, or lacks the module asked for, is a broken install or build: the
 *   error says which file and what to do, never a wrong module.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What a script (dist/cli/*.cjs or a chunk) evaluates to: the CommonJS module wrapper around it. */
export type ModuleWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** A script compiled for this process (see code-cache.ts). */
export interface CompiledScript {
  wrapper: ModuleWrapper;
}

const CHUNK_REQUEST = /^seek-chunk:([a-z0-9]+):(.+)$/;

/** The folder of a CLI script's vendor chunks. */
export function chunkFolder(scriptPath: string): string {
  return join(dirname(scriptPath), 'chunks');
}

/** A `require` for the CLI script at `scriptPath` and for the chunks it loads. `compile` compiles
 * a chunk's file (and remembers it, to write its code cache after the run). */
export function chunkAwareRequire(scriptPath: string, compile: (path: string) => CompiledScript): NodeJS.Require {
  const nodeRequire = createRequire(scriptPath);
  const chunks = new Map<string, Record<string, unknown>>();

  const loadChunk = (name: string): Record<string, unknown> => {
    const path = join(chunkFolder(scriptPath), `${name}.cjs`);
    let compiled: CompiledScript;
    try {
      compiled = compile(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `cannot be loaded (${error instanceof Error ? error.message : String(error)})`;
      throw new Error(`seek's file ${path} ${reason}: reinstall seek (or run \`npm run build\` in its checkout)`, { cause: error });
    }
    const module = { exports: {} };
    compiled.wrapper.call(module.exports, module.exports, bundleRequire, module, path, dirname(path));
    const loaded = module.exports as Record<string, unknown>;
    chunks.set(name, loaded);
    return loaded;
  };

  const bundleRequire = ((id: string): unknown => {
    const request = CHUNK_REQUEST.exec(id);
    if (request === null) return nodeRequire(id);
    const [, name, specifier] = request as unknown as [string, string, string];
    const chunk = chunks.get(name) ?? loadChunk(name);
    const load = chunk[specifier];
    if (typeof load !== 'function') {
      throw new Error(`seek's file ${join(chunkFolder(scriptPath), `${name}.cjs`)} has no module ${specifier}: it is from another build; reinstall seek (or run \`npm run build\`)`);
    }
    return (load as () => unknown)();
  }) as NodeJS.Require;
  return Object.assign(bundleRequire, { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions });
}
