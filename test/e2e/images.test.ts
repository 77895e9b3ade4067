/**
 * Issue 39, images, end to end: the real `seek -p -i PATH` against the scripted server on loopback.
 * Each provider's wire format carries the image (the request body checked), a DeepSeek chat model
 * refuses one before any request, an oversized image is scaled down, an unknown model's 400 about
 * images is explained, read_file of an image returns it, and a continued session sends the very
 * bytes it sent before, the image kept once by its hash.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();

async function png(root: string, name: string, width: number, height: number): Promise<Buffer> {
  // Noise, so the PNG does not compress to nothing and sizes mean something.
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 5) * 31) & 0xff;
  const bytes = await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
  writeFileSync(join(root, name), bytes);
  return bytes;
}

const anthropicEnv = (home: string) => ({ SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' });
const openaiEnv = (home: string) => ({ SEEK_HOME: home, OPENAI_API_KEY: 'k', SEEK_RETRY_BASE_MS: '1' });
const openaiArgs = (model: string, provider = 'openai') => ['--provider', provider, '--base-url', suite.server.openaiBaseUrl, '--model', model];

describe('an attached image goes in each provider own format', () => {
  it('Anthropic: an image block before the text, the file bytes as they are', async () => {
    const { root, home } = makeProject();
    const bytes = await png(root, 'shot.png', 64, 48);
    suite.server.enqueue({ text: 'a noisy square' });
    const run = await runSeek(['-p', '-i', 'shot.png', 'what is in it?'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('a noisy square\n');
    const content = suite.server.requests[0]!.body.messages[0].content;
    expect(content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
    expect(content[1].type).toBe('text');
    expect(content[1].text).toContain('what is in it?');
  });

  it('OpenAI: an image_url part with a data URL; -i repeats', async () => {
    const { root, home } = makeProject();
    const first = await png(root, 'a.png', 32, 32);
    const second = await png(root, 'b.png', 40, 20);
    suite.server.enqueue({ text: 'two images' });
    const run = await runSeek(['-p', '-i', 'a.png', '--image', 'b.png', ...openaiArgs('gpt-5-mini'), 'compare'], { cwd: root, env: openaiEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const user = suite.server.requests[0]!.body.messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content[0]).toMatchObject({ type: 'text' });
    expect(user.content.slice(1)).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${first.toString('base64')}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${second.toString('base64')}` } },
    ]);
  });

  it('a DeepSeek chat model refuses an image before any request: exit 2, a clear message', async () => {
    const { root, home } = makeProject();
    await png(root, 'shot.png', 16, 16);
    const run = await runSeek(['-p', '-i', 'shot.png', 'look'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Model "deepseek-v4-flash" cannot take images; nothing was sent/);
    expect(suite.server.requests).toHaveLength(0);
  });

  it('a missing file or one that is not an image: exit 2, nothing sent', async () => {
    const { root, home } = makeProject({ 'notes.txt': 'plain text\n' });
    const missing = await runSeek(['-p', '-i', 'nope.png', 'look'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No image file at nope\.png/);
    const text = await runSeek(['-p', '-i', 'notes.txt', 'look'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/notes\.txt is not a PNG, JPEG, GIF or WebP image/);
    expect(suite.server.requests).toHaveLength(0);
  });

  it('an unknown model is tried, and its 400 about images is explained', async () => {
    const { root, home } = makeProject();
    await png(root, 'shot.png', 16, 16);
    suite.server.enqueue({ httpError: { status: 400, message: 'Invalid content type. image_url is only supported by certain models.' } });
    const run = await runSeek(['-p', '-i', 'shot.png', ...openaiArgs('local-text-model', 'openai-compatible'), 'look'], { cwd: root, env: openaiEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(suite.server.requests).toHaveLength(1);
    expect(run.stderr).toMatch(/HTTP 400/);
    expect(run.stderr).toMatch(/The request held an image and model "local-text-model" may not take images/);
  });
});

describe('sizes', () => {
  it('an image larger than Anthropic takes is scaled down to 1568 pixels on its long side', async () => {
    const { root, home } = makeProject();
    await png(root, 'wide.png', 3000, 1000);
    suite.server.enqueue({ text: 'seen' });
    const run = await runSeek(['-p', '-i', 'wide.png', 'look'], { cwd: root, env: anthropicEnv(home), timeoutMs: 90_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\[Image #1: wide\.png, 1568x523, [\d.]+ (KB|MB)\] scaled down from 3000x1000/);
    const block = suite.server.requests[0]!.body.messages[0].content[0];
    const meta = await sharp(Buffer.from(block.source.data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([1568, 523]);
    expect(block.source.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
  });
});

describe('read_file of an image', () => {
  const readCall = { toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'shot.png' } }] };

  it('Anthropic: the tool result holds the image and its description', async () => {
    const { root, home } = makeProject();
    const bytes = await png(root, 'shot.png', 20, 10);
    suite.server.enqueue(readCall, { text: 'done' });
    const run = await runSeek(['-p', 'read shot.png'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const result = suite.server.requests[1]!.body.messages.at(-1).content[0];
    expect(result.type).toBe('tool_result');
    expect(result.content[0].text).toMatch(/shot\.png is an image: PNG image, 20x10/);
    expect(result.content[1].source.data).toBe(bytes.toString('base64'));
  });

  it('OpenAI: the image follows the tool message in a user message', async () => {
    const { root, home } = makeProject();
    const bytes = await png(root, 'shot.png', 20, 10);
    suite.server.enqueue(readCall, { text: 'done' });
    const run = await runSeek(['-p', ...openaiArgs('gpt-5-mini'), 'read shot.png'], { cwd: root, env: openaiEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const messages = suite.server.requests[1]!.body.messages;
    expect(messages.at(-2)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(messages.at(-1).role).toBe('user');
    expect(messages.at(-1).content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` } });
  });

  it('DeepSeek (cannot see): the description only, no image in the request', async () => {
    const { root, home } = makeProject();
    await png(root, 'shot.png', 20, 10);
    suite.server.enqueue(readCall, { text: 'done' });
    const run = await runSeek(['-p', 'read shot.png'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const raw = suite.server.requests[1]!.raw;
    expect(raw).not.toContain('image_url');
    expect(suite.server.requests[1]!.body.messages.at(-1).content).toMatch(/shot\.png is an image: PNG image, 20x10/);
  });
});

describe('sessions keep images by content hash', () => {
  it('--continue sends the earlier messages byte for byte; the session file holds the hash, not the image', async () => {
    const { root, home } = makeProject();
    const bytes = await png(root, 'shot.png', 50, 50);
    suite.server.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const env = openaiEnv(home);
    const first = await runSeek(['-p', '-i', 'shot.png', ...openaiArgs('gpt-5-mini'), 'look'], { cwd: root, env, timeoutMs: 60_000 });
    expect(first.code).toBe(0);
    const second = await runSeek(['-p', '-c', ...openaiArgs('gpt-5-mini'), 'again'], { cwd: root, env, timeoutMs: 60_000 });
    expect(second.code).toBe(0);
    const [one, two] = suite.server.requests.map((request) => request.raw);
    // Everything of the first request up to the end of its messages is the second one's prefix.
    const prefix = one!.slice(0, one!.indexOf('],"tools"'));
    expect(prefix).toContain(bytes.toString('base64'));
    expect(two!.startsWith(prefix)).toBe(true);

    const projects = join(home, 'projects');
    const [pid] = readdirSync(projects);
    const sessionsDir = join(projects, pid!, 'sessions');
    const file = readdirSync(sessionsDir).find((name) => name.endsWith('.jsonl'))!;
    const text = readFileSync(join(sessionsDir, file), 'utf8');
    expect(text).not.toContain(bytes.toString('base64').slice(0, 200));
    expect(text).toMatch(/"sha256":"[0-9a-f]{64}"/);
    expect(readdirSync(join(projects, pid!, 'images'))).toHaveLength(1);
  });

  it('a conversation rewound to before the second turn still sends the first turn image, byte for byte', async () => {
    const { root, home } = makeProject();
    const bytes = await png(root, 'shot.png', 30, 30);
    suite.server.enqueue({ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' });
    const env = anthropicEnv(home);
    expect((await runSeek(['-p', '-i', 'shot.png', 'look'], { cwd: root, env, timeoutMs: 60_000 })).code).toBe(0);
    expect((await runSeek(['-p', '-c', 'second'], { cwd: root, env, timeoutMs: 60_000 })).code).toBe(0);
    const rewind = await runSeek(['rewind', '2', '--conversation'], { cwd: root, env, timeoutMs: 60_000 });
    expect(rewind.code).toBe(0);
    const forkId = /new session (\S+)/.exec(rewind.stdout)?.[1];
    expect(forkId).toBeDefined();
    const resumed = await runSeek(['--resume', forkId!, '-p', 'third'], { cwd: root, env, timeoutMs: 60_000 });
    expect(resumed.stdout).toBe('third answer\n');
    const [first, , third] = suite.server.requests;
    expect(third!.body.messages[0].content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
    // The first message's bytes (the image block) are what the first request sent.
    const imageBlock = JSON.stringify(first!.body.messages[0].content[0]);
    expect(third!.raw).toContain(imageBlock);
    expect(JSON.stringify(third!.body.messages.map((m: { content: Array<{ text?: string }> }) => m.content.map((b) => b.text ?? '')))).not.toContain('second');
  });
});
