import { describe, expect, it } from 'vitest';
import { bwrapArguments } from '../../../src/sandbox/bwrap.js';
import { detectSandbox, detectSandboxAsync } from '../../../src/sandbox/detect.js';
import { looksSecret, sandboxEnvironment } from '../../../src/sandbox/environment.js';
import { seatbeltProfile } from '../../../src/sandbox/seatbelt.js';
import type { SandboxScope } from '../../../src/sandbox/types.js';

const scope = (over: Partial<SandboxScope> = {}): SandboxScope => ({
  profile: 'workspace-write',
  writable: ['/work/p'],
  protectedPaths: ['/work/p/.git/hooks', '/work/p/.git/config'],
  hidden: ['/etc/hostname', '/home/u/.seek'],
  scratch: [],
  readable: [],
  gitMounts: [],
  visible: ['/work/p'],
  network: false,
  unixSockets: false,
  ...over,
});

describe('environment allowlist', () => {
  it('keeps what tools need, drops everything else and anything secret-looking', () => {
    const env = sandboxEnvironment(
      { PATH: '/bin', HOME: '/h', LANG: 'C', LC_ALL: 'C', DEEPSEEK_API_KEY: 'k', GITHUB_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 's', DB_PASSWORD: 'p', npm_config__authToken: 'x', RANDOM_VAR: 'r', MY_TOOL_HOME: '/t' },
      ['MY_TOOL_HOME', 'STRIPE_KEY'],
      { TMPDIR: '/tmp' },
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C', LC_ALL: 'C', MY_TOOL_HOME: '/t', TMPDIR: '/tmp' });
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'SSH_AUTH_SOCK', 'SESSION_ID', 'GH_TOKEN', 'PRIVATE_KEY_PATH']) expect(looksSecret(name), name).toBe(true);
    for (const name of ['PATH', 'HOME', 'KEYBOARD_LAYOUT', 'LANG']) expect(looksSecret(name), name).toBe(false);
  });
});

describe('bubblewrap arguments', () => {
  it('mounts in the documented order: read-only root, hidden, roots, protected, namespaces', () => {
    const args = bwrapArguments(scope(), '/work/p/src', { seccomp: true });
    const at = (...needle: string[]) => args.findIndex((_, i) => needle.every((n, j) => args[i + j] === n));
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(at('--tmpfs', '/tmp')).toBeGreaterThan(0);
    expect(at('--ro-bind', '/dev/null', '/etc/hostname')).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--bind', '/work/p', '/work/p')).toBeGreaterThan(at('--ro-bind', '/dev/null', '/etc/hostname'));
    expect(at('--ro-bind', '/work/p/.git/hooks', '/work/p/.git/hooks')).toBeGreaterThan(at('--bind', '/work/p', '/work/p'));
    expect(args).toContain('--unshare-all');
    expect(args).not.toContain('--share-net');
    expect(args.slice(-2)).toEqual(['--chdir', '/work/p/src']);
    expect(bwrapArguments(scope({ network: true }), '/work/p', { seccomp: true })).toContain('--share-net');
  });

  it('read-only profile binds its root read-only and nothing writable', () => {
    const args = bwrapArguments(scope({ profile: 'read-only', writable: [], protectedPaths: [] }), '/work/p', { seccomp: true });
    expect(args).not.toContain('--bind');
    expect(args.join(' ')).toContain('--ro-bind /work/p /work/p');
  });
});

describe('sandbox-exec profile (macOS)', () => {
  it('denies by default, hides secrets, writes only to roots and its temp dir, protects hooks, no network', () => {
    const profile = seatbeltProfile(scope(), '/private/tmp/seek-x');
    expect(profile).toMatch(/^\(version 1\)\n\(deny default\)/);
    expect(profile).toContain('(deny file-read* (subpath "/etc/hostname") (subpath "/home/u/.seek"))');
    expect(profile).toMatch(/\(allow file-write\* \(subpath "\/private\/tmp\/seek-x"\) \(subpath "\/work\/p"\)/);
    // Seatbelt applies the last matching rule: the protection comes after the allowance.
    expect(profile.indexOf('(deny file-write* (subpath "/work/p/.git/hooks")')).toBeGreaterThan(profile.indexOf('(allow file-write*'));
    expect(profile).not.toContain('network');
    expect(seatbeltProfile(scope({ network: true }), '/t')).toContain('(allow network*)');
    expect(seatbeltProfile(scope({ profile: 'read-only' }), '/t')).not.toContain('(subpath "/work/p") (literal');
  });

  it('forbids creating a denied path that does not exist yet (a path rule needs nothing to exist)', () => {
    const profile = seatbeltProfile(scope({ absentDenied: [{ path: '/work/p/deploy/prod.yml', existing: 1 }] }), '/t');
    expect(profile).toMatch(/\(deny file-write\* [^\n]*\(subpath "\/work\/p\/deploy\/prod\.yml"\)/);
    expect(bwrapArguments(scope({ absentDenied: [{ path: '/work/p/deploy/prod.yml', existing: 1 }] }), '/work/p', { seccomp: false })).not.toContain('/work/p/deploy/prod.yml');
  });

  it('quotes paths so a hostile name cannot end the string', () => {
    const profile = seatbeltProfile(scope({ writable: ['/work/a"b) (allow default'] }), '/t');
    expect(profile).toContain('(subpath "/work/a\\"b) (allow default")');
  });
});

describe('detection says why not, and how to fix it', () => {
  it('a missing bwrap', async () => {
    const env = { PATH: '/bin', SEEK_SANDBOX_BWRAP: '/nonexistent/bwrap' };
    for (const status of [detectSandbox({ env, platform: 'linux' }), await detectSandboxAsync({ env, platform: 'linux' })]) {
      expect(status).toMatchObject({ available: false, mechanism: 'bwrap' });
      expect(status.fix).toMatch(/install bubblewrap/);
    }
  });

  it('a bwrap that cannot create namespaces (here: a program that always fails)', async () => {
    const env = { PATH: process.env.PATH ?? '', SEEK_SANDBOX_BWRAP: 'false' };
    for (const status of [detectSandbox({ env, platform: 'linux' }), await detectSandboxAsync({ env, platform: 'linux' })]) {
      expect(status).toMatchObject({ available: false, mechanism: 'bwrap' });
      expect(status.reason).toMatch(/cannot create a sandbox here/);
    }
  });

  it('Windows and a sandbox turned off in config', () => {
    expect(detectSandbox({ env: {}, platform: 'win32' })).toMatchObject({ available: false, fix: expect.stringMatching(/WSL2/) });
    expect(detectSandbox({ env: {}, disabled: true })).toMatchObject({ available: false, reason: expect.stringMatching(/turned off in config/) });
  });
});
