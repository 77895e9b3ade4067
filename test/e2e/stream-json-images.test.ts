/**
 * Images in stream-json input, end to end: the real `seek -p --input-format stream-json` reads a
 * user message's image blocks (Anthropic's `image` with a base64 source, OpenAI's `image_url` with a
 * data URL) and the scripted server receives the image in each provider's own wire format. A block
 * that is not an image is answered with an `invalid_input` line naming it, nothing is sent for that
 * message, and the conversation reads on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';
import { StreamJsonSeek } from '../support/stream-json-client.js';

const suite = useScriptedServer();
const running: StreamJsonSeek[] = [];
afterEach(() => {
  for (const seek of running.splice(0)) seek.kill();
});

function start(root: string, env: Record<string, string>, args: string[] = []): StreamJsonSeek {
  const seek = StreamJsonSeek.start({ cwd: root, env, args });
  running.push(seek);
  return seek;
}

async function png(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 5) * 31) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const userMessage = (content: unknown[]) => ({ type: 'user', message: { role: 'user', content } });

describe('stream-json input with image blocks', { timeout: 120_000 }, () => {
  it('Anthropic: an image block reaches the request as an image block; a block that is not an image is refused by line', async () => {
    const { root, home } = makeProject();
    const bytes = await png(48, 32);
    suite.server.enqueue({ text: 'A noisy rectangle.' });
    const seek = start(root, { SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' });
    seek.send(userMessage([{ type: 'text', text: 'unsent-zebra' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from('plain text').toString('base64') } }]));
    seek.send(userMessage([{ type: 'text', text: 'what is in it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } }]));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'A noisy rectangle.' });
    const refused = seek.lines.filter((line) => line.type === 'error' && line.kind === 'invalid_input');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ line: 1 });
    expect(refused[0]!.message).toMatch(/image 1 is not a PNG, JPEG, GIF or WebP image/);
    expect(suite.server.requests).toHaveLength(1);
    const content = suite.server.requests[0]!.body.messages.at(-1).content;
    expect(content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
    expect(JSON.stringify(content)).toContain('what is in it?');
    expect(JSON.stringify(suite.server.requests[0]!.body)).not.toContain('unsent-zebra');
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('OpenAI-compatible: an image_url block with a data URL reaches the request as an image_url part', async () => {
    const { root, home } = makeProject();
    const bytes = await png(40, 40);
    suite.server.enqueue({ text: 'A square.' });
    const args = ['--provider', 'openai', '--base-url', suite.server.openaiBaseUrl, '--model', 'gpt-5-mini'];
    const seek = start(root, { SEEK_HOME: home, OPENAI_API_KEY: 'k', SEEK_RETRY_BASE_MS: '1' }, args);
    const url = `data:image/png;base64,${bytes.toString('base64')}`;
    seek.send(userMessage([{ type: 'image_url', image_url: { url } }, { type: 'text', text: 'describe' }]));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'A square.' });
    const user = suite.server.requests[0]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1);
    expect(user.content).toContainEqual({ type: 'image_url', image_url: { url } });
    expect(JSON.stringify(user.content)).toContain('describe');
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('a custom slash command with an image: the image goes with the expanded prompt', async () => {
    const { root, home } = makeProject();
    mkdirSync(path.join(root, '.seek', 'commands'), { recursive: true });
    writeFileSync(path.join(root, '.seek', 'commands', 'describe.md'), 'Describe the attached picture, focusing on $ARGUMENTS.\n');
    const bytes = await png(36, 24);
    suite.server.enqueue({ text: 'Stripes.' });
    const seek = start(root, { SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' });
    seek.send(userMessage([{ type: 'text', text: '/describe colours' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } }]));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'Stripes.' });
    expect(suite.server.requests).toHaveLength(1);
    const content = suite.server.requests[0]!.body.messages.at(-1).content;
    expect(content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
    expect(JSON.stringify(content)).toContain('focusing on colours');
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('a built-in slash command that sends no prompt, with an image: a notice says the image was not used', async () => {
    const { root, home } = makeProject();
    const bytes = await png(20, 20);
    const seek = start(root, { SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' });
    seek.send(userMessage([{ type: 'text', text: '/cost' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } }]));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result).toMatchObject({ subtype: 'success' });
    const notice = seek.lines.find((line) => line.type === 'notice');
    expect(notice).toMatchObject({ level: 'warn' });
    expect(String(notice!.text)).toMatch(/\/cost runs here and sends no prompt: the 1 image with it was not used/);
    expect(seek.lines.indexOf(notice!)).toBeLessThan(seek.lines.indexOf(result));
    expect(suite.server.requests).toHaveLength(0);
    seek.close();
    expect(await seek.exited).toBe(0);
  });
});
