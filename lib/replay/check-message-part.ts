import { describeValue } from '../parts/describe-value';
import type { MessagePart } from '../parts/types';
import { isPlainObject, PART_TYPES } from '../parts/validate';

// A part of a hand-made message, checked field by field before a converter reads it: a converter
// trusts what it reads, so a part with a missing field would otherwise end as "Cannot read
// properties of undefined" or pass through to the request. Nothing is copied. A tool result's own
// content is checked as an array only: no converter reads the parts nested in it (and a nesting
// of any depth must not overflow the stack).

const MEDIA_KINDS: ReadonlySet<string> = new Set(['bytes', 'string', 'url']);

function fail(field: string, what: string, value: unknown): never {
  throw new TypeError(`Expected ${field} to be ${what}, got ${describeValue(value)}`);
}

function requireString(value: unknown, field: string): void {
  if (typeof value !== 'string') fail(field, 'a string', value);
}

function requireNullableString(value: unknown, field: string): void {
  if (value !== null && typeof value !== 'string') fail(field, 'a string or null', value);
}

function checkPayload(value: unknown, field: string): void {
  if (value === null) return;
  if (!isPlainObject(value)) fail(field, '{provider, kind, data} or null', value);
  requireString(value.provider, `${field}.provider`);
  requireString(value.kind, `${field}.kind`);
  requireString(value.data, `${field}.data`);
}

function checkAttributes(value: unknown, field: string): void {
  if (!isPlainObject(value)) fail(field, 'an object of strings', value);
  for (const key of Object.keys(value)) requireString(value[key], `${field}.${key}`);
}

function checkMedia(value: unknown, field: string): void {
  if (!isPlainObject(value)) fail(field, 'a media object {id, mimeType, name, dataKind, data}', value);
  requireNullableString(value.id, `${field}.id`);
  requireString(value.mimeType, `${field}.mimeType`);
  requireNullableString(value.name, `${field}.name`);
  const kind = value.dataKind;
  if (typeof kind !== 'string' || !MEDIA_KINDS.has(kind)) fail(`${field}.dataKind`, "'bytes', 'string' or 'url'", kind);
  if (kind === 'bytes') {
    if (!(value.data instanceof Uint8Array)) fail(`${field}.data`, 'a Uint8Array', value.data);
  } else requireString(value.data, `${field}.data`);
}

/**
 * Throws a `TypeError` naming `field` and the offending member (`messages[2].parts[0].text`)
 * unless `value` is a message part whose fields all have their types (SPEC §3); `allowed`, when
 * given, lists the part types the place admits. Returns the part as it is.
 */
function checkMessagePart(value: unknown, field: string, allowed: ReadonlySet<string> | null = null): MessagePart {
  if (!isPlainObject(value)) fail(field, 'a message part', value);
  const type = value.type;
  if (typeof type !== 'string' || !PART_TYPES.has(type)) fail(`${field}.type`, `one of ${[...PART_TYPES].join(', ')}`, type);
  if (allowed !== null && !allowed.has(type)) {
    throw new TypeError(`Expected ${field} to be a ${[...allowed].join(' or ')} part, got a ${type} part`);
  }
  checkPayload(value.payload, `${field}.payload`);
  checkAttributes(value.attributes, `${field}.attributes`);
  switch (type) {
    case 'text':
      requireString(value.text, `${field}.text`);
      break;
    case 'reasoning':
      requireNullableString(value.text, `${field}.text`);
      requireNullableString(value.summary, `${field}.summary`);
      break;
    case 'tool_call': {
      const call = value.toolCall;
      if (!isPlainObject(call)) fail(`${field}.toolCall`, 'an object {id, type, name, arguments}', call);
      for (const key of ['id', 'type', 'name', 'arguments'] as const) requireNullableString(call[key], `${field}.toolCall.${key}`);
      break;
    }
    case 'tool_result':
      requireNullableString(value.id, `${field}.id`);
      requireNullableString(value.name, `${field}.name`);
      if (!Array.isArray(value.content)) fail(`${field}.content`, 'an array of parts', value.content);
      if (typeof value.isError !== 'boolean') fail(`${field}.isError`, 'a boolean', value.isError);
      break;
    case 'media':
      checkMedia(value.media, `${field}.media`);
      break;
    default:
      requireString(value.provider, `${field}.provider`);
      requireString(value.kind, `${field}.kind`);
      requireString(value.rawJson, `${field}.rawJson`);
      break;
  }
  return value as unknown as MessagePart;
}

/** Throws a `TypeError` naming `field` (and the index of the offending part) unless `value` is an array of valid parts, each of an `allowed` type when given. */
export function checkMessageParts(value: unknown, field: string, allowed: ReadonlySet<string> | null = null): readonly MessagePart[] {
  if (!Array.isArray(value)) fail(field, 'an array of parts', value);
  for (let i = 0; i < value.length; i++) checkMessagePart(value[i], `${field}[${i}]`, allowed);
  return value as readonly MessagePart[];
}
