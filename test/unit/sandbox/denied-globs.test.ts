import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globEntriesInRoot, globMatchesInRoot, isGlobEntry, seatbeltGlobRegex } from '../../../src/sandbox/denied-globs.js';
import { deniedInRoot, literalEntries } from '../../../src/sandbox/denied-paths.js';
import { seatbeltProfile } from '../../../src/sandbox/seatbelt.js';

let root: string;
const at = (...parts: string[]) => path.join(root, ...parts);
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-globs-')));
  for (const file of ['.env', '.env.local', '.env.prod', 'env.txt', 'a/b/.env', 'a/b/.ENV', 'c/x.pem', 'c/d/y.PEM', 'config/app.yml', 'config/sub/no.yml', '.git/x.pem']) {
    mkdirSync(path.dirname(at(file)), { recursive: true });
    writeFileSync(at(file), 'x');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('deny globs: existing matches in a root', () => {
  it('a glob in the last part lists that one folder', () => {
    expect(globMatchesInRoot('.env.*', root).sort()).toEqual([at('.env.local'), at('.env.prod')]);
    expect(globMatchesInRoot('./config/*.yml', root)).toEqual([at('config/app.yml')]);
  });

  it('any depth: every match, case ignored, .git skipped; the cache answers after a change', () => {
    expect(globMatchesInRoot('**/.env', root).sort()).toEqual([at('.env'), at('a/b/.ENV'), at('a/b/.env')].sort());
    expect(globMatchesInRoot('**/*.pem', root).sort()).toEqual([at('c/d/y.PEM'), at('c/x.pem')]);
    writeFileSync(at('c/d/new.pem'), 'x');
    expect(globMatchesInRoot('**/*.pem', root)).toContain(at('c/d/new.pem'));
  });

  it('globs and literal entries together: deniedInRoot mounts both, absent ones are literal only', () => {
    expect(isGlobEntry('**/.env') && !isGlobEntry('secrets')).toBe(true);
    expect(literalEntries(['secrets', '**/.env', '.env.*'])).toEqual(['secrets']);
    const found = deniedInRoot(['env.txt', '.env.*', '~/x/*', '/abs/*.pem'], root);
    expect(found.sort()).toEqual([at('.env.local'), at('.env.prod'), at('env.txt')]);
    expect(globEntriesInRoot(['**/.env', '**/*.pem'], root)).toHaveLength(6);
  });

  it('seatbelt: a glob becomes an anchored, case-insensitive regex in the root, denied to read and write', () => {
    const re = new RegExp(seatbeltGlobRegex('**/*.pem', '/r/p'));
    expect(['/r/p/x.pem', '/r/p/a/b/y.PEM'].every((p) => re.test(p))).toBe(true);
    expect(['/r/p/x.pem.txt', '/r/q/x.pem', '/r/px.pem'].some((p) => re.test(p))).toBe(false);
    const last = new RegExp(seatbeltGlobRegex('.env.*', '/r/p'));
    expect(last.test('/r/p/.env.local') && !last.test('/r/p/a/.env.local') && !last.test('/r/p/xenv.local')).toBe(true);
    const scope = { profile: 'workspace-write' as const, writable: ['/r/p'], protectedPaths: [], hidden: [], scratch: [], readable: [], gitMounts: [], unixSockets: false, visible: ['/r/p'], network: false, deniedGlobs: { read: ['^/r/p/a$'], write: ['^/r/p/b$'] } };
    const profile = seatbeltProfile(scope, '/tmp/t');
    expect(profile).toContain('(deny file-read-data (regex #"^/r/p/a$"))');
    expect(profile).toContain('(deny file-write* (regex #"^/r/p/b$") (regex #"^/r/p/a$"))');
  });
});
