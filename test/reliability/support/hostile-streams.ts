import fc from 'fast-check';
import type { TextWireFormat as WireFormat } from '../../support/transcripts';

/**
 * Hand-written transcripts of every wire format (text, reasoning, a streamed tool call, usage, the
 * terminal event), written from the providers' documented wire formats, and the hostile shapes a
 * server may put into them: huge or negative indexes, `__proto__` / `constructor` / `prototype`
 * keys, nesting far deeper than any real payload, oversize frames and floods of keep-alive
 * comments. Each frame is a JSON value plus its SSE event name (null for NDJSON and Gemini).
 */
export interface HostileFrame {
  readonly event: string | null;
  readonly json: unknown;
}

const ARGS = '{"city":"Paris","days":[1,2]}';

/** The base transcript of each format, frame by frame. */
export const BASE_TRANSCRIPTS: Readonly<Record<WireFormat, readonly HostileFrame[]>> = {
  'openai-chat': [
    { event: null, json: { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] } },
    { event: null, json: { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { reasoning_content: 'hmm' } }] } },
    {
      event: null,
      json: {
        id: 'c1',
        object: 'chat.completion.chunk',
        model: 'm',
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: ARGS.slice(0, 9) } }] } }],
      },
    },
    { event: null, json: { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ARGS.slice(9) } }] } }] } },
    { event: null, json: { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] } },
    { event: null, json: { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } } },
    { event: null, json: '[DONE]' },
  ],
  anthropic: [
    {
      event: 'message_start',
      json: { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
    },
    { event: 'content_block_start', json: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } } },
    { event: 'content_block_delta', json: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } } },
    { event: 'content_block_delta', json: { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } } },
    { event: 'content_block_stop', json: { type: 'content_block_stop', index: 0 } },
    { event: 'content_block_start', json: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } } },
    { event: 'content_block_delta', json: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } } },
    { event: 'content_block_stop', json: { type: 'content_block_stop', index: 1 } },
    { event: 'content_block_start', json: { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } } },
    { event: 'content_block_delta', json: { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ARGS.slice(0, 9) } } },
    { event: 'content_block_delta', json: { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ARGS.slice(9) } } },
    { event: 'content_block_stop', json: { type: 'content_block_stop', index: 2 } },
    { event: 'message_delta', json: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } } },
    { event: 'message_stop', json: { type: 'message_stop' } },
  ],
  'openai-responses': [
    { event: 'response.created', json: { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', model: 'gpt', status: 'in_progress', output: [] } } },
    { event: 'response.output_item.added', json: { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } } },
    {
      event: 'response.reasoning_summary_text.delta',
      json: { type: 'response.reasoning_summary_text.delta', sequence_number: 2, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'hmm' },
    },
    {
      event: 'response.output_item.done',
      json: {
        type: 'response.output_item.done',
        sequence_number: 3,
        output_index: 0,
        item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }], encrypted_content: 'ZW5j' },
      },
    },
    {
      event: 'response.output_item.added',
      json: { type: 'response.output_item.added', sequence_number: 4, output_index: 1, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
    },
    { event: 'response.output_text.delta', json: { type: 'response.output_text.delta', sequence_number: 5, item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hi' } },
    {
      event: 'response.output_item.done',
      json: {
        type: 'response.output_item.done',
        sequence_number: 6,
        output_index: 1,
        item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
      },
    },
    {
      event: 'response.output_item.added',
      json: { type: 'response.output_item.added', sequence_number: 7, output_index: 2, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '' } },
    },
    { event: 'response.function_call_arguments.delta', json: { type: 'response.function_call_arguments.delta', sequence_number: 8, item_id: 'fc_1', output_index: 2, delta: ARGS } },
    { event: 'response.function_call_arguments.done', json: { type: 'response.function_call_arguments.done', sequence_number: 9, item_id: 'fc_1', output_index: 2, arguments: ARGS } },
    {
      event: 'response.output_item.done',
      json: {
        type: 'response.output_item.done',
        sequence_number: 10,
        output_index: 2,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'weather', arguments: ARGS, status: 'completed' },
      },
    },
    {
      event: 'response.completed',
      json: {
        type: 'response.completed',
        sequence_number: 11,
        response: { id: 'resp_1', object: 'response', model: 'gpt', status: 'completed', output: [], usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 } },
      },
    },
  ],
  gemini: [
    { event: null, json: { candidates: [{ content: { role: 'model', parts: [{ text: 'hmm', thought: true }] }, index: 0 }], modelVersion: 'gemini', responseId: 'r1' } },
    { event: null, json: { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi', thoughtSignature: 'c2ln' }] }, index: 0 }], modelVersion: 'gemini', responseId: 'r1' } },
    {
      event: null,
      json: {
        candidates: [
          { content: { role: 'model', parts: [{ functionCall: { name: 'weather', partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }], willContinue: true } }] }, index: 0 },
        ],
        modelVersion: 'gemini',
        responseId: 'r1',
      },
    },
    {
      event: null,
      json: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: {
                    partialArgs: [
                      { jsonPath: '$.city', stringValue: 'is' },
                      { jsonPath: '$.days[0]', numberValue: 1 },
                      { jsonPath: '$.days[1]', numberValue: 2 },
                    ],
                    willContinue: true,
                  },
                },
              ],
            },
            index: 0,
          },
        ],
        modelVersion: 'gemini',
        responseId: 'r1',
      },
    },
    { event: null, json: { candidates: [{ content: { role: 'model', parts: [{ functionCall: {} }] }, index: 0 }], modelVersion: 'gemini', responseId: 'r1' } },
    {
      event: null,
      json: {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x', nested: { deep: [1, { k: 'v' }] } } } }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
        modelVersion: 'gemini',
        responseId: 'r1',
      },
    },
  ],
  ollama: [
    { event: null, json: { model: 'llama', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: '', thinking: 'hmm' }, done: false } },
    { event: null, json: { model: 'llama', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hi' }, done: false } },
    {
      event: null,
      json: {
        model: 'llama',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'weather', arguments: { city: 'Paris', days: [1, 2] } } }] },
        done: false,
      },
    },
    { event: null, json: { model: 'llama', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 5 } },
  ],
};

