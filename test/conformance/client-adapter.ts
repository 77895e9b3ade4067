/**
 * "The client" for the client scenarios of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, run by scripts/mcp-conformance.sh).
 *
 * The suite starts a test server per scenario, then runs `<command> <server-url>` with
 * MCP_CONFORMANCE_SCENARIO set, and judges what the server saw. This program puts seek's own MCP
 * client in front of that server the way a session does: a temporary SEEK_HOME whose mcp.json holds
 * `{ type: "http", url }`, opened with McpManager (so config loading, McpConnection, the Streamable
 * HTTP transport with its SSE fallback, tool listing and callTool are all seek's code), then does
 * what the scenario needs and exits 0 when seek got the expected answer, 1 otherwise.
 *
 * The auth scenarios go first through what a user does: `seek mcp login conformance` (seek's
 * loginToServer, with SEEK_MCP_AUTH_OPENER as the browser: it GETs the authorization URL and follows
 * the suite's redirect to seek's loopback callback), with the pre-registered client the suite gives
 * in MCP_CONFORMANCE_CONTEXT put in the server's `oauth` field; then the session as above, whose
 * token comes from the stored login. A call that says "needs login" (step-up) gets one more login.
 *
 * The session is an interactive one (it declares elicitation) whose user presses Enter through
 * every form a server shows: the handler answers with the form's defaults, made by seek's own
 * src/mcp/elicitation.ts, as the terminal UI's form does when nothing is changed.
 *
 * Nothing is faked: where a scenario needs something seek's client does not do (the
 * client-credentials grant), the adapter still runs seek as it is and the suite's verdict is
 * recorded as such in docs/mcp-conformance.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMcpConfig } from '../../src/mcp/config.js';
import { McpManager, qualifiedName } from '../../src/mcp/index.js';
import { loginToServer } from '../../src/mcp/oauth-login.js';
import { NeedsLoginError } from '../../src/mcp/oauth.js';
import { defaultContent, elicitationFields } from '../../src/mcp/elicitation.js';

const SERVER = 'conformance';
/** Below the suite's 30 s client timeout, so seek's own failure is what gets reported. */
const TIMEOUT_MS = 10_000;
/** Stands in for the browser in `seek mcp login` (SEEK_MCP_AUTH_OPENER): GETs the authorization URL
 * and follows its redirects. The suite's authorization server shows no login page: it redirects
 * straight to the redirect URI with a code, so the GET ends at seek's own loopback callback. */
const OPENER = fileURLToPath(new URL('../fixtures/mcp/oauth-opener.mjs', import.meta.url));

interface Plan {
  /** The tool to call after listing, with its arguments; none: connect and list only. */
  call?: { tool: string; arguments: Record<string, unknown> };
  /** Text the tool's result must contain for the run to count as done. */
  expect?: string;
}

/** What each client scenario of the suite (0.1.16) asks of a client. */
function planFor(scenario: string): Plan {
  if (scenario === 'initialize') return {};
  if (scenario === 'tools_call') return { call: { tool: 'add_numbers', arguments: { a: 5, b: 3 } }, expect: 'The sum of 5 and 3 is 8' };
  if (scenario === 'sse-retry') return { call: { tool: 'test_reconnection', arguments: {} }, expect: 'Reconnection test completed successfully' };
  if (scenario.startsWith('elicitation-')) return { call: { tool: 'test_client_elicitation_defaults', arguments: {} } };
  // The auth scenarios: a protected server whose tools/list and `test-tool` need a token.
  if (scenario.startsWith('auth/')) return { call: { tool: 'test-tool', arguments: {} } };
  throw new Error(`unknown scenario ${scenario}`);
}

/** The suite gives a pre-registered client (auth/pre-registration) in MCP_CONFORMANCE_CONTEXT;
 * a user puts it in the server's `oauth` field. */
function preRegistered(): { oauth?: { client_id: string; client_secret?: string } } {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: unknown; client_secret?: unknown };
  if (typeof context.client_id !== 'string') return {};
  return { oauth: { client_id: context.client_id, ...(typeof context.client_secret === 'string' ? { client_secret: context.client_secret } : {}) } };
}

