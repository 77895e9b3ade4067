// The OS sandbox for commands that run without a person's yes (issue 13): bubblewrap on Linux,
// sandbox-exec on macOS. The policy names a profile; the launcher wraps the spawn.
export { detectSandbox, detectSandboxAsync, findProgram } from './detect.js';
export { looksSecret, sandboxEnvironment } from './environment.js';
export { describeScope, SandboxLauncher, type SandboxLauncherOptions } from './launcher.js';
export { sandboxSettingsFrom, SandboxSettingsError } from './settings.js';
export {
  DEFAULT_SANDBOX_SETTINGS,
  profileWithin,
  SANDBOX_PROFILES,
  type SandboxProfile,
  type SandboxScope,
  type SandboxSettings,
  type SandboxStatus,
} from './types.js';