/** The formats in a stable order. */
export const FORMATS: readonly WireFormat[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama'];

/** A raw JSON text placed where a marker string stood (so nesting deeper than `JSON.stringify` can write is possible). */
const RAW = '\u0000raw\u0000';

/** One hostile change to a transcript. */
export type HostileShape =
  | { readonly type: 'huge-number'; readonly frame: number; readonly path: number; readonly value: number }
  | { readonly type: 'proto-key'; readonly frame: number; readonly path: number; readonly key: '__proto__' | 'constructor' | 'prototype' }
  | { readonly type: 'deep-nesting'; readonly frame: number; readonly path: number; readonly depth: number; readonly open: '[' | '{"a":' }
  | { readonly type: 'deep-arguments'; readonly depth: number }
  | { readonly type: 'json-path'; readonly path: string }
  | { readonly type: 'oversize-frame'; readonly frame: number; readonly size: number }
  | { readonly type: 'comment-flood'; readonly count: number };

/** The largest frame the hostile property allows (`maxFrameBytes`), so oversize frames stay small. */
export const HOSTILE_MAX_FRAME = 16_384;

const HUGE_NUMBERS = [1e9, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e20, 1e308, -1, -1e9, 0.5, -0];

/** JSON paths a Gemini `partialArgs` entry may name, hostile ones. */
const HOSTILE_JSON_PATHS = [
  '$.__proto__.polluted',
  '$["__proto__"].polluted',
  "$['__proto__']['polluted']",
  '$.constructor.prototype.polluted',
  '$.a.__proto__.polluted',
  '$.a[100000000]',
  '$.a[1e20]',
  '$.a[99999999999999999999]',
  '$.a[4294967295]',
  '$.a[-1]',
  '$[0]',
  '$.prototype',
  '$',
  `$${'.a'.repeat(5000)}`,
  `$${'[0]'.repeat(5000)}`,
];

/** A random hostile shape for `format`. */
export function hostileShape(format: WireFormat): fc.Arbitrary<HostileShape> {
  const frames = BASE_TRANSCRIPTS[format].length;
  const frame = fc.nat({ max: frames - 1 });
  const path = fc.nat({ max: 1 << 16 });
  const shapes: Array<fc.Arbitrary<HostileShape>> = [
    fc.record({ type: fc.constant('huge-number' as const), frame, path, value: fc.constantFrom(...HUGE_NUMBERS) }),
    fc.record({ type: fc.constant('proto-key' as const), frame, path, key: fc.constantFrom('__proto__' as const, 'constructor' as const, 'prototype' as const) }),
    fc.record({ type: fc.constant('deep-nesting' as const), frame, path, depth: fc.integer({ min: 1_000, max: 20_000 }), open: fc.constantFrom('[' as const, '{"a":' as const) }),
    fc.record({ type: fc.constant('deep-arguments' as const), depth: fc.integer({ min: 1_000, max: 20_000 }) }),
    fc.record({ type: fc.constant('oversize-frame' as const), frame, size: fc.integer({ min: HOSTILE_MAX_FRAME + 1, max: HOSTILE_MAX_FRAME * 4 }) }),
    fc.record({ type: fc.constant('comment-flood' as const), count: fc.integer({ min: 100, max: 3_000 }) }),
  ];
  if (format === 'gemini') shapes.push(fc.record({ type: fc.constant('json-path' as const), path: fc.constantFrom(...HOSTILE_JSON_PATHS) }));
  return fc.oneof(...shapes);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every location in a JSON value (the root excluded), depth first. */
function locations(value: Json): Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> {
  const out: Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> = [];
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as Json;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        out.push({ parent: node, key: index });
        stack.push(item);
      });
    } else if (typeof node === 'object' && node !== null) {
      for (const key of Object.keys(node)) {
        out.push({ parent: node, key });
        stack.push(node[key] as Json);
      }
    }
  }
  return out;
}

