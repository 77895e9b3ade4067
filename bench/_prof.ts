import { ScriptedServer } from '../test/support/scripted-server/index.js';
import { makeProject } from '../test/support/seek-process.js';
import { openSession } from '../src/runtime/session.js';
const server = await ScriptedServer.start();
const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\nline three\n' });
for (let s = 0; s < 6; s++) {
  server.reset();
  for (let t = 0; t < 99; t++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: 1 + (t % 3) } }] });
  server.enqueue({ text: 'done' });
  const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url }, interactive: false, maxTurns: 200, save: false });
  await session.prompt('read');
  await session.close();
  const r = server.requests; let gaps = 0;
  for (let i = 1; i < r.length; i++) gaps += r[i]!.receivedAt - r[i - 1]!.respondedAt!;
  console.log('per turn', (gaps / 99).toFixed(2));
}
await server.close();
