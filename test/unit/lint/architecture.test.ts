/**
 * The architecture rules of eslint.architecture.js fail on what they forbid (a fixture tree with a
 * circle and arrows back up, test/fixtures/architecture/src) and pass on what they allow; and the
 * real src/ keeps the limits that lint cannot see: every folder placed in the layer order, no
 * import circle even through type-only imports, no file over 400 lines.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { architectureConfig, ISOLATED, LAYER_ORDER } from '../../../eslint.architecture.js';
import { allFigures, circles } from '../../../bench/architecture.js';

const repo = resolve(import.meta.dirname, '../../..');
const fixtures = 'test/fixtures/architecture/src';

async function problems(): Promise<Map<string, string[]>> {
  const eslint = new ESLint({ cwd: repo, overrideConfigFile: true, overrideConfig: [architectureConfig(fixtures)], ignore: false });
  const results = await eslint.lintFiles([`${fixtures}/**/*.ts`]);
  return new Map(results.map((result) => [result.filePath.slice(repo.length + 1 + fixtures.length + 1), result.messages.map((m) => m.ruleId ?? m.message)]));
}

describe('the architecture lint', () => {
  it('reports a circle, a static and a dynamic arrow back up, and a launcher importing seek; passes the rest', async () => {
    const found = await problems();
    expect(found.get('util/circle-a.ts')).toContain('import-x/no-cycle');
    expect(found.get('util/circle-b.ts')).toContain('import-x/no-cycle');
    expect(found.get('tools/back-arrow.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(found.get('tools/dynamic-back-arrow.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(found.get('launch/launcher.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(found.get('tools/clean.ts')).toEqual([]);
    expect(found.get('runtime/root.ts')).toEqual([]);
    expect(found.get('util/leaf.ts')).toEqual([]);
  }, 120_000);
});

describe('src/ keeps the architecture limits', () => {
  const files = allFigures();

  it('places every folder of src/ in the layer order', () => {
    const folders = readdirSync(join(repo, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((folder) => !LAYER_ORDER.includes(folder) && !ISOLATED.includes(folder))).toEqual([]);
  });

  it('has no import circle, type-only imports included', () => {
    expect(circles(files)).toEqual([]);
  });

  it('has no file over 400 lines (generated files excepted)', () => {
    expect(files.filter((file) => file.lines > 400 && !file.path.includes('.generated.')).map((file) => `${file.path} ${file.lines}`)).toEqual([]);
  });

  it('keeps the composition root an ordering of parts', () => {
    const root = files.find((file) => file.path === 'src/runtime/prepare.ts')!;
    expect(root.longestFunction.lines).toBeLessThanOrEqual(60);
  });
});
