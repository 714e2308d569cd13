// A stop request as it is kept in Redis: JSON in the response's meta hash (`stop`), and fields of an
// entry in the producer's control stream. Both are read back from the server and checked.

import { RELAY_ID_PATTERN, type StopRequest } from '../response-store';

/** The meta hash value of `request`. */
export function stopToJson(request: StopRequest): string {
  return JSON.stringify({ stopId: request.stopId, by: request.by, reason: request.reason, at: request.at });
}

function stopFrom(stopId: unknown, by: unknown, reason: unknown, at: unknown): StopRequest | null {
  if (typeof stopId !== 'string' || typeof by !== 'string' || typeof at !== 'string') return null;
  if (reason !== null && typeof reason !== 'string') return null;
  return { stopId, by, reason, at };
}

/** The stop request kept as `json`, or null when there is none or it is not one. */
export function stopFromJson(json: string | undefined): StopRequest | null {
  if (json === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  return stopFrom(record.stopId, record.by, record.reason ?? null, record.at);
}

/** The control stream entry fields of a stop of `responseId`. */
export function stopCommandFields(responseId: string, request: StopRequest): string[] {
  const fields = ['cmd', 'stop', 'r', responseId, 'stopId', request.stopId, 'by', request.by, 'at', request.at];
  if (request.reason !== null) fields.push('reason', request.reason);
  return fields;
}

/** The response and request of a control stream entry, or null when it is no well-formed stop. */
export function stopCommandFrom(fields: readonly string[]): { readonly responseId: string; readonly request: StopRequest } | null {
  const found = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i] as string;
    if (!found.has(name)) found.set(name, fields[i + 1] as string);
  }
  const responseId = found.get('r');
  if (found.get('cmd') !== 'stop' || responseId === undefined || !RELAY_ID_PATTERN.test(responseId)) return null;
  const request = stopFrom(found.get('stopId'), found.get('by'), found.get('reason') ?? null, found.get('at'));
  return request === null ? null : { responseId, request };
}
