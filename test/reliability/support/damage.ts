import fc from 'fast-check';
import type { WireFormat } from '../../../lib/providers/registry';
import { framePayload, jsonPaths, jsonType, replaceAt, valueAt, wireFrames } from './wire-frames';

/**
 * One way to damage a recorded body. Frame, path and offset numbers are taken modulo what the
 * body has, so any damage applies to any fixture (and shrinks towards the first frame / byte).
 */
export type Damage =
  /** The body cut after `at` bytes (modulo length + 1). */
  | { readonly type: 'truncate'; readonly at: number }
  /** One frame left out. */
  | { readonly type: 'drop-frame'; readonly frame: number }
  /** One frame sent twice in a row. */
  | { readonly type: 'duplicate-frame'; readonly frame: number }
  /** A line of garbage: its own frame before `frame`, or a line inside it. */
  | { readonly type: 'garbage-line'; readonly frame: number; readonly line: string; readonly inside: boolean }
  /** A frame's JSON cut short at `at` (modulo its length), or with `insert` put in at `at` when that breaks it. */
  | { readonly type: 'invalid-json'; readonly frame: number; readonly at: number; readonly insert: string }
  /** A value somewhere in a frame's JSON replaced by one of another JSON type. */
  | { readonly type: 'wrong-type'; readonly frame: number; readonly path: number; readonly value: number }
  /** An event of a type no adapter knows: a new frame before `frame`, or `frame` renamed. */
  | { readonly type: 'unknown-event'; readonly frame: number; readonly name: string; readonly rename: boolean }
  /** A string in a frame's JSON (or a new ping-like frame) grown to `size` characters. */
  | { readonly type: 'huge-frame'; readonly frame: number; readonly path: number; readonly size: number; readonly unit: string }
  /** A string in a frame's JSON (an id, a type, a name, a text …) replaced by another string. */
  | { readonly type: 'changed-string'; readonly frame: number; readonly path: number; readonly value: string }
  /** Raw bytes put in at `at` (modulo length + 1), replacing `replace` bytes: invalid UTF-8, stray CR / LF / NUL, a BOM. */
  | { readonly type: 'stray-bytes'; readonly at: number; readonly bytes: readonly number[]; readonly replace: number };

/** The damage classes, one named test each. */
export type DamageType = Damage['type'];

/** Values of every JSON type, used to put a field of the wrong type in place. */
const WRONG_VALUES: readonly unknown[] = [null, 42, -1.5, 'text', '', true, false, [], [1, 'x'], {}, { nested: { deep: null } }];

const GARBAGE_LINES: readonly string[] = [
  'garbage',
  ':',
  ': comment',
  'data:',
  'data: ',
  'data: not json',
  'data: {',
  'data: [DONE]',
  'event:',
  'event: ',
  'id: 1',
  'retry: soon',
  'data: null',
  'data: 7',
  'data: "string"',
  'data: []',
  '{"unrelated": true}',
  'null',
  '\u0000\u0001\u00ff',
  '\uFEFF',
  '\u{1F600}\u00e9',
];

const UNKNOWN_NAMES: readonly string[] = ['x_unknown', 'response.future_event', 'content_block_future', 'message_future', 'thread.run.step'];

/** Byte runs that are not valid UTF-8, or that are line breaks / control bytes out of place. */
const STRAY_BYTES: readonly (readonly number[])[] = [
  [0xff],
  [0xc3],
  [0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xed, 0xa0, 0x80],
  [0x0d],
  [0x0a],
  [0x0d, 0x0a],
  [0x00],
  [0xef, 0xbb, 0xbf],
  [0xc0, 0xaf],
];

const frameNumber = fc.nat({ max: 10_000 });

