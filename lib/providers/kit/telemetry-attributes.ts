import type { TelemetryValue } from '../provider-descriptor';

/** A request body's fields, or a nested object's; read only, never written. */
export type RequestFields = Readonly<Record<string, unknown>>;

/** The attributes being built for one request. */
export type AttributesInto = Record<string, TelemetryValue>;

/** `value` as an object's fields, or null for anything else (arrays included). */
export function requestFields(value: unknown): RequestFields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RequestFields) : null;
}

/** Sets `name` to `value` when it is a finite number. */
export function setNumber(into: AttributesInto, name: string, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) into[name] = value;
}

/** Sets `name` to the strings of `value` (one string, or an array's strings) when there are any. */
export function setStrings(into: AttributesInto, name: string, value: unknown): void {
  if (typeof value === 'string') into[name] = [value];
  else if (Array.isArray(value)) {
    const strings = value.filter((entry): entry is string => typeof entry === 'string');
    if (strings.length > 0) into[name] = strings;
  }
}

/** The sampling knobs every provider names its own way: `gen_ai.request.*` from `names` (attribute suffix → request field). */
export function copyRequestNumbers(into: AttributesInto, source: RequestFields, names: Readonly<Record<string, string>>): void {
  for (const [suffix, field] of Object.entries(names)) setNumber(into, `gen_ai.request.${suffix}`, source[field]);
}

/** `gen_ai.request.choice.count`, set only when the request asks for other than one choice. */
export function setChoiceCount(into: AttributesInto, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && value !== 1) into['gen_ai.request.choice.count'] = value;
}

/** The `messages` array of a request body (the history of most chat APIs), empty when there is none. */
export function messagesField(body: RequestFields): readonly unknown[] {
  return Array.isArray(body.messages) ? (body.messages as readonly unknown[]) : [];
}
