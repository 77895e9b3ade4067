import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempStore } from './helpers.js';

const WRITER = fileURLToPath(new URL('../../support/memory-writer.ts', import.meta.url));

function writer(home: string, prefix: string, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, home, 'abcdefabcdefabcd', prefix, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(code) : reject(new Error(`writer ${prefix} exited ${code}: ${stderr}`))));
  });
}

describe('two seek processes writing one project memory', () => {
  it('lose no entry: 500 each, at the same time', async () => {
    const { home, store } = tempStore();
    await Promise.all([writer(home, 'left', 500), writer(home, 'right', 500)]);
    const lines = readFileSync(store.file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1000);
    const names = new Set((await store.load()).entries.map((entry) => entry.name));
    for (let i = 0; i < 500; i++) {
      expect(names.has(`left-${i}`)).toBe(true);
      expect(names.has(`right-${i}`)).toBe(true);
    }
  }, 120_000);
});