/** Arbitraries of each damage class. */
export const damageArbitraries: { readonly [T in DamageType]: fc.Arbitrary<Extract<Damage, { type: T }>> } = {
  truncate: fc.record({ type: fc.constant('truncate' as const), at: fc.nat({ max: 1_000_000_000 }) }),
  'drop-frame': fc.record({ type: fc.constant('drop-frame' as const), frame: frameNumber }),
  'duplicate-frame': fc.record({ type: fc.constant('duplicate-frame' as const), frame: frameNumber }),
  'garbage-line': fc.record({
    type: fc.constant('garbage-line' as const),
    frame: frameNumber,
    line: fc.oneof(
      fc.constantFrom(...GARBAGE_LINES),
      fc.string({ maxLength: 40, unit: 'grapheme' }).map((text) => text.replace(/[\r\n]/g, ' ')),
      fc.string({ maxLength: 40, unit: 'grapheme' }).map((text) => `data: ${text.replace(/[\r\n]/g, ' ')}`),
    ),
    inside: fc.boolean(),
  }),
  'invalid-json': fc.record({
    type: fc.constant('invalid-json' as const),
    frame: frameNumber,
    at: fc.nat({ max: 1_000_000 }),
    insert: fc.constantFrom('', '{', '}', '"', ',', ']', ':', '\\', 'x'),
  }),
  'wrong-type': fc.record({
    type: fc.constant('wrong-type' as const),
    frame: frameNumber,
    path: fc.nat({ max: 10_000 }),
    value: fc.nat({ max: WRONG_VALUES.length - 1 }),
  }),
  'unknown-event': fc.record({
    type: fc.constant('unknown-event' as const),
    frame: frameNumber,
    name: fc.oneof(fc.constantFrom(...UNKNOWN_NAMES), fc.stringMatching(/^x_[a-z_.]{1,12}$/)),
    rename: fc.boolean(),
  }),
  'huge-frame': fc.record({
    type: fc.constant('huge-frame' as const),
    frame: frameNumber,
    path: fc.nat({ max: 10_000 }),
    size: fc.constant(2 * 1024 * 1024),
    unit: fc.constantFrom('x', 'é', '\u{1F600}', 'a\\"'),
  }),
  'changed-string': fc.record({
    type: fc.constant('changed-string' as const),
    frame: frameNumber,
    path: fc.nat({ max: 10_000 }),
    value: fc.oneof(fc.constantFrom('', ' ', 'other', 'x_unknown', 'null', '0', '{}', 'call_0', '\u{1F600}'), fc.string({ maxLength: 12 })),
  }),
  'stray-bytes': fc.record({
    type: fc.constant('stray-bytes' as const),
    at: fc.nat({ max: 1_000_000_000 }),
    bytes: fc.constantFrom(...STRAY_BYTES),
    replace: fc.nat({ max: 2 }),
  }),
};

/** Any damage of any class. */
export const anyDamage: fc.Arbitrary<Damage> = fc.oneof(...Object.values(damageArbitraries).filter((arbitrary) => arbitrary !== damageArbitraries['huge-frame']));

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function pick<T>(items: readonly T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}

/** A new frame carrying `json`, in the format's framing. */
function newFrame(format: WireFormat, json: string, eventName: string | null): string {
  if (format === 'ollama') return `${json}\n`;
  return eventName === null ? `data: ${json}\n\n` : `event: ${eventName}\ndata: ${json}\n\n`;
}

/** Formats whose SSE events carry an `event:` name. */
function namesEvents(format: WireFormat): boolean {
  return format === 'anthropic' || format === 'openai-responses';
}

/** Indexes of the frames that carry a JSON object or array. */
function jsonFrames(frames: readonly string[], format: WireFormat): number[] {
  return frames.flatMap((frame, index) => (framePayload(frame, format) === null ? [] : [index]));
}

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

