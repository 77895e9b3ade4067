// The baseline of the say-hello benchmark: the least a Node program can do to ask the model the
// same thing seek asks. It POSTs the request body in argv[3] (a file: seek's own first request)
// to argv[2] with node:http, reads the SSE stream to its end, prints the answer's text, and exits.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';

const [url, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const req = request(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer bench', 'content-length': body.length },
});
req.on('response', (res) => {
  let buffered = '';
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = event.startsWith('data: ') ? event.slice(6) : '';
      if (!data || data === '[DONE]') continue;
      text += JSON.parse(data).choices?.[0]?.delta?.content ?? '';
    }
  });
  res.on('end', () => process.stdout.write(`${text}\n`));
});
req.end(body);
