import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP elicitation, form mode: a server asks the user for a few values mid-call
 * (`elicitation/create` with a `requestedSchema`, a flat object of primitive properties). This
 * file turns that schema into fields a front end can show, the answer made of every default
 * (SEP-1034: a user who presses Enter through the form sends the defaults), and the parsing and
 * checking of what the user typed. No UI here.
 */

/** What a front end is asked: which server, its message, the schema. */
export interface ElicitationRequest {
  server: string;
  message: string;
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
}

/** The user's answer: accept (with content), decline (Esc), cancel (dismissed, Ctrl+C). */
export type ElicitationAnswer = ElicitResult;

/** Installed by an interactive front end on the McpManager; `signal` aborts when the call that
 * caused the question is cancelled (the question must then go away). */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export type FieldValue = string | number | boolean | string[];

export interface ElicitationOption {
  value: string;
  label: string;
}

export interface ElicitationField {
  key: string;
  /** The title, or the key when there is none. */
  label: string;
  description?: string;
  required: boolean;
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'multi';
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /** choice and multi: the allowed values with what to show for each. */
  options: ElicitationOption[];
  default?: FieldValue;
}

type Property = Record<string, unknown>;

/** The fields of a requested schema, in the schema's order. Unknown property types are text. */
export function elicitationFields(schema: ElicitationRequest['requestedSchema']): ElicitationField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Property>).map(([key, property]) => {
    const field: ElicitationField = { key, label: str(property.title) ?? key, required: required.has(key), kind: 'text', options: [] };
    const description = str(property.description);
    if (description) field.description = description;
    const type = property.type;
    if (type === 'boolean') field.kind = 'boolean';
    else if (type === 'number' || type === 'integer') {
      field.kind = type;
      field.minimum = num(property.minimum);
      field.maximum = num(property.maximum);
    } else if (type === 'array') {
      field.kind = 'multi';
      const items = (property.items ?? {}) as Property;
      field.options = optionsOf(items, 'anyOf');
      field.minItems = num(property.minItems);
      field.maxItems = num(property.maxItems);
    } else {
      field.options = optionsOf(property, 'oneOf');
      if (field.options.length > 0) field.kind = 'choice';
      else {
        field.format = str(property.format);
        field.minLength = num(property.minLength);
        field.maxLength = num(property.maxLength);
      }
    }
    for (const name of ['format', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) if (field[name] === undefined) delete field[name];
    const fallback = defaultOf(field, property.default);
    if (fallback !== undefined) field.default = fallback;
    return field;
  });
}

/** The answer a user who changes nothing sends: every field that has a default, with it. */
export function defaultContent(fields: ElicitationField[]): Record<string, FieldValue> {
  const content: Record<string, FieldValue> = {};
  for (const field of fields) if (field.default !== undefined) content[field.key] = field.default;
  return content;
}