/** Applies one damage to a recorded body; the result may equal the input when the damage finds nothing to act on. */
export function applyDamage(bytes: Uint8Array, format: WireFormat, damage: Damage): Uint8Array {
  if (damage.type === 'truncate') return bytes.subarray(0, damage.at % (bytes.length + 1));
  if (damage.type === 'stray-bytes') {
    const at = damage.at % (bytes.length + 1);
    const out = new Uint8Array(bytes.length + damage.bytes.length - Math.min(damage.replace, bytes.length - at));
    out.set(bytes.subarray(0, at));
    out.set(damage.bytes, at);
    out.set(bytes.subarray(Math.min(bytes.length, at + damage.replace)), at + damage.bytes.length);
    return out;
  }
  const frames = wireFrames(decoder.decode(bytes), format);
  const out = [...frames];
  const frameIndex = frames.length === 0 ? 0 : damage.frame % frames.length;
  switch (damage.type) {
    case 'drop-frame':
      out.splice(frameIndex, 1);
      break;
    case 'duplicate-frame':
      if (frames.length > 0) out.splice(frameIndex, 0, frames[frameIndex] as string);
      break;
    case 'garbage-line': {
      const frame = frames[frameIndex];
      if (damage.inside && frame !== undefined && format !== 'ollama') {
        // A line inside the frame: before one of its lines, chosen by the frame number again.
        const lines = frame.split('\n');
        const contentLines = Math.max(
          1,
          lines.findIndex((line) => line === ''),
        );
        lines.splice(damage.frame % contentLines, 0, damage.line);
        out[frameIndex] = lines.join('\n');
      } else {
        out.splice(frameIndex, 0, format === 'ollama' ? `${damage.line}\n` : `${damage.line}\n\n`);
      }
      break;
    }
    case 'invalid-json': {
      const index = pick(jsonFrames(frames, format), damage.frame);
      if (index === undefined) break;
      const payload = framePayload(frames[index] as string, format);
      if (payload === null) break;
      const at = damage.at % payload.json.length;
      const inserted = payload.json.slice(0, at) + damage.insert + payload.json.slice(at);
      // A cut-short JSON object never parses; an insertion is kept only when it really breaks the JSON.
      out[index] = payload.rebuild(damage.insert !== '' && !parses(inserted) ? inserted : payload.json.slice(0, at));
      break;
    }
    case 'wrong-type': {
      const index = pick(jsonFrames(frames, format), damage.frame);
      if (index === undefined) break;
      const payload = framePayload(frames[index] as string, format);
      if (payload === null) break;
      const value: unknown = JSON.parse(payload.json);
      const path = pick(jsonPaths(value), damage.path);
      if (path === undefined) break;
      const original = jsonType(valueAt(value, path));
      let replacement: unknown = null;
      for (let i = 0; i < WRONG_VALUES.length; i++) {
        const candidate = WRONG_VALUES[(damage.value + i) % WRONG_VALUES.length];
        if (jsonType(candidate) !== original) {
          replacement = candidate;
          break;
        }
      }
      out[index] = payload.rebuild(JSON.stringify(replaceAt(value, path, replacement)));
      break;
    }
    case 'unknown-event': {
      const frame = frames[frameIndex];
      const payload = frame === undefined ? null : framePayload(frame, format);
      if (damage.rename && frame !== undefined && payload !== null) {
        const value = JSON.parse(payload.json) as Record<string, unknown>;
        const renamed = Array.isArray(value) ? value : { ...value, type: damage.name };
        let rebuilt = payload.rebuild(JSON.stringify(renamed));
        if (format !== 'ollama') rebuilt = rebuilt.replace(/^event:.*$/m, `event: ${damage.name}`);
        out[frameIndex] = rebuilt;
      } else {
        const json = JSON.stringify({ type: damage.name, [damage.name]: { index: 0, text: 'never mapped' } });
        out.splice(frameIndex, 0, newFrame(format, json, namesEvents(format) ? damage.name : null));
      }
      break;
    }
    case 'changed-string': {
      const index = pick(jsonFrames(frames, format), damage.frame);
      if (index === undefined) break;
      const payload = framePayload(frames[index] as string, format);
      if (payload === null) break;
      const value: unknown = JSON.parse(payload.json);
      const path = pick(
        jsonPaths(value).filter((candidate) => typeof valueAt(value, candidate) === 'string'),
        damage.path,
      );
      if (path === undefined) break;
      out[index] = payload.rebuild(JSON.stringify(replaceAt(value, path, damage.value)));
      break;
    }
    case 'huge-frame': {
      const huge = repeatTo(damage.unit, damage.size);
      const frame = frames[frameIndex];
      const payload = frame === undefined ? null : framePayload(frame, format);
      if (payload !== null) {
        const value: unknown = JSON.parse(payload.json);
        const strings = jsonPaths(value).filter((path) => typeof valueAt(value, path) === 'string');
        const path = pick(strings, damage.path);
        if (path !== undefined) {
          out[frameIndex] = payload.rebuild(JSON.stringify(replaceAt(value, path, huge)));
          break;
        }
      }
      const json = JSON.stringify({ type: 'ping', padding: huge });
      out.splice(frameIndex, 0, newFrame(format, json, namesEvents(format) ? 'ping' : null));
      break;
    }
    default: {
      const never: never = damage;
      throw new TypeError(`Expected a damage, got ${JSON.stringify(never)}`);
    }
  }
  return encoder.encode(out.join(''));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
