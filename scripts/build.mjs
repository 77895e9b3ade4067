// Builds dist/ for the `seek` binary in several esbuild passes, into a staging folder that replaces
// dist/ only when all succeeded (a failed build leaves the previous dist/ in place):
//
// - dist/cli/main.cjs: the whole CLI from src/cli/main.ts, terminal UI included, as one CommonJS
//   function expression (the module wrapper), which src/launch/code-cache.ts compiles with a V8
//   code cache. One script with a cache loads several times faster than ES module chunks, which
//   Node 20 cannot cache (bench/say-hello). Modules loaded on demand stay uninitialised until used.
//   Dependencies that ship CommonJS are bundled from it (commonJsBuilds: nothing of theirs runs
//   until used), the provider SDKs are kept off undici (sdkWebShims) and Ink's layout engine off
//   top-level await (yogaWithoutTopLevelAwait), and zod loads at its first use (lazyZod).
// - dist/cli/headless.cjs: the same CLI without the terminal UI and the subcommands (headlessOnly),
//   for `seek -p` runs (src/launch/route.ts decides): a script's size is start time.
// - dist/cli/chunks/<name>.cjs: large dependencies most runs never load (zod, the Anthropic and MCP
//   SDKs, yaml), out of both scripts and loaded at first use (scripts/vendor-chunks.mjs).
// - dist/cli/web-worker.cjs: web_fetch's HTML to Markdown in a worker thread (src/web/convert-worker.ts).
// - dist/launch.cjs: the launcher itself (src/launch/), which bin/seek.js requires.
//
// Type checking is `npm run typecheck`; this step only transpiles. The version is written into the
// bundle, so it never reads package.json at start.
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { buildVendorChunks, emptyWants, packageOf, vendorChunks } from './vendor-chunks.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const staging = 'dist.next';
rmSync(staging, { recursive: true, force: true });

/** src/util/version.ts reads package.json when run from source; bundles get the version inline. */
const inlineVersion = {
  name: 'inline-version',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]util[/\\]version\.ts$/ }, () => ({
      contents: `export const SEEK_VERSION = ${JSON.stringify(version)};`,
      loader: 'ts',
    }));
  },
};

/** In the bundles zod initialises at the first call of `zod()` (src/util/zod.ts), not at start: the
 * loader becomes a require() of zod, which lives in a vendor chunk (scripts/vendor-chunks.mjs)
 * that the launcher loads at that call. */
