/**
 * Ink's layout engine, yoga, is WebAssembly that its ES module loads with top-level await. The CLI
 * bundle is one CommonJS script (scripts/build.mjs), which cannot express that: there, yoga comes
 * from `yoga-layout/load`, and this function is replaced by one that resolves once it has loaded.
 * Run from source (tests), the ES module has loaded yoga before anything renders, so it is a no-op.
 * The terminal UI awaits it before its first render.
 */
export async function layoutEngineReady(): Promise<void> {}
