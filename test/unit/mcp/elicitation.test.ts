import { describe, expect, it } from 'vitest';
import { checkValue, defaultContent, elicitationFields, formContent, initialDrafts, parseTyped, type ElicitationField } from '../../../src/mcp/elicitation.js';

/** The shape of server-everything's trigger-elicitation-request form (a subset), as data. */
const SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string', title: 'String', description: 'Your full, legal name' },
    check: { type: 'boolean', title: 'Boolean' },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email' },
    integer: { type: 'integer', title: 'Integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
    friend: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
    hero: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Wonder Woman' }], default: 'hero-2' },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    fish: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] }, default: ['fish-1'] },
    agree: { type: 'boolean', default: true },
    badDefault: { type: 'string', enum: ['a', 'b'], default: 'zzz' },
  },
  required: ['name'],
};

const fields = elicitationFields(SCHEMA as never);
const field = (key: string): ElicitationField => fields.find((entry) => entry.key === key)!;

describe('elicitationFields', () => {
  it('keeps the schema order, titles (or keys), descriptions and required', () => {
    expect(fields.map((entry) => entry.key)).toEqual(Object.keys(SCHEMA.properties));
    expect(field('name')).toMatchObject({ label: 'String', description: 'Your full, legal name', required: true, kind: 'text' });
    expect(field('firstLine')).toMatchObject({ label: 'firstLine', required: false });
  });

  it('derives kinds, constraints and options from every enum form', () => {
    expect(field('check').kind).toBe('boolean');
    expect(field('integer')).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100 });
    expect(field('email')).toMatchObject({ kind: 'text', format: 'email' });
    expect(field('friend').options).toEqual([{ value: 'Monica', label: 'Monica' }, { value: 'Rachel', label: 'Rachel' }]);
    expect(field('hero')).toMatchObject({ kind: 'choice', options: [{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Wonder Woman' }] });
    expect(field('pet').options).toEqual([{ value: 'pet-1', label: 'Cats' }, { value: 'pet-2', label: 'Dogs' }]);
    expect(field('fish')).toMatchObject({ kind: 'multi', minItems: 1, maxItems: 2, options: [{ value: 'fish-1', label: 'Tuna' }, { value: 'fish-2', label: 'Salmon' }] });
  });
});

describe('defaultContent (SEP-1034)', () => {
  it('applies every default of every type, and no value where there is none or it does not fit', () => {
    expect(defaultContent(fields)).toEqual({
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      friend: 'Monica',
      hero: 'hero-2',
      fish: ['fish-1'],
      agree: true,
    });
  });
});

describe('parseTyped', () => {
  it('parses numbers in range and says what is wrong otherwise', () => {
    expect(parseTyped(field('integer'), ' 7 ')).toEqual({ value: 7 });
    expect(parseTyped(field('integer'), '7.5')).toEqual({ error: 'Integer must be a whole number' });
    expect(parseTyped(field('integer'), '101')).toEqual({ error: 'Integer must be 1 to 100' });
    expect(parseTyped(field('integer'), '12abc')).toEqual({ error: 'Integer must be a number' });
    expect(parseTyped(field('number'), '2.5')).toEqual({ value: 2.5 });
  });

  it('checks required, length and formats of text', () => {
    expect(parseTyped(field('name'), '')).toEqual({ error: 'String is required' });
    expect(parseTyped(field('firstLine'), '')).toEqual({});
    expect(parseTyped(field('email'), 'ann@example.com')).toEqual({ value: 'ann@example.com' });
    expect(parseTyped(field('email'), 'ann')).toEqual({ error: 'email must be an email address' });
    const short: ElicitationField = { key: 'code', label: 'Code', required: false, kind: 'text', options: [], minLength: 2, maxLength: 3 };
    expect(parseTyped(short, 'abcd')).toEqual({ error: 'Code must have 2 to 3 characters' });
    const date: ElicitationField = { key: 'd', label: 'Day', required: false, kind: 'text', options: [], format: 'date' };
    expect(parseTyped(date, '2024-02-30x')).toHaveProperty('error');
    expect(parseTyped(date, '2024-02-03')).toEqual({ value: '2024-02-03' });
  });
});

describe('checkValue', () => {
  it('counts a multi-select’s picks and requires what is required', () => {
    expect(checkValue(field('fish'), ['fish-1'])).toBeUndefined();
    expect(checkValue(field('fish'), [])).toBe('fish needs 1 to 2 choices');
    expect(checkValue(field('name'), undefined)).toBe('String is required');
    expect(checkValue(field('check'), undefined)).toBeUndefined();
  });
});

describe('initialDrafts and formContent', () => {
  it('an untouched form accepts with exactly the defaults once the required field is filled', () => {
    const drafts = initialDrafts(fields);
    expect(drafts.integer).toBe('42');
    expect(formContent(fields, drafts)).toEqual({ key: 'name', error: 'String is required' });
    expect(formContent(fields, { ...drafts, name: 'Ann' })).toEqual({ content: { name: 'Ann', ...defaultContent(fields) } });
  });

  it('typed numbers become numbers, and the first bad field is named', () => {
    const drafts = { ...initialDrafts(fields), name: 'Ann', integer: '7', check: false };
    expect(formContent(fields, drafts)).toMatchObject({ content: { integer: 7, check: false } });
    expect(formContent(fields, { ...drafts, integer: '700' })).toEqual({ key: 'integer', error: 'Integer must be 1 to 100' });
  });
});
