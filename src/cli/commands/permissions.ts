import path from 'node:path';
import { Command, Option } from 'commander';
import type { ActionRequest } from '../../agent/types.js';
import { readConfig } from '../../config/config.js';
import { configFile, findProjectRoot, seekHome } from '../../config/paths.js';
import { updateTrustRecord } from '../../hooks/trust.js';
import { CLAUDE_CODE_TOOL_ALIASES, seekToolNames } from '../../tools/tool-names.js';
import { explainCommand } from '../../policy/command-rules.js';
import { currentProjectPermissionsHash } from '../../policy/config-rules.js';
import { formatRule } from '../../policy/rules.js';
import { loadShellParser } from '../../policy/shell-parser.js';
import { PREFERENCES, type PolicyDecision, type PolicyRule, type Preference } from '../../policy/types.js';
import { setUpPermissions } from '../../runtime/permissions.js';
import { loadCommands } from '../../extensions/commands.js';
import { loadSkills } from '../../extensions/skills.js';
import { grantingFiles, isProjectSource, projectGrantsHash, type GrantingFile } from '../../extensions/grants.js';
import { slashInvocable } from '../../extensions/invocable.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

/** The action a call of `tool` with `arg` would describe, as the tools themselves describe it. */
function actionFor(tool: string, arg: string, cwd: string): ActionRequest {
  if (tool === 'bash') return { kind: 'bash', paths: [cwd], command: arg, summary: `bash: ${arg}` };
  const target = path.resolve(cwd, arg);
  if (tool === 'write_file') return { kind: 'write', paths: [target], summary: `write ${arg}` };
  if (tool === 'edit_file') return { kind: 'edit', paths: [target], summary: `edit ${arg}` };
  if (['read_file', 'glob', 'grep', 'list_dir'].includes(tool)) return { kind: 'read', paths: [target], summary: `${tool} ${arg}` };
  if (tool === 'git') return { kind: 'git', paths: [cwd], command: `git ${arg}`, summary: `git ${arg}` };
  // web_fetch takes a URL or a host (`domain:example.com` too); web_search any query.
  if (tool === 'web_fetch') return { kind: 'other', paths: [], host: URL.canParse(arg) ? new URL(arg).hostname : arg.replace(/^domain:/, ''), readOnlyHint: true, summary: `fetch ${arg}` };
  if (tool === 'web_search') return { kind: 'other', paths: [], readOnlyHint: true, summary: `search the web: ${arg}` };
  return { kind: 'other', paths: [], command: arg, summary: `${tool} ${arg}` };
}

function sourceLabel(rule: PolicyRule): string {
  const file = rule.origin?.file;
  return file ? `${rule.source} (${file})` : rule.source;
}

