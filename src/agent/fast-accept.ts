/**
 * A fast "yes" for tool arguments that plainly match a tool's precomputed JSON schema
 * (`Tool.parameters`, which is what the tool's zod schema converts to), so that a call need not
 * build the zod schema, or load zod at all, to validate them: that costs about 10 ms at the first
 * tool call of a run on a 2-core machine (bench: the 20-turn workload's first turn).
 *
 * Contract: `acceptsAsIs` answers true only for a value the tool's zod schema accepts unchanged.
 * It knows the small part of JSON schema that zod writes for plain objects of strings, numbers,
 * integers, booleans, enums and arrays; a keyword outside it, a key the schema does not name, or
 * any other doubt is a "no", and the arguments go to zod as before (its errors, argument repair).
 * test/unit/agent/fast-accept.test.ts checks every built-in tool against zod on valid, invalid
 * and mutated arguments.
 */

type Schema = Record<string, unknown>;

/** Keywords that describe without constraining. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$schema']);
const CHECKED = new Set(['type', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems']);

export function acceptsAsIs(schema: unknown, value: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  for (const keyword of Object.keys(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) return false;
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || !schema.enum.some((option) => option === value)) return false;
  }
  switch (schema.type) {
    case 'string':
      return typeof value === 'string' && lengthWithin(schema, value.length);
    case 'integer':
      return Number.isSafeInteger(value) && numberWithin(schema, value as number);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && numberWithin(schema, value);
    case 'boolean':
      return typeof value === 'boolean' && onlyKeywords(schema, []);
    case 'object':
      return objectAccepted(schema, value);
    case 'array':
      return arrayAccepted(schema, value);
    default:
      return false;
  }
}

function objectAccepted(schema: Schema, value: unknown): boolean {
  if (!isPlainObject(value) || schema.enum !== undefined || !onlyKeywords(schema, ['properties', 'required', 'additionalProperties'])) return false;
  const { properties, required, additionalProperties } = schema;
  if (additionalProperties !== undefined && additionalProperties !== false) return false;
  if (required !== undefined && (!Array.isArray(required) || !required.every((name) => typeof name === 'string' && value[name] !== undefined))) return false;
  if (properties === undefined) {
    // `{type: "object"}` alone: any object (what zod writes for a loose object without keys).
    return additionalProperties === undefined && required === undefined;
  }
  if (!isPlainObject(properties)) return false;
  for (const [key, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined || !acceptsAsIs(property, item)) return false;
  }
  return true;
}

function arrayAccepted(schema: Schema, value: unknown): boolean {
  if (!Array.isArray(value) || schema.items === undefined || schema.enum !== undefined || !onlyKeywords(schema, ['items', 'minItems', 'maxItems'])) return false;
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) return false;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
  return value.every((item) => acceptsAsIs(schema.items, item));
}

function numberWithin(schema: Schema, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (!onlyKeywords(schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])) return false;
  if (minimum !== undefined && !(typeof minimum === 'number' && value >= minimum)) return false;
  if (maximum !== undefined && !(typeof maximum === 'number' && value <= maximum)) return false;
  if (exclusiveMinimum !== undefined && !(typeof exclusiveMinimum === 'number' && value > exclusiveMinimum)) return false;
  if (exclusiveMaximum !== undefined && !(typeof exclusiveMaximum === 'number' && value < exclusiveMaximum)) return false;
  return true;
}

/** zod measures a string's length in UTF-16 code units, as `length` does. */
function lengthWithin(schema: Schema, length: number): boolean {
  const { minLength, maxLength } = schema;
  if (!onlyKeywords(schema, ['minLength', 'maxLength'])) return false;
  if (minLength !== undefined && !(typeof minLength === 'number' && length >= minLength)) return false;
  if (maxLength !== undefined && !(typeof maxLength === 'number' && length <= maxLength)) return false;
  return true;
}

/** No constraint but `type`, `enum` and the given ones (a keyword of another type is a doubt). */
function onlyKeywords(schema: Schema, allowed: readonly string[]): boolean {
  return Object.keys(schema).every((keyword) => keyword === 'type' || keyword === 'enum' || ANNOTATIONS.has(keyword) || allowed.includes(keyword));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
