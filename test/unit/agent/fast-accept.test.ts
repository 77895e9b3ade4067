import { describe, expect, it } from 'vitest';
import { acceptsAsIs } from '../../../src/agent/fast-accept.js';
import { STATIC_TOOL_SCHEMAS } from '../../../src/tools/tool-schema-sources.js';
import { TOOL_PARAMETERS } from '../../../src/tools/tool-schemas.generated.js';

// The fast path may say "yes" only where zod would accept the arguments unchanged; a "no" costs
// nothing but zod's own check. Every built-in tool is tried on values generated from its schema,
// valid and mutated, with a fixed seed.

type Json = Record<string, unknown>;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const STRINGS = ['', 'a', 'src/index.ts', 'héllo wörld', '😀 emoji', ' ', 'x'.repeat(300), 'line\nbreak'];

function validValue(schema: Json, next: () => number): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[Math.floor(next() * schema.enum.length)];
  switch (schema.type) {
    case 'string': {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const candidates = STRINGS.filter((text) => text.length >= min && (typeof schema.maxLength !== 'number' || text.length <= schema.maxLength));
      return candidates[Math.floor(next() * candidates.length)];
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 100_000;
      const integer = min + Math.floor(next() * (max - min + 1));
      return schema.type === 'number' && next() < 0.5 ? Math.min(max, integer + 0.5) : integer;
    }
    case 'boolean':
      return next() < 0.5;
    case 'array': {
      const length = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, Math.floor(next() * 4));
      return Array.from({ length }, () => validValue(schema.items as Json, next));
    }
    case 'object': {
      const out: Json = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [key, property] of Object.entries((schema.properties as Record<string, Json> | undefined) ?? {})) {
        if (required.has(key) || next() < 0.6) out[key] = validValue(property, next);
      }
      if (!schema.properties && next() < 0.5) out.anything = { nested: [1, 'two'] };
      return out;
    }
    default:
      return null;
  }
}

const ODD_VALUES: unknown[] = [null, undefined, '', '1', 1, 1.5, -1, 0, 2 ** 53, Number.MAX_VALUE, true, false, [], ['a'], {}, { a: 1 }, 'x'.repeat(100_001)];

function mutated(value: Json, next: () => number): Json {
  const copy: Json = structuredClone(value);
  const keys = Object.keys(copy);
  const roll = next();
  if (roll < 0.25 && keys.length > 0) delete copy[keys[Math.floor(next() * keys.length)]!];
  else if (roll < 0.45) copy[['file_path', 'unknown', 'constructor', '__proto__', 'toString'][Math.floor(next() * 5)]!] = 'x';
  else if (keys.length > 0) copy[keys[Math.floor(next() * keys.length)]!] = ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
  return copy;
}

describe('acceptsAsIs', () => {
  for (const [name, parameters] of Object.entries(TOOL_PARAMETERS) as [string, Json][]) {
    it(`${name}: says yes only to what zod accepts unchanged, and to most valid arguments`, () => {
      const schema = STATIC_TOOL_SCHEMAS[name]!();
      const next = random(name.length * 7919);
      let valid = 0;
      let fast = 0;
      for (let i = 0; i < 300; i++) {
        const good = validValue(parameters, next) as Json;
        for (const value of [good, mutated(good, next), mutated(mutated(good, next), next)]) {
          const parsed = schema.safeParse(value);
          if (acceptsAsIs(parameters, value)) {
            expect(parsed.success, `${name} ${JSON.stringify(value)}`).toBe(true);
            expect(parsed.data).toEqual(value);
            fast += 1;
          }
          if (parsed.success) valid += 1;
        }
      }
      expect(valid).toBeGreaterThan(300);
      expect(fast / valid).toBeGreaterThan(0.8); // the fast path does its job
    });
  }

  it('says no to anything outside the JSON schema it knows, so zod decides', () => {
    const string = { type: 'object', properties: { a: { type: 'string' } } };
    expect(acceptsAsIs(string, { a: 'x' })).toBe(true);
    for (const keyword of [{ pattern: '^x' }, { format: 'uri' }, { anyOf: [{ type: 'string' }] }, { const: 'x' }, { $ref: '#/x' }]) {
      expect(acceptsAsIs({ type: 'object', properties: { a: { type: 'string', ...keyword } } }, { a: 'x' }), JSON.stringify(keyword)).toBe(false);
    }
    expect(acceptsAsIs({ type: 'object', properties: {}, additionalProperties: { type: 'string' } }, {})).toBe(false);
    expect(acceptsAsIs({ type: ['string', 'null'] }, 'x')).toBe(false);
    expect(acceptsAsIs(undefined, {})).toBe(false);
    expect(acceptsAsIs(string, { a: 'x', b: 1 })).toBe(false); // a key it does not name
    expect(acceptsAsIs({ type: 'integer' }, 2 ** 53)).toBe(false); // zod's integers are safe ones
    expect(acceptsAsIs({ type: 'string', minLength: 2 }, '😀')).toBe(true); // UTF-16 length, as zod
  });
});
