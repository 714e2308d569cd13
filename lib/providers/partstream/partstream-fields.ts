import { describeValue } from '../../parts/describe-value';
import { validatePayload } from '../../parts/validate';
import type { OpaquePayload } from '../../parts/types';

/** A field of a relay event that is missing or of the wrong kind (the mapper turns it into `malformed`). */
export class FieldError extends Error {
  /** `format` for a version this viewer does not read; `malformed` for everything else. */
  readonly kind: 'malformed' | 'format';

  constructor(message: string, kind: 'malformed' | 'format' = 'malformed') {
    super(message);
    this.name = 'FieldError';
    this.kind = kind;
  }
}

/** An event's data: a JSON object (own keys only, as `JSON.parse` makes them), or a `FieldError`. */
export function dataObject(data: string, type: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new FieldError(`the data of a ${type} event is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FieldError(`the data of a ${type} event is not a JSON object, got ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

/** `field` of `data`, read as an own property only (`__proto__` and friends are plain keys or absent). */
function own(data: Record<string, unknown>, field: string): unknown {
  return Object.prototype.hasOwnProperty.call(data, field) ? data[field] : undefined;
}

export function stringField(data: Record<string, unknown>, field: string, type: string): string {
  const value = own(data, field);
  if (typeof value !== 'string') throw new FieldError(`expected ${type}.${field} to be a string, got ${describeValue(value)}`);
  return value;
}

export function nullableStringField(data: Record<string, unknown>, field: string, type: string): string | null {
  const value = own(data, field);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new FieldError(`expected ${type}.${field} to be a string or null, got ${describeValue(value)}`);
  return value;
}

/** A whole number ≥ 0 within 2⁵³−1 (an index or a tool call's handler index). */
export function countField(data: Record<string, unknown>, field: string, type: string): number {
  const value = own(data, field);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new FieldError(`expected ${type}.${field} to be a whole number ≥ 0, got ${describeValue(value)}`);
  }
  return value;
}

/** `countField`, or null when the field is absent. */
export function optionalCountField(data: Record<string, unknown>, field: string, type: string): number | null {
  return own(data, field) === undefined ? null : countField(data, field, type);
}

export function payloadField(data: Record<string, unknown>, type: string): OpaquePayload | null {
  try {
    return validatePayload(own(data, 'payload'), `${type}.payload`);
  } catch (error) {
    throw new FieldError((error as Error).message);
  }
}

export function flagField(data: Record<string, unknown>, field: string, type: string): boolean {
  const value = own(data, field);
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new FieldError(`expected ${type}.${field} to be a boolean, got ${describeValue(value)}`);
  return value;
}

/** Any field, own properties only (undefined when absent). */
export function anyField(data: Record<string, unknown>, field: string): unknown {
  return own(data, field);
}