const lazyZod = {
  name: 'lazy-zod',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]util[/\\]zod-loader\.ts$/ }, (args) => ({
      contents: "export function zod() { return require('zod').z; }",
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/** Ink's layout engine (yoga-layout) loads its WebAssembly with top-level await, which CommonJS
 * cannot express: in main.cjs, `yoga-layout` is the same engine from `yoga-layout/load`, the
 * package's entry for that case, loaded when the terminal UI's modules initialise, and
 * src/tui/layout-engine.ts resolves once it has (the UI awaits it before its first render). */
const YOGA_SHIM = `
import { loadYoga } from 'yoga-layout/load';
export * from 'yoga-layout/load';
let engine;
export const yogaLoaded = loadYoga().then((loaded) => { engine = loaded; });
export default new Proxy({}, {
  get(_target, key) {
    if (engine === undefined) throw new Error('internal: the layout engine (yoga) was used before it loaded');
    return engine[key];
  },
});
`;
/** Ink's reconciler awaits at top level only when DEV=true (React DevTools, through
 * react-devtools-core, which seek does not ship): in main.cjs those two branches are left out. The
 * build fails if Ink's text changes, so this cannot go stale silently. */
const INK_DEV_ONLY = [
  ["await import('./devtools.js');", "throw Object.assign(new Error('React DevTools are not part of seek'), { code: 'ERR_MODULE_NOT_FOUND' });"],
  ['? await loadPackageJson()', "? { name: 'ink', version: undefined }"],
];

const yogaWithoutTopLevelAwait = {
  name: 'yoga-without-top-level-await',
  setup(b) {
    b.onLoad({ filter: /[/\\]node_modules[/\\]ink[/\\]build[/\\]reconciler\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const [from, to] of INK_DEV_ONLY) {
        if (source.split(from).length !== 2) throw new Error(`${args.path}: expected "${from}" once (Ink changed: update scripts/build.mjs)`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
    b.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: 'yoga-layout', namespace: 'yoga-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'yoga-shim' }, () => ({ contents: YOGA_SHIM, loader: 'js', resolveDir: process.cwd() }));
    b.onLoad({ filter: /[/\\]src[/\\]tui[/\\]layout-engine\.ts$/ }, () => ({
      contents: "import { yogaLoaded } from 'yoga-layout';\nexport const layoutEngineReady = () => yogaLoaded;\n",
      loader: 'ts',
      resolveDir: process.cwd(),
    }));
  },
};

/** The provider SDKs' uses of the global Headers, FormData and ReadableStream point to
 * src/providers/web-shims.ts: touching Node's own Headers loads undici (~35 ms on a 2-core machine)
 * and its ReadableStream web streams (~1 ms) for a request that never uses them. The SDKs' ES module
 * files (what the bundles use) and their CommonJS ones are both covered. A module that declares one
 * of these names itself fails the build here, so this cannot shadow silently. */
const SDK_MODULE = /[/\\]node_modules[/\\](openai|@anthropic-ai[/\\]sdk)[/\\].*\.m?js$/;
const sdkWebShims = {
  name: 'sdk-web-shims',
  setup(b) {
    const shims = new URL('../src/providers/web-shims.ts', import.meta.url).pathname;
    b.onLoad({ filter: SDK_MODULE }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = [];
      if (/\bHeaders\b/.test(source)) names.push(['LightHeaders', 'Headers']);
      if (/\bFormData\b/.test(source)) names.push(['LazyFormData', 'FormData']);
      const readableStream = /\bglobalThis\.ReadableStream\b/g;
      if (readableStream.test(source)) names.push(['LazyReadableStream', 'LazyReadableStream']);
      if (names.length === 0) return undefined;
      const body = source.replace(readableStream, 'LazyReadableStream');
      if (args.path.endsWith('.mjs')) {
        return { contents: `import { ${names.map(([from, as]) => `${from} as ${as}`).join(', ')} } from ${JSON.stringify(shims)};\n${body}`, loader: 'js' };
      }
      const strict = /^"use strict";\n/.exec(body)?.[0] ?? '';
      const binding = `const { ${names.map(([from, as]) => `${from}: ${as}`).join(', ')} } = require(${JSON.stringify(shims)});\n`;
      return { contents: strict + binding + body.slice(strict.length), loader: 'js' };
    });
  },
};

/** Dependencies bundled from their CommonJS builds. In a CommonJS bundle esbuild wraps an ES
 * module so that its functions and export namespaces are made when the bundle starts, used or not;
 * a CommonJS module costs nothing until it is first required. For these packages (zod alone is
 * ~100 ES modules) that is 2-3 ms of every start (bench/say-hello). Every import of a listed
 * package, from seek or from another package, resolves to the same CommonJS build, so there is one
 * copy of each. The provider SDKs stay ES modules: their CommonJS builds reach their own modules
 * through re-exporting getters, about 0.3 ms more on every model request (the 20-turn workload),
 * for 1-2 ms at start. */
const COMMONJS_BUILDS = new Set(['zod', 'zod-to-json-schema', '@modelcontextprotocol/sdk', '@opentelemetry/api', 'diff', 'smol-toml', 'eventsource-parser']);
const commonJsBuilds = {
  name: 'commonjs-builds',
  setup(b) {
    b.onResolve({ filter: /^[@a-z]/ }, async (args) => {
      if (args.pluginData === 'commonjs-builds' || !COMMONJS_BUILDS.has(packageOf(args.path))) return undefined;
      return b.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, importer: args.importer, pluginData: 'commonjs-builds' });
    });
  },
};

/** Commander loads node:child_process at start for subcommands that are separate executables,
 * which seek has none of: in the bundles it loads when Commander first spawns one (never). The
 * build fails if Commander's text changes, so this cannot go stale silently. */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  setup(b) {
    b.onLoad({ filter: /[/\\]node_modules[/\\]commander[/\\]lib[/\\]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(COMMANDER_CHILD_PROCESS).length !== 2) throw new Error(`${args.path}: expected "${COMMANDER_CHILD_PROCESS}" once (Commander changed: update scripts/build.mjs)`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(COMMANDER_CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

/** seek's own imports of these built-in modules become functions that load the module at their
 * first call: a static import loads it at start, and node:child_process (with dgram) and
 * node:crypto cost about 1 and 1.5 ms of a headless start that calls neither (bench/say-hello).
 * Only the functions listed are offered; an import of anything else from these modules fails the
 * build ("No matching export"), so a class or constant can never silently become a function. */
const LAZY_BUILTINS = {
  'node:child_process': ['spawn', 'spawnSync', 'execFile', 'execFileSync'],
  'node:crypto': ['createHash', 'createHmac', 'randomBytes', 'randomUUID', 'timingSafeEqual'],
  // seek's sources use these; loading node:fs/promises costs ~1.5 ms of a start that reads no file
  // through it before the first request.
  'node:fs/promises': [
    'appendFile', 'chmod', 'copyFile', 'lstat', 'mkdir', 'mkdtemp', 'open', 'readdir', 'readFile', 'readlink', 'realpath',
    'rename', 'rm', 'rmdir', 'stat', 'symlink', 'unlink', 'utimes', 'writeFile',
  ],
};
/** fs/promises functions that the start path calls (the config, instructions, memory), done by
 * node:fs, which every start has loaded, with the same arguments, results and errors. */
const FS_CALLBACK_TWINS = new Set(['lstat', 'mkdir', 'readdir', 'readFile', 'stat']);
function lazyFunction(moduleName, name) {
  if (moduleName === 'node:fs/promises' && FS_CALLBACK_TWINS.has(name)) {
    return `export function ${name}(...args) { return new Promise((resolve, reject) => require('node:fs').${name}(...args, (error, value) => (error ? reject(error) : resolve(value)))); }`;
  }
  return `export function ${name}(...args) { return require(${JSON.stringify(moduleName)}).${name}(...args); }`;
}
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(child_process|crypto|fs\/promises)$/ }, (args) =>
      /[/\\]src[/\\]/.test(args.importer) && !args.importer.includes('node_modules') ? { path: args.path, namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: LAZY_BUILTINS[args.path].map((name) => lazyFunction(args.path, name)).join('\n'),
      loader: 'js',
    }));
  },
};

/** In headless.cjs, the modules a `seek -p` run never loads (src/launch/route.ts routes every other
 * command line to main.cjs) are stubs: each export of the real module becomes a function that
 * says so. Routing is the launcher's job; a stub that runs is a routing bug, reported as one. */
const HEADLESS_LEAVES_OUT = /^\.\/(interactive|commands\/[a-z-]+)\.js$/;
const headlessOnly = {
  name: 'headless-only',
  setup(b) {
    b.onResolve({ filter: HEADLESS_LEAVES_OUT }, (args) => {
      if (!/[/\\]src[/\\]cli$/.test(args.resolveDir)) return undefined;
      return { path: join(args.resolveDir, args.path.replace(/\.js$/, '.ts')), namespace: 'not-in-headless-build' };
    });
    b.onLoad({ filter: /.*/, namespace: 'not-in-headless-build' }, (args) => {
      const names = [...readFileSync(args.path, 'utf8').matchAll(/^export (?:async )?function (\w+)/gm)].map((match) => match[1]);
      if (names.length === 0) throw new Error(`headless-only: ${args.path} exports no function to stub`);
      const stub = (name) =>
        `export function ${name}() { throw new Error('internal: ${name} is not in the headless build (dist/cli/headless.cjs); src/launch/route.ts sent this command line to the wrong build'); }`;
      return { contents: names.map(stub).join('\n'), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Another use of import.meta would be empty in main.cjs: fail the build, not the run.
  logOverride: { 'empty-import-meta': 'error' },
  // Ink loads React DevTools support only when DEV=true; it is not a dependency of ours. sharp loads
  // its platform's native binary from node_modules (@img/sharp-*), so it is required from there.
  external: ['react-devtools-core', 'sharp'],
};

/** What the CLI bundles and the vendor chunks share: one CommonJS function expression each (see the
 * top of this file). */
const scriptOptions = {
  ...common,
  format: 'cjs',
  sourcemap: 'linked',
  metafile: true,
  // Comments and indentation out: a smaller script reads and hashes faster at every start.
  minifyWhitespace: true,
  plugins: [inlineVersion, sdkWebShims, yogaWithoutTopLevelAwait, lazyZod, lazyCommanderChildProcess, lazyBuiltins, commonJsBuilds],
  // Dependencies built as ES modules call createRequire(import.meta.url): give them this file's URL.
  define: { 'import.meta.url': '__seekScriptUrl' },
  banner: {
    js: "(function (exports, require, module, __filename, __dirname) {const __seekScriptUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  // Node 20 drops a vm.Script's dynamic import callback when the script comes from a code cache:
  // dependencies' import() of built-in or CommonJS modules become require().
  supported: { 'dynamic-import': false },
  footer: { js: '})' },
};

/** A package bundled into the CLI and into a chunk, or into two chunks, would exist twice in one
 * process (two zods, two classes of one error): every import of it must go to one place. Listed
 * here, with the reason, are the few whose copies cannot meet. */
const MAY_BE_COPIED = new Map([
  ['eventsource-parser', 'a 7 KB parser of plain strings into plain objects: copies share no class or state (the CLI reads model streams with it, the MCP SDK its server streams)'],
]);

/** Chunk name -> the specifiers the CLI bundles and the chunks ask of it (scripts/vendor-chunks.mjs). */
const wanted = emptyWants();
const cliBundle = (outfile, extraPlugins) =>
  build({
    ...scriptOptions,
    entryPoints: ['src/cli/main.ts'],
    outfile,
    plugins: [vendorChunks(wanted), ...scriptOptions.plugins, ...extraPlugins],
  });
const cliResults = await Promise.all([cliBundle(`${staging}/cli/main.cjs`, []), cliBundle(`${staging}/cli/headless.cjs`, [headlessOnly])]);
const chunkResults = await buildVendorChunks(wanted, `${staging}/cli/chunks`, scriptOptions);
failOnPackagesInTwoOutputs([cliResults, ...chunkResults.map((result) => [result])]);

/** See MAY_BE_COPIED. */
function failOnPackagesInTwoOutputs(groups) {
  const owner = new Map();
  for (const [index, results] of groups.entries()) {
    for (const { metafile } of results) {
      const script = Object.keys(metafile.outputs).find((key) => key.endsWith('.cjs'));
      for (const input of Object.keys(metafile.outputs[script].inputs)) {
        const at = input.lastIndexOf('node_modules/');
        if (at < 0) continue;
        const name = packageOf(input.slice(at + 'node_modules/'.length));
        if (MAY_BE_COPIED.has(name)) continue;
        const first = owner.get(name);
        if (first === undefined) owner.set(name, { index, script });
        else if (first.index !== index) throw new Error(`build: ${name} is bundled into both ${first.script} and ${script}: add it to a vendor chunk's packages or make its users import it from one (scripts/vendor-chunks.mjs)`);
      }
    }
  }
}
// dist/cli/web-worker.cjs: web_fetch's HTML to Markdown for large pages, run in a worker thread
// (src/web/convert-off-thread.ts finds it next to the CLI script). A plain script with the three
// HTML libraries bundled in: a worker cannot reach the launcher's vendor chunks.
await build({
  ...common,
  entryPoints: ['src/web/convert-worker.ts'],
  outfile: `${staging}/cli/web-worker.cjs`,
  format: 'cjs',
  minifyWhitespace: true,
});
await build({
  ...common,
  entryPoints: ['src/launch/code-cache.ts'],
  outfile: `${staging}/launch.cjs`,
  format: 'cjs',
});
// dist/sdk/: the `seek-agent/sdk` subpath export (package.json "exports"): one ES module for
// Node 20 from src/sdk/ (which imports nothing of seek's internals: it spawns bin/seek.js), and
// its declarations, emitted by the TypeScript compiler from the same sources (a type error fails
// the build).
await build({ ...common, entryPoints: ['src/sdk/index.ts'], outfile: `${staging}/sdk/index.js`, format: 'esm' });
emitSdkDeclarations(`${staging}/sdk`);

function emitSdkDeclarations(outDir) {
  const ts = createRequire(import.meta.url)('typescript');
  const options = {
    declaration: true, emitDeclarationOnly: true, outDir, rootDir: 'src/sdk', strict: true, skipLibCheck: true,
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2023.d.ts'], types: ['node'],
  };
  const program = ts.createProgram(['src/sdk/index.ts'], options);
  const emitted = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (problems.length > 0 || emitted.emitSkipped) {
    throw new Error(`build: the SDK's declarations:\n${ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' })}`);
  }
  const outside = program.getSourceFiles().map((file) => file.fileName).filter((name) => !name.includes('node_modules') && !/(^|[/\\])src[/\\]sdk[/\\]/.test(name));
  if (outside.length > 0) throw new Error(`build: src/sdk must import nothing of seek's other sources, but it reaches ${outside.join(', ')}`);
}
// The launcher decodes an ASCII script as a one-byte string (a third of the time of UTF-8).
// esbuild escapes non-ASCII text in strings but not in regular expression literals (Readability's
// `»`, `广告` in web.cjs): those are escaped here, each UTF-16 unit as \uXXXX, which means the same
// character in a regex (with or without the u flag: an escaped surrogate pair is one code point),
// a string or an identifier; a non-ASCII character after a backslash (an identity escape) loses
// the backslash, as it means itself. The source map's columns on such a line shift by a few
// characters. Whatever is still not ASCII gets a warning: it runs, only its start is slower.
for (const script of ['main.cjs', 'headless.cjs', ...readdirSync(`${staging}/cli/chunks`).filter((name) => name.endsWith('.cjs')).map((name) => `chunks/${name}`)]) {
  const file = `${staging}/cli/${script}`;
  let bytes = readFileSync(file);
  if (!isAscii(bytes)) {
    writeFileSync(file, escapeNonAscii(bytes.toString('utf8')));
    bytes = readFileSync(file);
  }
  if (!isAscii(bytes)) {
    const at = bytes.findIndex((byte) => byte > 0x7f);
    const context = bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
    process.stderr.write(`warning: dist/cli/${script} is not ASCII, so it starts slower; near: ${context}\n`);
  }
}

function escapeNonAscii(text) {
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_match, backslashes, char) => {
    const kept = backslashes.length % 2 === 1 ? backslashes.slice(1) : backslashes;
    return kept + `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
rmSync('dist', { recursive: true, force: true });
renameSync(staging, 'dist');
