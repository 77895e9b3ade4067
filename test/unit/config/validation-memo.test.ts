import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../../src/config/config.js';
import { knownValid, rememberValid } from '../../../src/config/validation-memo.js';

// A config.json that passed validation once is not validated again at every start (loading zod
// is ~10 ms of a start): its hash is remembered in SEEK_HOME/cache/validated.json.

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(config?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'seek-memo-'));
  homes.push(dir);
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), config, { mode: 0o600 });
  return dir;
}

const VALID = '{"model":"deepseek-chat","providers":{"deepseek":{"api_key":"k"}},"future_setting":1}';
const memoFile = (dir: string) => join(dir, 'cache', 'validated.json');

describe('the config validation memo', () => {
  it('remembers a config that passed, and reads the same config from it the next time', async () => {
    const dir = home(VALID);
    expect(existsSync(memoFile(dir))).toBe(false);
    const first = await readConfig(dir);
    expect(first).toEqual(JSON.parse(VALID));
    expect(knownValid(dir, 'config', VALID)).toBe(true);
    expect(JSON.parse(readFileSync(memoFile(dir), 'utf8'))).toEqual({ config: expect.stringMatching(/^[^:]+:\d+:[0-9a-f]{8}$/) });
    expect(await readConfig(dir)).toEqual(first);
  });

  it('skips validation only for the exact text it remembered: any change is validated again', async () => {
    const invalid = '{"model": 42}';
    const dir = home(invalid);
    await expect(readConfig(dir)).rejects.toThrow(ConfigError);
    expect(existsSync(memoFile(dir))).toBe(false); // an invalid config is never remembered
    // Remembered text is not checked again (here deliberately an invalid one, to show the skip)...
    rememberValid(dir, 'config', invalid);
    expect(await readConfig(dir)).toEqual({ model: 42 });
    // ...and one more byte is a new text.
    writeFileSync(join(dir, 'config.json'), `${invalid}\n`);
    await expect(readConfig(dir)).rejects.toThrow(/model/);
  });

  it('validates as usual when the memo is damaged, and writes it again', async () => {
    const dir = home(VALID);
    mkdirSync(join(dir, 'cache'), { recursive: true });
    for (const damaged of ['not json', '[1,2]', '{"config": 7}', '']) {
      writeFileSync(memoFile(dir), damaged);
      expect(await readConfig(dir)).toEqual(JSON.parse(VALID));
      expect(knownValid(dir, 'config', VALID)).toBe(true);
    }
  });

  it('removes a temporary file a killed writer left, once it is a minute old, and never one being written', async () => {
    const dir = home(VALID);
    mkdirSync(join(dir, 'cache'), { recursive: true });
    const abandoned = join(dir, 'cache', 'validated.json.999999.tmp');
    const fresh = join(dir, 'cache', 'validated.json.999998.tmp');
    writeFileSync(abandoned, '{"config":');
    utimesSync(abandoned, 1_000, 1_000);
    writeFileSync(fresh, '{"config":');
    await readConfig(dir);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(knownValid(dir, 'config', VALID)).toBe(true);
  });

  it('costs nothing but the saving when the memo cannot be written', async () => {
    const dir = home(VALID);
    writeFileSync(join(dir, 'cache'), 'a file where the cache folder would be');
    expect(await readConfig(dir)).toEqual(JSON.parse(VALID));
    expect(await readConfig(dir)).toEqual(JSON.parse(VALID));
    expect(readFileSync(join(dir, 'cache'), 'utf8')).toBe('a file where the cache folder would be');
  });
});
