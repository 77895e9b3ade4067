import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setUpPermissions } from '../../../src/runtime/permissions.js';
import { fakeBwrap } from '../../support/fake-bwrap.js';
import { tempDir } from '../../support/temp-dirs.js';

/**
 * Sandbox detection of headless sessions waits for the first call that needs it (`sandboxReady`),
 * so a run that calls no tool never probes bubblewrap; once settled, the policy and the launcher
 * hold exactly what an up-front detection gives. The bwrap here is a script that logs each run
 * and passes as a working bubblewrap (detection is keyed by SEEK_SANDBOX_BWRAP, so every case
 * gets its own script and its own detection).
 */

async function permissions(program: string, deferSandbox: boolean) {
  const root = tempDir('seek-deferred-root-');
  const seekHome = tempDir('seek-deferred-home-');
  return setUpPermissions({
    root,
    seekHome,
    configFile: join(seekHome, 'config.json'),
    config: {},
    env: { PATH: process.env.PATH, HOME: seekHome, SEEK_SANDBOX_BWRAP: program },
    interactive: false,
    auto: true,
    deferSandbox,
  });
}

describe.skipIf(process.platform !== 'linux')('deferred sandbox detection', () => {
  it('probes nothing until sandboxReady, then settles the policy and the launcher once', async () => {
    const bwrap = fakeBwrap();
    const set = await permissions(bwrap.program, true);
    expect(bwrap.runs()).toEqual([]);
    expect(set.policy.sandbox.available).toBe(false);

    await Promise.all([set.sandboxReady(), set.sandboxReady()]);
    await set.sandboxReady();
    expect(bwrap.runs().sort()).toEqual(['--ro-bind', '--version']); // the version and the probe, once
    expect(set.policy.sandbox).toEqual({ available: true });
    expect(set.sandbox.status).toMatchObject({ available: true, mechanism: 'bwrap', program: bwrap.program });
    // A command --auto allows now runs in the sandbox, as with detection at start.
    expect(set.policy.evaluate({ kind: 'bash', command: 'touch x', paths: [], summary: 'bash: touch x' }, { tool: 'bash', cwd: set.policy.root })).toMatchObject({
      decision: 'allow',
      sandbox: 'workspace-write',
    });
  });

  it('without deferSandbox, detects before returning', async () => {
    const bwrap = fakeBwrap();
    const set = await permissions(bwrap.program, false);
    expect(bwrap.runs().sort()).toEqual(['--ro-bind', '--version']);
    expect(set.policy.sandbox).toEqual({ available: true });
    await set.sandboxReady();
    expect(bwrap.runs()).toHaveLength(2);
  });
});
