import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { SeekAcpAgent, type AcpSessionDefaults } from './agent.js';

/**
 * `seek acp`: serves one ACP client (an editor) over stdin/stdout, newline-delimited JSON-RPC,
 * until the client closes the connection; then every session is closed (hooks, worktrees, files)
 * and seek exits 0. Nothing else may write to stdout: it is the protocol's.
 */
export async function runAcp(defaults: AcpSessionDefaults): Promise<number> {
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const agent = new SeekAcpAgent(defaults);
  const connection = agent.app().connect(ndJsonStream(output, input));
  const stop = (): void => connection.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await connection.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await agent.closeAll();
  }
  return 0;
}
