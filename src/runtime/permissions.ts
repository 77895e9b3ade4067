/**
 * The permission side of the composition root: the OS sandbox (settings, detection, launcher) and
 * the session's policy from flags and config. Kept out of prepare.ts so that file stays a list of
 * wiring steps.
 */
import { homedir } from 'node:os';
import type { SeekConfig } from '../config/config.js';
import { createPolicy, type PermissionPolicy } from '../policy/policy.js';
import { loadPermissionRules, type LoadedPermissions } from '../policy/config-rules.js';
import { addConfigRule } from '../policy/config-write.js';
import { formatRule } from '../policy/rules.js';
import type { SavedRuleScope } from '../policy/tool-gate.js';
import type { PolicyRule, SandboxAvailability } from '../policy/types.js';
import { detectSandboxAsync, SandboxLauncher, sandboxSettingsFrom, type SandboxStatus } from '../sandbox/index.js';

export interface SessionPermissions {
  policy: PermissionPolicy;
  sandbox: SandboxLauncher;
  /** What the user must hear once at start (no sandbox here; --yolo runs unsandboxed). */
  notices: string[];
  /** The config files' rules, as loaded (for `seek permissions list`). */
  permissions: LoadedPermissions;
  /** Resolves once `policy.sandbox` and `sandbox.status` hold the detected status: at once unless
   * `deferSandbox`, else it starts detection on its first call. Await it before any policy decision
   * or launch that may depend on it: every tool gate (the session's and each child's) does. */
  sandboxReady: () => Promise<void>;
}

/** What the policy and launcher hold until a deferred detection finished (never decided on: every
 * decision waits for `sandboxReady`). */
const UNDETECTED: SandboxStatus = Object.freeze({ available: false, mechanism: 'none', reason: 'sandbox detection has not finished' });

/** One detection per process (the answer does not change while seek runs), started as early as
 * possible so its two bwrap runs overlap the rest of start-up. */
let detection: { key: string; status: Promise<SandboxStatus> } | undefined;

/** Starts (or joins) sandbox detection for these settings; `setUpPermissions` awaits it. */
export function startSandboxDetection(env: Readonly<Record<string, string | undefined>>, config: SeekConfig, configFile: string): void {
  let disabled = false;
  try {
    disabled = !sandboxSettingsFrom(config, configFile).enabled;
  } catch {
    return; // a malformed setting is reported by setUpPermissions
  }
  const key = `${disabled}|${env.PATH ?? ''}|${env.SEEK_SANDBOX_BWRAP ?? ''}`;
  if (detection?.key !== key) detection = { key, status: detectSandboxAsync({ env: { ...env }, disabled }) };
}

function detected(env: Readonly<Record<string, string | undefined>>, config: SeekConfig, configFile: string): Promise<SandboxStatus> {
  startSandboxDetection(env, config, configFile);
  return detection!.status;
}

/**
 * Paths named by deny rules on reads (`Read(./.env)`, `Read(~/.config/x)`, `Read(//etc/x)`) or on
 * edits and writes (`Edit(./deploy.yml)`, `Write(...)`): the sandbox hides the first and keeps the
 * second read-only, so a denied read or edit cannot be done through a command. A pattern is a path
 * without globs, a folder and everything in it (`Read(./secrets/**)`: the folder), or a glob
 * relative to the root (`Read(./.env.*)`, `Read(.env)` = `**\/.env`, `Edit(config/*.yml)`): the
 * launcher finds its matches in each call's root when the command starts (sandbox/denied-globs.ts).
 * Globs outside the root (`Read(~/.aws/*)`, `Read(//etc/*.conf)`) are judged for seek's own tools
 * only. Relative ones stay relative: the launcher resolves them in each call's root (a child's
 * worktree).
 */
