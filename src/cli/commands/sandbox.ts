import { Command } from 'commander';
import { homedir, tmpdir } from 'node:os';
import { readConfig } from '../../config/config.js';
import { configFile, findProjectRoot, seekHome } from '../../config/paths.js';
import { setUpPermissions } from '../../runtime/permissions.js';
import { describeScope } from '../../sandbox/index.js';
import { selfTest } from '../../sandbox/self-test.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

/**
 * `seek sandbox check [--json]`: which OS sandbox this machine offers, whether it works (proved by
 * running commands that try to break it), what each profile allows in this project, and, when no
 * sandbox can start, why and how to fix it. Exit 0 when the sandbox works, 1 when it does not.
 */
export function createSandboxCommand(io: CommandIO = processIO): Command {
  const command = new Command('sandbox')
    .description('the OS sandbox that holds commands run without your yes')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  command
    .command('check')
    .description('what sandbox is available here, or why not and how to fix it')
    .option('--json', 'print JSON')
    .action(
      guardedBy(io)(async (opts: { json?: boolean }) => {
        const home = seekHome(io.env);
        const root = findProjectRoot(io.cwd());
        const config = await readConfig(home);
        const { sandbox } = await setUpPermissions({ root, seekHome: home, configFile: configFile(home), config, env: io.env, interactive: false });
        const status = sandbox.status;
        const tests = await selfTest(sandbox, tmpdir(), io.env.HOME ?? homedir());
        const held = status.available && tests.every((t) => t.ok);
        const scopes = status.available ? (['read-only', 'workspace-write'] as const).map((profile) => sandbox.scope(profile, root)) : [];
        if (opts.json) {
          io.out(`${JSON.stringify({ ...status, works: held, settings: sandbox.settings, checks: tests, profiles: scopes }, null, 2)}\n`);
        } else {
          const lines = [`mechanism: ${status.mechanism}${status.program ? ` (${status.program}${status.version ? `, ${status.version}` : ''})` : ''}`];
          if (!status.available) {
            lines.push(`available: no — ${status.reason ?? 'unknown reason'}`);
            if (status.fix) lines.push(`fix: ${status.fix}`);
            lines.push('Until then, commands that would run sandboxed are asked before they run (interactive) or denied (headless).');
          } else {
            lines.push(`available: yes${held ? '' : ' — but a check below failed: do not rely on it'}`);
            for (const t of tests) lines.push(`  ${t.ok ? 'ok  ' : 'FAIL'} ${t.check} (${t.detail})`);
            for (const scope of scopes) {
              lines.push(`${describeScope(scope, root)}`);
              if (scope.writable.length > 0) lines.push(`  writable: ${scope.writable.join(', ')}`);
              const readOnly = [...scope.gitMounts.filter((m) => m.mode === 'ro').map((m) => m.path), ...scope.protectedPaths];
              if (readOnly.length > 0) lines.push(`  read-only inside: ${readOnly.join(', ')}`);
            }
            lines.push(`private (empty, throw-away): ${scopes[0]?.scratch.join(', ') || '(none)'}`);
            lines.push(`shown read-only in the private home: ${scopes[0]?.readable.join(', ') || '(none found)'}`);
            lines.push(`hidden: ${scopes[0]?.hidden.join(', ') || '(none found)'}`);
          }
          io.out(`${lines.join('\n')}\n`);
        }
        if (!held) io.setExitCode(1);
      }),
    );
  return command;
}
