import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Personal files seek writes inside a project (`.seek/config.local.json`, `.seek/mcp.json`) are
 * added to `.git/info/exclude` of the main checkout, once, so they are never committed by accident
 * (a shared `.gitignore` is the team's, not seek's to edit). Not a git checkout: nothing to do.
 */
export function excludeFromGit(projectRoot: string, file: string): void {
  const dotGit = path.join(projectRoot, '.git');
  try {
    if (!statSync(dotGit).isDirectory()) return;
  } catch {
    return;
  }
  const exclude = path.join(dotGit, 'info', 'exclude');
  const entry = `/${path.relative(projectRoot, file).split(path.sep).join('/')}`;
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  if (current.split('\n').includes(entry)) return;
  try {
    mkdirSync(path.dirname(exclude), { recursive: true });
    appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}${entry}\n`);
  } catch {
    // No info dir (an unusual layout): the file is still personal, just not excluded.
  }
}
