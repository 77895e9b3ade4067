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
 * Nothing is faked: where a scenario needs something seek's client does not do (elicitation,
 * OAuth), the adapter still runs seek as it is and the suite's verdict is recorded as such in
 * docs/mcp-conformance.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpManager, qualifiedName } from '../../src/mcp/index.js';

const SERVER = 'conformance';
/** Below the suite's 30 s client timeout, so seek's own failure is what gets reported. */
const TIMEOUT_MS = 10_000;

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

function say(line: string): void {
  process.stderr.write(`[seek-adapter] ${line}\n`);
}

async function run(serverUrl: string, scenario: string): Promise<boolean> {
  const plan = planFor(scenario);
  const home = mkdtempSync(join(tmpdir(), 'seek-conformance-home-'));
  const root = mkdtempSync(join(tmpdir(), 'seek-conformance-project-'));
  const definition = { type: 'http', url: serverUrl, startup_timeout_ms: TIMEOUT_MS, timeout_ms: TIMEOUT_MS };
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { [SERVER]: definition } }));
  const manager = await McpManager.open({ projectRoot: root, seekHome: home, cwd: root, env: process.env });
  try {
    for (const problem of manager.problems) say(`config problem: ${problem}`);
    await manager.settle(TIMEOUT_MS + 1000);
    const status = manager.statuses().find((entry) => entry.name === SERVER);
    say(`server state: ${status?.state ?? 'missing'}${status?.error ? ` (${status.error})` : ''}, ${status?.tools ?? 0} tool(s)`);
    if (status?.state !== 'ready') return false;
    if (!plan.call) return true;
    const found = await manager.find(qualifiedName(SERVER, plan.call.tool));
    if ('error' in found) {
      say(found.error);
      return false;
    }
    const result = await found.connection.callTool(plan.call.tool, plan.call.arguments, AbortSignal.timeout(TIMEOUT_MS * 2));
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
    say(`${plan.call.tool} → ${result.isError ? 'error: ' : ''}${text}`);
    if (result.isError) return false;
    return plan.expect === undefined || text.includes(plan.expect);
  } catch (error) {
    say(`failed: ${(error as Error).message}`);
    return false;
  } finally {
    await manager.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
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