/** `seek mcp login conformance`, as the command runs it, with OPENER instead of a browser. */
async function login(home: string, root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const { servers } = await loadMcpConfig(root, home);
  const server = servers.find((entry) => entry.name === SERVER);
  if (!server) return false;
  try {
    const result = await loginToServer({ server, seekHome: home, env: { ...env, SEEK_MCP_AUTH_OPENER: OPENER }, say: (text) => say(text.trim()), timeoutMs: TIMEOUT_MS });
    say(`login: ${result.loggedIn ? 'logged in' : 'no login needed'}, ${result.tools} tool(s)`);
    return true;
  } catch (error) {
    say(`login failed: ${(error as Error).message}`);
    return false;
  }
}

function say(line: string): void {
  process.stderr.write(`[seek-adapter] ${line}\n`);
}

async function run(serverUrl: string, scenario: string): Promise<boolean> {
  const plan = planFor(scenario);
  const home = mkdtempSync(join(tmpdir(), 'seek-conformance-home-'));
  const root = mkdtempSync(join(tmpdir(), 'seek-conformance-project-'));
  const definition = { type: 'http', url: serverUrl, startup_timeout_ms: TIMEOUT_MS, timeout_ms: TIMEOUT_MS, ...preRegistered() };
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { [SERVER]: definition } }));
  const env = { ...process.env, SEEK_HOME: home };
  let manager: McpManager | undefined;
  try {
    // What a user does first with a server that wants OAuth: `seek mcp login NAME`.
    if (scenario.startsWith('auth/') && !(await login(home, root, env))) return false;
    manager = await McpManager.open({ projectRoot: root, seekHome: home, cwd: root, env, elicitation: true });
    manager.setElicitationHandler(async (request) => {
      const content = defaultContent(elicitationFields(request.requestedSchema));
      say(`elicitation from ${request.server}: "${request.message}"; accepted with the defaults ${JSON.stringify(content)}`);
      return { action: 'accept', content };
    });
    for (const problem of manager.problems) say(`config problem: ${problem}`);
    await manager.settle(TIMEOUT_MS + 1000);
    const status = manager.statuses().find((entry) => entry.name === SERVER);
    say(`server state: ${status?.state ?? 'missing'}${status?.error ? ` (${status.error})` : ''}, ${status?.tools ?? 0} tool(s)`);
    if (status?.state !== 'ready') return false;
    if (!plan.call) return true;
    const first = await callPlanned(manager, plan);
    // What the user does when a call says "needs login" (a server asking for more scope, step-up):
    // log in again, `/mcp reconnect`, call again. Once: a second refusal is the answer.
    if (first !== 'needs login' || !scenario.startsWith('auth/')) return first === 'ok';
    if (!(await login(home, root, env))) return false;
    await manager.reconnect(SERVER);
    await manager.settle(TIMEOUT_MS + 1000);
    return (await callPlanned(manager, plan)) === 'ok';
  } catch (error) {
    say(`failed: ${(error as Error).message}`);
    return false;
  } finally {
    await manager?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}

/** Calls the plan's tool through seek's connection, as mcp_call does. */
async function callPlanned(manager: McpManager, plan: Plan): Promise<'ok' | 'failed' | 'needs login'> {
  if (!plan.call) return 'ok';
  const found = await manager.find(qualifiedName(SERVER, plan.call.tool));
  if ('error' in found) {
    say(found.error);
    return 'failed';
  }
  try {
    const result = await found.connection.callTool(plan.call.tool, plan.call.arguments, AbortSignal.timeout(TIMEOUT_MS * 2));
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
    say(`${plan.call.tool} → ${result.isError ? 'error: ' : ''}${text}`);
    return !result.isError && (plan.expect === undefined || text.includes(plan.expect)) ? 'ok' : 'failed';
  } catch (error) {
    say(`${plan.call.tool} failed: ${(error as Error).message}`);
    return error instanceof NeedsLoginError ? 'needs login' : 'failed';
  }
}

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
if (!serverUrl || !scenario) {
  say('usage: MCP_CONFORMANCE_SCENARIO=<name> client-adapter <server-url>');
  process.exit(2);
}
const ok = await run(serverUrl, scenario);
say(ok ? 'done' : 'FAILED');
// The SDK may keep a standalone GET stream open; the verdict is in, so end now.
process.exit(ok ? 0 : 1);
