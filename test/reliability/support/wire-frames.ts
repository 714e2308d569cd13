import type { WireFormat } from '../../../lib/providers/registry';

/**
 * A recorded body cut into its wire frames, as text: for SSE each frame ends with its blank line
 * (`…\n\n`), for NDJSON each frame is one line with its `\n`. Joining the frames gives the body
 * back byte for byte; a tail without a terminator is the last frame.
 */
export function wireFrames(text: string, format: WireFormat): string[] {
  const terminator = format === 'ollama' ? '\n' : '\n\n';
  const frames: string[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(terminator, from);
    if (at < 0) break;
    let end = at + terminator.length;
    // Extra blank lines between SSE events stay with the frame before them.
    if (format !== 'ollama') while (text.charCodeAt(end) === 10) end++;
    frames.push(text.slice(from, end));
    from = end;
  }
  if (from < text.length) frames.push(text.slice(from));
  return frames;
}

/** The JSON payload of a frame and how to put a new one back, or null when the frame carries none. */
export interface FramePayload {
  readonly json: string;
  readonly rebuild: (json: string) => string;
}

/** Finds the frame's JSON: the (first) `data:` line of an SSE frame, or the NDJSON line itself. */
export function framePayload(frame: string, format: WireFormat): FramePayload | null {
  if (format === 'ollama') {
    const body = frame.endsWith('\n') ? frame.slice(0, -1) : frame;
    const ending = frame.slice(body.length);
    if (!looksLikeJson(body)) return null;
    return { json: body, rebuild: (json) => json + ending };
  }
  const lines = frame.split('\n');
  const index = lines.findIndex((line) => line.startsWith('data:'));
  if (index < 0) return null;
  const line = lines[index] as string;
  const prefix = line.startsWith('data: ') ? 'data: ' : 'data:';
  const json = line.slice(prefix.length);
  if (!looksLikeJson(json)) return null;
  return {
    json,
    rebuild: (replacement) => {
      const copy = [...lines];
      copy[index] = prefix + replacement;
      return copy.join('\n');
    },
  };
}

function looksLikeJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** A location inside a JSON value: the keys / indexes from the root. */
export type JsonPath = readonly (string | number)[];

/** Every path below the root of a JSON value, depth first (objects by key order, arrays by index). */
export function jsonPaths(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const paths: JsonPath[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const path = [...prefix, index];
      paths.push(path, ...jsonPaths(item, path));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const path = [...prefix, key];
      paths.push(path, ...jsonPaths(item, path));
    }
  }
  return paths;
}

/** The value at a path. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const step of path) current = (current as Record<string | number, unknown>)[step];
  return current;
}

/** A deep copy of `value` with the value at `path` replaced. */
export function replaceAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) copy[key] = key === head ? replaceAt(item, rest, replacement) : item;
  return copy;
}

/** The JSON type of a value, telling arrays, objects and null apart. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
