// The baseline of the 20-turn workload: the least a Node agent loop can do between a model's
// tool call and its next request. It POSTs argv[3] (a file: seek's own first request body) to
// argv[2] with node:http, reads the SSE stream, and while the answer is a read_file call it reads
// the lines asked for, appends the call and its result to the messages, and asks again.
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';

const [url, bodyFile] = process.argv.slice(2);
const body = JSON.parse(await readFile(bodyFile, 'utf8'));
const agent = new Agent({ keepAlive: true });

function ask(payload) {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(JSON.stringify(payload));
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: 'Bearer bench', 'content-length': bytes.length } });
    req.on('error', reject);
    req.on('response', (res) => {
      let buffered = '';
      let text = '';
      const calls = [];
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffered += chunk;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = event.startsWith('data: ') ? event.slice(6) : '';
          if (!data || data === '[DONE]') continue;
          const delta = JSON.parse(data).choices?.[0]?.delta ?? {};
          text += delta.content ?? '';
          for (const part of delta.tool_calls ?? []) {
            const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
            call.id += part.id ?? '';
            call.name += part.function?.name ?? '';
            call.arguments += part.function?.arguments ?? '';
          }
        }
      });
      res.on('end', () => resolve({ text, calls }));
      res.on('error', reject);
    });
    req.end(bytes);
  });
}

for (;;) {
  const { text, calls } = await ask(body);
  if (calls.length === 0) {
    process.stdout.write(`${text}\n`);
    break;
  }
  body.messages.push({ role: 'assistant', content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
  for (const call of calls) {
    const args = JSON.parse(call.arguments);
    const lines = (await readFile(args.path, 'utf8')).split('\n');
    const from = (args.offset ?? 1) - 1;
    const content = lines.slice(from, from + 2000).map((line, i) => `${String(from + i + 1).padStart(6)}\t${line}`).join('\n');
    body.messages.push({ role: 'tool', tool_call_id: call.id, content });
  }
}
agent.destroy();