/** How a value shows in a text field (a number's digits, a text as it is). */
export function valueText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * Typed text for a text, number or integer field: the value, nothing (empty and optional), or
 * why it is not acceptable (the schema's constraints, said so the user can fix it).
 */
export function parseTyped(field: ElicitationField, text: string): { value?: FieldValue } | { error: string } {
  const trimmed = field.kind === 'text' ? text : text.trim();
  if (trimmed === '') return field.required ? { error: `${field.label} is required` } : {};
  if (field.kind === 'number' || field.kind === 'integer') {
    const value = Number(trimmed);
    if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return { error: `${field.label} must be a number` };
    if (field.kind === 'integer' && !Number.isInteger(value)) return { error: `${field.label} must be a whole number` };
    const range = rangeError(field.label, value, field.minimum, field.maximum, '');
    return range ? { error: range } : { value };
  }
  const length = [...trimmed].length;
  const lengthError = rangeError(field.label, length, field.minLength, field.maxLength, ' characters');
  if (lengthError) return { error: lengthError.replace(' must be ', ' must have ') };
  const formatError = field.format ? checkFormat(field.format, trimmed) : undefined;
  return formatError ? { error: `${field.label} ${formatError}` } : { value: trimmed };
}

/** Checks a multi-select's number of picks and a required choice; undefined when fine. */
export function checkValue(field: ElicitationField, value: FieldValue | undefined): string | undefined {
  if (value === undefined) return field.required ? `${field.label} is required` : undefined;
  if (Array.isArray(value)) {
    if (field.required && value.length === 0) return `${field.label} is required`;
    return rangeError(field.label, value.length, field.minItems, field.maxItems, ' choices')?.replace(' must be ', ' needs ');
  }
  return undefined;
}

function checkFormat(format: string, text: string): string | undefined {
  if (format === 'email') return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? undefined : 'must be an email address';
  if (format === 'uri') return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text) ? undefined : 'must be a URI (like https://example.com)';
  if (format === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'must be a date (YYYY-MM-DD)';
  if (format === 'date-time') return !Number.isNaN(Date.parse(text)) && /^\d{4}-\d{2}-\d{2}T/.test(text) ? undefined : 'must be a date and time (YYYY-MM-DDTHH:MM:SSZ)';
  return undefined;
}

function rangeError(label: string, value: number, min: number | undefined, max: number | undefined, unit: string): string | undefined {
  if (min !== undefined && max !== undefined && (value < min || value > max)) return `${label} must be ${min} to ${max}${unit}`;
  if (min !== undefined && value < min) return `${label} must be at least ${min}${unit}`;
  if (max !== undefined && value > max) return `${label} must be at most ${max}${unit}`;
  return undefined;
}

/** enum (with the legacy enumNames as labels) or oneOf/anyOf of `{ const, title }`. */
function optionsOf(property: Property, titledKey: 'oneOf' | 'anyOf'): ElicitationOption[] {
  const titled = (property[titledKey] ?? property.oneOf ?? property.anyOf) as Property[] | undefined;
  if (Array.isArray(titled)) {
    return titled.filter((entry) => typeof entry.const === 'string').map((entry) => ({ value: entry.const as string, label: str(entry.title) ?? (entry.const as string) }));
  }
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? (property.enumNames as unknown[]) : [];
    return (property.enum as unknown[]).map((value, at) => ({ value: String(value), label: str(names[at]) ?? String(value) }));
  }
  return [];
}

/** A default that fits its field (a default the field could not hold is ignored). */
function defaultOf(field: ElicitationField, value: unknown): FieldValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (field.kind === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (field.kind === 'number' || field.kind === 'integer') return typeof value === 'number' ? value : undefined;
  if (field.kind === 'multi') return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
  if (field.kind === 'choice') return typeof value === 'string' && field.options.some((option) => option.value === value) ? value : undefined;
  return typeof value === 'string' ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** A form being filled: text, number and integer fields hold the typed text; the others their value. */
export type Drafts = Record<string, FieldValue | undefined>;

/** The form as it opens: every default in place (numbers as their digits, to edit). */
export function initialDrafts(fields: ElicitationField[]): Drafts {
  const drafts: Drafts = {};
  for (const field of fields) {
    const typed = field.kind === 'text' || field.kind === 'number' || field.kind === 'integer';
    drafts[field.key] = typed ? valueText(field.default) : field.kind === 'multi' ? (field.default ?? []) : field.default;
  }
  return drafts;
}

/** The content to accept with, or the first field that is not acceptable and why. */
export function formContent(fields: ElicitationField[], drafts: Drafts): { content: Record<string, FieldValue> } | { key: string; error: string } {
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    const draft = drafts[field.key];
    if (field.kind === 'text' || field.kind === 'number' || field.kind === 'integer') {
      const parsed = parseTyped(field, typeof draft === 'string' ? draft : valueText(draft));
      if ('error' in parsed) return { key: field.key, error: parsed.error };
      if (parsed.value !== undefined) content[field.key] = parsed.value;
      continue;
    }
    const error = checkValue(field, draft);
    if (error) return { key: field.key, error };
    if (draft !== undefined && !(field.kind === 'multi' && Array.isArray(draft) && draft.length === 0 && !field.required)) content[field.key] = draft;
  }
  return { content };
}