function objectsIn(value: Json): Array<{ [key: string]: Json }> {
  const out: Array<{ [key: string]: Json }> = [];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(value);
  for (const { parent, key } of locations(value)) {
    const item = (parent as Record<string | number, Json>)[key] as Json;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) out.push(item);
  }
  return out;
}

/** The text of one frame on the wire. */
function frameText(format: WireFormat, event: string | null, data: string): string {
  if (format === 'ollama') return `${data}\n`;
  return `${event === null ? '' : `event: ${event}\n`}data: ${data}\n\n`;
}

/** Deep copy of a JSON value that keeps own `__proto__` keys own (as JSON.parse makes them). */
function copy(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** The tool-call arguments of each format, where a deeply nested JSON text can go in place of them. */
function withDeepArguments(format: WireFormat, frames: Json[], depth: number): Json[] {
  const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const set = (frame: number, assign: (json: Record<string, unknown>) => void): void => {
    assign(frames[frame] as Record<string, unknown>);
  };
  type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  switch (format) {
    case 'openai-chat':
      set(3, (json) => ((json as Any).choices[0].delta.tool_calls[0].function.arguments = `${ARGS.slice(9)}${nested}`));
      break;
    case 'anthropic':
      set(10, (json) => ((json as Any).delta.partial_json = `{"deep":${nested}}`));
      set(9, (json) => ((json as Any).delta.partial_json = ''));
      break;
    case 'openai-responses':
      set(8, (json) => ((json as Any).delta = `{"deep":${nested}}`));
      set(9, (json) => ((json as Any).arguments = `{"deep":${nested}}`));
      set(10, (json) => ((json as Any).item.arguments = `{"deep":${nested}}`));
      break;
    case 'gemini':
      set(5, (json) => ((json as Any).candidates[0].content.parts[0].functionCall.args = RAW));
      break;
    case 'ollama':
      set(2, (json) => ((json as Any).message.tool_calls[0].function.arguments = RAW));
      break;
  }
  return frames;
}

/** The body of `format`'s transcript with `shape` applied, as text. */
export function hostileBody(format: WireFormat, shape: HostileShape): string {
  const base = BASE_TRANSCRIPTS[format];
  const frames = base.map((frame) => copy(frame.json));
  let raw: string | null = null;
  let prefix = '';
  switch (shape.type) {
    case 'huge-number': {
      const numbers = locations(frames[shape.frame] as Json).filter(({ parent, key }) => typeof (parent as Record<string | number, Json>)[key] === 'number');
      const at = numbers[shape.path % Math.max(1, numbers.length)];
      if (at !== undefined) (at.parent as Record<string | number, Json>)[at.key] = shape.value;
      break;
    }
    case 'proto-key': {
      const objects = objectsIn(frames[shape.frame] as Json);
      const target = objects[shape.path % Math.max(1, objects.length)];
      if (target !== undefined) {
        const poison = shape.key === 'constructor' ? { prototype: { polluted: 'yes' } } : { polluted: 'yes' };
        Object.defineProperty(target, shape.key, { value: poison, enumerable: true, writable: true, configurable: true });
      }
      break;
    }
    case 'deep-nesting': {
      const spots = locations(frames[shape.frame] as Json);
      const at = spots[shape.path % Math.max(1, spots.length)];
      if (at !== undefined) (at.parent as Record<string | number, Json>)[at.key] = RAW;
      raw = shape.open === '[' ? `${'['.repeat(shape.depth)}${']'.repeat(shape.depth)}` : `${'{"a":'.repeat(shape.depth)}1${'}'.repeat(shape.depth)}`;
      break;
    }
    case 'deep-arguments':
      withDeepArguments(format, frames, shape.depth);
      raw = `{"deep":${'{"a":'.repeat(shape.depth)}1${'}'.repeat(shape.depth)}}`;
      break;
    case 'json-path': {
      const call = (frames[3] as { candidates: Array<{ content: { parts: Array<{ functionCall: { partialArgs: unknown[] } }> } }> }).candidates[0]!.content.parts[0]!.functionCall;
      call.partialArgs.push({ jsonPath: shape.path, stringValue: 'x' }, { jsonPath: shape.path, numberValue: 7 });
      break;
    }
    case 'oversize-frame': {
      const target = frames[shape.frame];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) target.padding = 'x'.repeat(shape.size);
      else frames[shape.frame] = { padding: 'x'.repeat(shape.size) };
      break;
    }
    case 'comment-flood':
      prefix = format === 'ollama' ? '\n'.repeat(shape.count) : ': ping\n'.repeat(shape.count);
      break;
  }
  const body = frames.map((json, i) => {
    const data = typeof json === 'string' && json === '[DONE]' ? '[DONE]' : JSON.stringify(json);
    return frameText(format, base[i]!.event, raw === null ? data : data.split(JSON.stringify(RAW)).join(raw));
  });
  return prefix + body.join('');
}

/** Cuts `text` into chunks: at the given offsets, or one line per chunk for a comment flood. */
export function chunksOf(text: string, shape: HostileShape, offsets: readonly number[]): Uint8Array[] {
  const encoder = new TextEncoder();
  if (shape.type === 'comment-flood') {
    const pieces = text.split(/(?<=\n)/);
    return pieces.map((piece) => encoder.encode(piece));
  }
  const bytes = encoder.encode(text);
  const cuts = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut > from) chunks.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  if (from < bytes.length) chunks.push(bytes.subarray(from));
  return chunks;
}
