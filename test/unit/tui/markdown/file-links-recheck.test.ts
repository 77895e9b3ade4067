import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setHyperlinks } from '../../../../src/tui/markdown/ansi.js';
import { fileUrl, linkPlainText, MAX_CHECKS_PER_RENDER, pathLinksHold, renderWithPathLinks, setFileLinkRoot } from '../../../../src/tui/markdown/file-links.js';
import { clearMarkdownCache, renderMarkdown } from '../../../../src/tui/markdown/render.js';
import { sessionWorkingDirectory } from '../../../../src/tui/state/working-directory.js';
import { tempDir } from '../../../support/temp-dirs.js';

const linked = (out: string, file: string) => out.includes(fileUrl(file));
const render = (text: string) => renderMarkdown(text, { width: 80, color: true });

describe('file links are checked again when an answer is drawn again', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('seek-file-links-recheck-');
    mkdirSync(join(root, 'src'), { recursive: true });
    clearMarkdownCache();
    setHyperlinks(true);
    setFileLinkRoot(root);
  });
  afterEach(() => {
    setHyperlinks(false);
    setFileLinkRoot(undefined);
    clearMarkdownCache();
  });

  it('links a file made after the answer was first drawn, and unlinks one removed since', () => {
    const answer = 'I will create `src/new.ts` next; see src/old.ts.';
    writeFileSync(join(root, 'src', 'old.ts'), '');
    const first = render(answer);
    expect(linked(first, join(root, 'src', 'new.ts'))).toBe(false);
    expect(linked(first, join(root, 'src', 'old.ts'))).toBe(true);
    expect(render(answer)).toBe(first); // nothing changed: the memoised result

    writeFileSync(join(root, 'src', 'new.ts'), '');
    rmSync(join(root, 'src', 'old.ts'));
    const again = render(answer);
    expect(linked(again, join(root, 'src', 'new.ts'))).toBe(true);
    expect(linked(again, join(root, 'src', 'old.ts'))).toBe(false);
  });

  it('relinks the blocks a stream settled, not only its last ones', () => {
    const blocks = ['First see `src/made-later.ts`.', 'Second paragraph.', 'Third paragraph.', 'Fourth paragraph.', 'Fifth.'];
    let text = '';
    for (const block of blocks) {
      text += `${block}\n\n`;
      render(text); // streamed: the first blocks settle and are not rendered again
    }
    expect(linked(render(text), join(root, 'src', 'made-later.ts'))).toBe(false);
    writeFileSync(join(root, 'src', 'made-later.ts'), '');
    expect(linked(render(text), join(root, 'src', 'made-later.ts'))).toBe(true);
  });

  it('resolves against the working directory at each render: inside the worktree after enter_worktree', () => {
    const project = join(root, 'project');
    const worktree = join(root, 'worktrees', 'w1');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(worktree, 'src'), { recursive: true });
    writeFileSync(join(worktree, 'src', 'only-in-tree.ts'), '');
    const session: { cwd: string; projectRoot: string; worktree?: { path: string } } = { cwd: project, projectRoot: project };
    setFileLinkRoot(() => sessionWorkingDirectory(session));
    const answer = 'Changed `src/only-in-tree.ts`.';
    expect(linked(render(answer), join(worktree, 'src', 'only-in-tree.ts'))).toBe(false);
    session.worktree = { path: worktree }; // enter_worktree
    expect(linked(render(answer), join(worktree, 'src', 'only-in-tree.ts'))).toBe(true);
    expect(linked(render(`Also ${join(worktree, 'src', 'only-in-tree.ts')}`), join(worktree, 'src', 'only-in-tree.ts'))).toBe(true);
  });

  it('a recheck stats no more files than a render may', () => {
    const text = Array.from({ length: MAX_CHECKS_PER_RENDER + 50 }, (_, index) => `src/f${index}.ts`).join(' ');
    const { links } = renderWithPathLinks(() => linkPlainText(text, undefined));
    expect(links?.looked.size).toBe(MAX_CHECKS_PER_RENDER);
    let asked = 0;
    expect(pathLinksHold(links, () => (asked++, false))).toBe(true);
    expect(asked).toBe(MAX_CHECKS_PER_RENDER);
    const more = { root, looked: new Map(Array.from({ length: 500 }, (_, index) => [join(root, `f${index}.ts`), false] as const)) };
    asked = 0;
    expect(pathLinksHold(more, () => (asked++, false))).toBe(true);
    expect(asked).toBe(MAX_CHECKS_PER_RENDER);
    expect(pathLinksHold(links, () => true)).toBe(false);
    setHyperlinks(false);
    expect(pathLinksHold(links)).toBe(false); // links turned off: drawn again without them
    expect(pathLinksHold(undefined)).toBe(true);
  });
});

describe('sessionWorkingDirectory', () => {
  it('is where the session started, or the same place inside the worktree it entered', () => {
    expect(sessionWorkingDirectory({ cwd: '/p/sub', projectRoot: '/p' })).toBe('/p/sub');
    expect(sessionWorkingDirectory({ cwd: '/p/sub', projectRoot: '/p', worktree: { path: '/w/one' } })).toBe('/w/one/sub');
    expect(sessionWorkingDirectory({ cwd: '/p', projectRoot: '/p', worktree: { path: '/w/one' } })).toBe('/w/one');
  });
});