function explain(decision: PolicyDecision, mode: string): string {
  const lines = [`decision: ${decision.decision}${decision.decision === 'allow' && decision.sandbox ? ` (in the ${decision.sandbox} sandbox)` : ''}`];
  if (decision.rule) lines.push(`rule: ${formatRule(decision.rule)} from ${sourceLabel(decision.rule)}`);
  const why: Record<string, string> = {
    deny_rule: 'a deny rule matched (deny beats ask beats allow, in every mode)',
    ask_rule: `an ask rule matched: it asks in every mode; ${decision.decision === 'ask' ? 'a prompt' : 'a denial, since nobody can be asked'} here`,
    inspector: 'a read-only inspector command: runs without asking, in the read-only sandbox',
    auto: 'auto mode: edits and commands inside the project run without asking (commands sandboxed)',
    plan_analyze: 'plan mode decides: only reads inside the project',
    plan_execute: 'an approved plan is running',
    rule: 'an allow rule matched',
    yolo: 'yolo mode allows everything',
    safe: 'not dangerous by default (a read inside the project)',
    dangerous: `needs approval by default; in ${mode} mode that means ${decision.decision === 'ask' ? 'a prompt' : 'a denial'}`,
  };
  lines.push(`why: ${why[decision.code] ?? decision.code}`);
  if (decision.decision === 'deny') lines.push(`message to the model: ${decision.message}`);
  if (decision.decision === 'ask') lines.push(`asks: ${decision.reason}; "always" would add ${formatRule(decision.suggestedRule)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `seek permissions list [--json]`, `seek permissions check TOOL ARG [--mode M]`,
 * `seek permissions trust [--reset]`. TOOL is a seek tool name or a Claude Code one (Bash, Read,
 * Edit, Write…). Exit 0; 1 on problems; 2 on bad usage or a config file that does not parse.
 */
export function createPermissionsCommand(io: CommandIO = processIO): Command {
  const guarded = guardedBy(io);
  const setUp = async (mode?: string) => {
    const home = seekHome(io.env);
    const root = findProjectRoot(io.cwd());
    const config = await readConfig(home);
    const preference = mode === undefined || mode === 'plan' ? undefined : (mode as Preference);
    const set = await setUpPermissions({
      root,
      seekHome: home,
      configFile: configFile(home),
      config,
      env: io.env,
      interactive: mode === 'ask',
      ...(preference === 'yolo' ? { yolo: true } : {}),
      ...(preference === 'auto' ? { auto: true } : {}),
      ...(mode === 'plan' ? { plan: true } : {}),
    });
    if (preference && preference !== 'yolo' && preference !== 'auto') set.policy.setPreference(preference);
    return { ...set, root, home };
  };

  const command = new Command('permissions')
    .description('permission rules from your config files: list them, see which one decides an action, trust a project\'s')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .description('every rule with its source file, and rules held back until the project is trusted')
    .option('--json', 'print JSON')
    .action(
      guarded(async (opts: { json?: boolean }) => {
        const { permissions, policy, sandbox } = await setUp();
        if (opts.json) {
          const row = (r: PolicyRule) => ({ rule: formatRule(r), decision: r.decision, source: r.source, file: r.origin?.file ?? null });
          io.out(`${JSON.stringify({ rules: permissions.rules.map(row), untrusted: permissions.untrusted.map(row), default_mode: permissions.defaultMode ?? null, mode: policy.mode, sandbox: sandbox.status.available }, null, 2)}\n`);
          return;
        }
        const lines: string[] = [`mode at start: ${policy.mode}${permissions.defaultMode ? ` (defaultMode from config)` : ''}; sandbox: ${sandbox.status.available ? 'available' : `none (${sandbox.status.reason})`}`];
        // One config text can stand for several policy rules (Edit = edits and writes): list it once.
        const seen = new Set<string>();
        const line = (rule: PolicyRule, note = ''): void => {
          const key = `${rule.decision}|${formatRule(rule)}|${rule.origin?.file}`;
          if (seen.has(key)) return;
          seen.add(key);
          lines.push(`${rule.decision.padEnd(5)}  ${formatRule(rule).padEnd(32)}  ${sourceLabel(rule)}${note}`);
        };
        for (const rule of permissions.rules) line(rule);
        if (permissions.rules.length === 0) lines.push('no rules in config files (defaults apply: reads inside the project allowed, edits and commands asked)');
        for (const rule of permissions.untrusted) line(rule, '  [not applied: project not trusted; seek permissions trust]');
        io.out(`${lines.join('\n')}\n`);
      }),
    );

  command
    .command('check')
    .description("which rule decides TOOL with ARG (a command for bash, a path for file tools), and why; also as one word: 'Bash(npm test)'")
    .argument('<tool>', "bash, read_file, write_file, edit_file… or Bash, Read, Edit, Write; or the whole call, 'Bash(curl -s x)'")
    .argument('[arg]', 'the command or path')
    .addOption(new Option('--mode <mode>', 'the mode to decide in (default: as seek -p would start)').choices([...PREFERENCES, 'plan']))
    .action(
      guarded(async (toolWord: string, argWord: string | undefined, opts: { mode?: string }) => {
        const call = argWord === undefined ? /^([A-Za-z_][\w-]*)\((.*)\)$/s.exec(toolWord.trim()) : undefined;
        const [toolName, arg] = call ? [call[1]!, call[2]!] : [toolWord, argWord];
        if (arg === undefined) {
          io.err(`seek: permissions check needs TOOL ARG, or the call as one word: seek permissions check 'Bash(npm test)'\n`);
          io.setExitCode(2);
          return;
        }
        const tool = seekToolNames().includes(toolName) ? toolName : CLAUDE_CODE_TOOL_ALIASES.get(toolName);
        if (!tool) {
          io.err(`seek: unknown tool ${toolName}; known: ${seekToolNames().join(', ')} (or Claude Code's Bash, Read, Edit, Write…)\n`);
          io.setExitCode(2);
          return;
        }
        const { policy } = await setUp(opts.mode);
        let parsed: string[] = [];
        if (tool === 'bash') {
          // Rules judge the simple commands the line runs: show them (the grammar loads here).
          try {
            await loadShellParser();
          } catch (error) {
            io.err(`seek: ${(error as Error).message}; every command counts as unreadable\n`);
          }
          parsed = explainCommand(arg, policy.rules, { root: policy.root, cwd: io.cwd() });
        }
        const decision = policy.evaluate(actionFor(tool, arg, io.cwd()), { tool, cwd: io.cwd(), canAsk: policy.preference === 'ask' || policy.preference === 'auto' });
        io.out(`${tool}(${arg}) in ${policy.mode} mode\n${parsed.map((line) => `${line}\n`).join('')}${explain(decision, policy.mode)}`);
      }),
    );

  command
    .command('trust')
    .description("apply this project's allow rules, default mode and its commands' and skills' allowed-tools as they are now (re-asked when they change)")
    .option('--reset', 'stop trusting them')
    .action(
      guarded(async (opts: { reset?: boolean }) => {
        const home = seekHome(io.env);
        const root = findProjectRoot(io.cwd());
        if (opts.reset) {
          await updateTrustRecord(home, root, { permissions_sha256: '', grants_sha256: '' });
          io.out(`project permission rules and command allowed-tools of ${root} are no longer trusted\n`);
          return;
        }
        const hash = currentProjectPermissionsHash(root);
        const grants = await projectGrants(root, home, io.env.HOME);
        if (hash === undefined && grants.hash === undefined) {
          io.out(`nothing to trust: ${root}/.seek/config.json and config.local.json have no allow rules or default mode, and no project command or skill has allowed-tools\n`);
          return;
        }
        await updateTrustRecord(home, root, { ...(hash !== undefined ? { permissions_sha256: hash } : {}), ...(grants.hash !== undefined ? { grants_sha256: grants.hash } : {}) });
        if (hash !== undefined) {
          const { permissions } = await setUp();
          io.out(`trusted: ${permissions.rules.filter((r) => r.source !== 'user' && r.decision === 'allow').map((r) => formatRule(r)).filter((t, i, all) => all.indexOf(t) === i).join(', ') || '(default mode only)'}\n`);
        }
        for (const file of grants.files) io.out(`trusted: ${file.by} (${file.file}) runs without asking: ${file.entries.join(', ')}\n`);
      }),
    );
  return command;
}

/** The project's commands and skills that grant tools (allowed-tools), and the hash trust records. */
async function projectGrants(root: string, home: string, userHome: string | undefined): Promise<{ hash?: string; files: GrantingFile[] }> {
  const roots = { projectRoot: root, seekHome: home, ...(userHome ? { home: userHome } : {}) };
  const [commands, skills] = await Promise.all([loadCommands(roots), loadSkills(roots)]);
  const files = grantingFiles(slashInvocable(commands.commands, skills.skills, [])).filter((file) => isProjectSource(file.source));
  const hash = projectGrantsHash(files, root);
  return { ...(hash !== undefined ? { hash } : {}), files };
}