export function deniedPaths(rules: readonly PolicyRule[], home: string, kinds: readonly string[]): string[] {
  const paths = rules
    .filter((rule) => rule.decision === 'deny' && rule.kind !== undefined && kinds.includes(rule.kind) && rule.pattern !== undefined)
    .map((rule) => rule.pattern!.replace(/^\.\//, '').replace(/\/\*\*(\/\*)?$/, ''))
    .filter((p) => p !== '' && p !== '**' && (!/[*?[{]/.test(p) || !(p.startsWith('/') || p.startsWith('~'))))
    .map((p) => (p.startsWith('~/') ? `${home}/${p.slice(2)}` : p));
  return [...new Set(paths)];
}

export async function setUpPermissions(options: {
  root: string;
  seekHome: string;
  configFile: string;
  config: SeekConfig;
  env: Readonly<Record<string, string | undefined>>;
  interactive: boolean;
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
  /** Detect the OS sandbox on first need (`sandboxReady`) instead of now: a headless session that
   * runs no tool never spawns the two bwrap probes, and its first request does not wait for them.
   * Interactive sessions detect at start: they say at once when there is no sandbox. */
  deferSandbox?: boolean;
}): Promise<SessionPermissions> {
  const settings = sandboxSettingsFrom(options.config, options.configFile);
  const loaded = await loadPermissionRules({
    seekHome: options.seekHome,
    projectRoot: options.root,
    userConfig: options.config,
    userConfigFile: options.configFile,
  });
  const home = options.env.HOME ?? homedir();
  const status = options.deferSandbox ? UNDETECTED : await detected(options.env, options.config, options.configFile);
  const sandbox = new SandboxLauncher({
    settings: {
      ...settings,
      denyRead: [...settings.denyRead, ...deniedPaths(loaded.rules, home, ['read'])],
      denyWrite: [...settings.denyWrite, ...deniedPaths(loaded.rules, home, ['edit', 'write'])],
    },
    status,
    home,
    seekHome: options.seekHome,
    env: { ...options.env },
  });
  const policy = createPolicy({
    root: options.root,
    interactive: options.interactive,
    ...(options.yolo ? { yolo: true } : {}),
    ...(options.auto ? { auto: true } : {}),
    ...(options.plan || (loaded.defaultMode === 'plan' && !options.yolo && !options.auto) ? { plan: true } : {}),
    ...(loaded.defaultMode !== undefined && loaded.defaultMode !== 'plan' ? { defaultPreference: loaded.defaultMode } : {}),
    rules: loaded.rules,
    sandbox: availability(status),
  });
  let settled: Promise<void> | undefined;
  const sandboxReady = (): Promise<void> =>
    (settled ??= options.deferSandbox
      ? detected(options.env, options.config, options.configFile).then((found) => {
          sandbox.settle(found);
          policy.settleSandbox(availability(found));
        })
      : Promise.resolve());
  const notices: string[] = [...loaded.notices];
  // Interactive: said once at start. Headless: each refusal it causes says why on stderr (with
  // the fix), so a script that never needed the sandbox keeps a clean stderr. Yolo sandboxes nothing.
  if (!options.deferSandbox && !status.available && options.interactive && policy.preference !== 'yolo') {
    notices.push(
      `No OS sandbox: ${status.reason ?? 'unknown reason'}. Commands that would run sandboxed (read-only inspectors, auto mode, plan steps, config allow rules) are asked before they run.` +
        `${status.fix ? ` To fix: ${status.fix}.` : ''} Details: seek sandbox check.`,
    );
  }
  // Headless scripts keep a clean stderr: --help and the README say the same for them.
  if (policy.preference === 'yolo' && options.interactive) notices.push('yolo: every action runs without asking, and commands run outside the OS sandbox.');
  return { policy, sandbox, notices, permissions: loaded, sandboxReady };
}

function availability(status: SandboxStatus): SandboxAvailability {
  return status.available ? { available: true } : { available: false, ...(status.reason ? { reason: status.reason } : {}) };
}

/** Saves an "always" answer's rule to the chosen config file, in seek's rule syntax. */
export function savedRuleWriter(seekHome: string, projectRoot: string): (scope: SavedRuleScope, rule: PolicyRule) => Promise<void> {
  return async (scope, rule) => {
    const { origin: _origin, ...plain } = rule;
    await addConfigRule({ scope, seekHome, projectRoot }, 'allow', formatRule(plain));
  };
}

/** The permission mode named by `/ask`, `/auto`, `/yolo`, `/plan` or Shift+Tab, applied; returns its
 * description for the user. */
export function applyMode(policy: PermissionPolicy, mode: 'ask' | 'auto' | 'yolo' | 'plan'): string {
  if (mode === 'plan') {
    policy.setWorkflow('plan_analyze');
  } else {
    policy.setWorkflow('none');
    policy.setPreference(mode);
  }
  if (mode === 'auto') return `auto (edits and commands inside the project without asking; ${policy.sandbox.available ? 'commands in the OS sandbox' : 'no OS sandbox here, so commands are asked'})`;
  return mode === 'plan' ? 'plan (read-only)' : mode;
}
