/**
 * Structure figures for the architecture (issue 36): the longest files and functions, the composition
 * root's imports, import circles and arrows that point back up the layers.
 * `npx tsx bench/architecture.ts` prints them; test/unit/architecture.test.ts keeps the limits.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export interface FileFigures { path: string; lines: number; imports: string[]; longestFunction: { name: string; lines: number } }

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try { if (statSync(candidate).isFile()) return candidate; } catch { /* next */ }
  }
  return undefined;
}

export function figuresOf(path: string): FileFigures {
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  let longest = { name: '', lines: 0 };
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      const target = resolveImport(path, node.moduleSpecifier.text);
      if (target && (!typeOnly || process.env.ARCH_TYPES !== "0")) imports.push(target);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const target = arg && ts.isStringLiteral(arg) ? resolveImport(path, arg.text) : undefined;
      if (target) imports.push(target);
    }
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.end) - lineOf(node.getStart(sf)) + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : '(anonymous)';
      if (lines > longest.lines) longest = { name, lines };
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { path: relative(root, path), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports: imports.map((p) => relative(root, p)), longestFunction: longest };
}

/** Strongly connected components of more than one file (Tarjan): each one is an import circle. */
export function circles(files: FileFigures[]): string[][] {
  const graph = new Map(files.map((f) => [f.path, f.imports]));
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}

export function allFigures(): FileFigures[] {
  return walk(src).map(figuresOf);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = allFigures();
  const byLines = [...files].sort((a, b) => b.lines - a.lines);
  console.log(`files in src/: ${files.length}, lines: ${files.reduce((n, f) => n + f.lines, 0)}`);
  console.log('longest files:');
  for (const f of byLines.slice(0, 8)) console.log(`  ${f.lines}\t${f.path}`);
  console.log(`files over 400 lines: ${byLines.filter((f) => f.lines > 400).length}`);
  const fns = files.map((f) => ({ path: f.path, ...f.longestFunction })).sort((a, b) => b.lines - a.lines);
  const runtimeFns = fns.filter((f) => f.path.startsWith('src/runtime/'));
  console.log(`longest function in src/runtime/: ${runtimeFns[0]?.name} (${runtimeFns[0]?.path}) ${runtimeFns[0]?.lines} lines`);
  console.log(`longest function in src/: ${fns[0]?.name} (${fns[0]?.path}) ${fns[0]?.lines} lines`);
  const rootFile = process.env.ROOT_FILE ?? 'src/runtime/prepare.ts';
  const rootFig = files.find((f) => f.path === rootFile);
  if (rootFig) console.log(`imports of ${rootFile}: ${readFileSync(join(root, rootFile), 'utf8').match(/^import /gm)?.length ?? 0}`);
  const found = circles(files);
  console.log(`import circles: ${found.length}`);
  for (const c of found) console.log(`  ${c.length} files: ${c.join(' ')}`);
  console.log(`README lines: ${readFileSync(join(root, 'README.md'), 'utf8').split('\n').length - 1}`);
}
