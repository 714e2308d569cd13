import { expect } from 'chai';
import { join } from 'path';
import fc from 'fast-check';
import sinon from 'sinon';
import { OpenAIResponsesEventReader } from '../../../lib/providers/openai-responses/parse-openai-responses-event';
import { retainedByScript } from '../../support/heap-script';
import { jsonObjectReference } from '../../support/json-object-reference';
import { mutateAfterRead } from '../shared/mutate-after-read';

/** Deep-equal to JSON.parse's object, with the same prototype and the same key order (JSON.stringify shows it, nested too). */
/** One reader for the whole file, as one stream's: a value shared between its reads would show. */
const shared = new OpenAIResponsesEventReader();

/** `data` read by a reader of its own, as one stream's first event. */
function parseOpenAIResponsesEvent(data: string): ReturnType<OpenAIResponsesEventReader['read']> {
  return new OpenAIResponsesEventReader().read(data);
}

function agrees(data: string, reader: OpenAIResponsesEventReader = shared): void {
  const got = reader.read(data);
  const expected = jsonObjectReference(data);
  expect(got, JSON.stringify(data)).to.deep.equal(expected);
  if (expected === undefined) return;
  expect(Object.getPrototypeOf(got), JSON.stringify(data)).to.equal(Object.prototype);
  expect(Object.keys(got as object), JSON.stringify(data)).to.deep.equal(Object.keys(expected as object));
  expect(JSON.stringify(got), JSON.stringify(data)).to.equal(JSON.stringify(expected));
  // Written over, as a mapper may: the next read must not see it.
  mutateAfterRead(got);
}

/** The per-token kinds and their index key (none for calls), as the API sends them. */
const KINDS = [
  ['output_text', 'content_index'],
  ['reasoning_text', 'content_index'],
  ['reasoning_summary_text', 'summary_index'],
  ['function_call_arguments', null],
  ['custom_tool_call_input', null],
] as const;

interface Shape {
  readonly kind: string;
  readonly indexKey: string | null;
  readonly sequence?: number | string;
  readonly itemId?: string;
  readonly outputIndex?: number | string;
  readonly index?: number | string;
  readonly delta: string;
  readonly logprobs?: boolean;
  readonly obfuscation?: string;
}

/** An event in the API's compact form and key order (optional parts as given). */
function compact(shape: Shape): string {
  const { kind, indexKey, sequence, itemId = 'msg_0123456789abcdef0123456789abcdef', outputIndex = 1, index = 0, delta, logprobs, obfuscation } = shape;
  return (
    `{"type":"response.${kind}.delta"` +
    (sequence === undefined ? '' : `,"sequence_number":${sequence}`) +
    `,"item_id":${JSON.stringify(itemId)},"output_index":${outputIndex}` +
    (indexKey === null ? '' : `,"${indexKey}":${index}`) +
    `,"delta":${JSON.stringify(delta)}` +
    (logprobs === true ? ',"logprobs":[]' : '') +
    (obfuscation === undefined ? '' : `,"obfuscation":${JSON.stringify(obfuscation)}`) +
    '}'
  );
}

const shapes = fc.record({
  kind: fc.constantFrom(...KINDS),
  sequence: fc.option(fc.nat(), { nil: undefined }),
  itemId: fc.oneof(fc.constantFrom('msg_abc', 'rs_0123456789abcdef0123456789', 'fc_1'), fc.string({ unit: 'binary', maxLength: 20 })),
  outputIndex: fc.nat(),
  index: fc.nat(),
  delta: fc.string({ unit: 'binary' }),
  logprobs: fc.boolean(),
  obfuscation: fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: undefined }),
});
const toShape = ({ kind: [kind, indexKey], ...rest }: { kind: (typeof KINDS)[number] } & Omit<Shape, 'kind' | 'indexKey'>): Shape => ({ kind, indexKey, ...rest });

describe('OpenAIResponsesEventReader', () => {
  it('reads the compact deltas of the recorded API streams into what JSON.parse builds', () => {
    const recorded = [
      '{"type":"response.output_text.delta","sequence_number":12,"item_id":"msg_68c2","output_index":1,"content_index":0,"delta":"Hi","logprobs":[],"obfuscation":"kJ2x"}',
      '{"type":"response.reasoning_summary_text.delta","sequence_number":5,"item_id":"rs_68c2","output_index":0,"summary_index":0,"delta":"**Plan","obfuscation":"Zz"}',
      '{"type":"response.function_call_arguments.delta","sequence_number":40,"item_id":"fc_68c2","output_index":2,"delta":"{\\"city\\":","obfuscation":"a1"}',
      '{"type":"response.custom_tool_call_input.delta","item_id":"ctc_1","output_index":1,"delta":"print(1)"}',
      '{"type":"response.reasoning_text.delta","sequence_number":3,"item_id":"rs_1","output_index":0,"content_index":0,"delta":"Hm"}',
    ];
    for (const data of recorded) agrees(data);
    expect(parseOpenAIResponsesEvent(recorded[0])).to.deep.equal({
      type: 'response.output_text.delta',
      sequence_number: 12,
      item_id: 'msg_68c2',
      output_index: 1,
      content_index: 0,
      delta: 'Hi',
      logprobs: [],
      obfuscation: 'kJ2x',
    });
  });

  it('reads a compact delta without JSON.parse, and only the delta string when it has escapes', () => {
    const parse = sinon.spy(JSON, 'parse');
    try {
      parseOpenAIResponsesEvent(compact({ kind: 'output_text', indexKey: 'content_index', sequence: 1, delta: 'plain', logprobs: true, obfuscation: 'ob' }));
      parseOpenAIResponsesEvent(compact({ kind: 'reasoning_summary_text', indexKey: 'summary_index', delta: 'plain' }));
      parseOpenAIResponsesEvent(compact({ kind: 'function_call_arguments', indexKey: null, delta: '{"a":' }));
      expect(parse.callCount).to.equal(1);
      expect(parse.lastCall.args[0]).to.equal('"{\\"a\\":"');
      parseOpenAIResponsesEvent('{"type":"response.created"}');
      expect(parse.lastCall.args[0]).to.equal('{"type":"response.created"}');
    } finally {
      parse.restore();
    }
  });

  it('returns strings of their own: a delta, item id or obfuscation kept does not keep the chunk text it was cut from', function () {
    this.timeout(20_000);
    // 300 events, each cut from a 1 MB text of its own as a decoder cuts them from a chunk, and
    // every event kept: with views into the texts, some 600 MB would stay alive.
    const { retainedMiB, report } = retainedByScript(
      `const { OpenAIResponsesEventReader } = require(${JSON.stringify(join(__dirname, '../../../lib/providers/openai-responses/parse-openai-responses-event'))}); const reader = new OpenAIResponsesEventReader();`,
      `for (let i = 0; i < 300; i++) {
        const n = String(i).padStart(3, '0');
        const event = '{"type":"response.output_text.delta","sequence_number":' + i + ',"item_id":"msg_item_number_' + n + '","output_index":1,"content_index":0,"delta":"a delta of forty characters, number ' + n + '","logprobs":[],"obfuscation":"obfuscation_' + n + '"}';
        kept.push(reader.read(cutFromChunk(event)));
      }`,
      `kept.length + ' ' + kept.every((e, i) => e.delta.endsWith(String(i).padStart(3, '0')) && e.obfuscation.length === 15 && e.item_id.length === 19)`,
    );
    expect(report).to.deep.equal(['300', 'true']);
    expect(retainedMiB).to.be.below(5);
  });

  it('answers like JSON.parse for near misses: other orders and types, numbers, spacing, logprobs, broken strings', () => {
    const text = { kind: 'output_text', indexKey: 'content_index', delta: 'x' } as const;
    const cases = [
      compact({ ...text, indexKey: 'summary_index' }),
      compact({ kind: 'reasoning_summary_text', indexKey: 'content_index', delta: 'x' }),
      compact({ kind: 'function_call_arguments', indexKey: 'content_index', delta: 'x' }),
      compact({ ...text, indexKey: null }),
      compact({ kind: 'refusal', indexKey: 'content_index', delta: 'x' }),
      compact({ kind: 'audio', indexKey: null, delta: 'x' }),
      compact({ ...text, index: '01' }),
      compact({ ...text, outputIndex: '-1' }),
      compact({ ...text, sequence: '1.5' }),
      compact({ ...text, sequence: '1e2' }),
      compact({ ...text, sequence: '1234567890123' }),
      compact({ ...text, sequence: '' }),
      compact({ ...text, outputIndex: '' }),
      '{"type":"response.output_text.delta","content_index":0,"delta":"Hi","item_id":"msg_1","logprobs":[],"obfuscation":"o","output_index":1,"sequence_number":7}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a","logprobs":[{"token":"a","logprob":-0.1}]}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a","obfuscation":"o","logprobs":[]}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a","extra":1}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a","delta":"b"}',
      '{"type":"response.output_text.delta", "item_id":"msg_1","output_index":1,"content_index":0,"delta":"a"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a"} ',
      '{"type":"response.output_text.delta","item_id":"m\\u0073g","output_index":1,"content_index":0,"delta":"a"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a","obfuscation":"o\\n"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"a\\"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"raw\ttab"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"\\x"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"\\u12"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"q"q"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"\\\u2028"}',
      '{"type":"response.output_text.delta","item_id":"__proto__","output_index":1,"content_index":0,"delta":"a"}',
      '{"type":"response.output_text.delta","__proto__":{"x":1},"item_id":"m","output_index":1,"content_index":0,"delta":"a"}',
      '{"type":"response.output_text.delta"}',
      '{"type":"response.completed","response":{"id":"resp_1"}}',
      '[1,2]',
      'not json',
      '',
    ];
    for (const data of cases) agrees(data);
  });

  it('reads escapes in the delta as JSON does', () => {
    for (const delta of ['line\nbreak', 'tab\there', 'back\\slash', 'a\u0001b', '\ud83d\ude00', 'lone \ud800 surrogate', '', 'q"q', '\u2028']) {
      agrees(compact({ kind: 'output_text', indexKey: 'content_index', sequence: 3, delta, logprobs: true, obfuscation: 'o' }));
    }
    agrees('{"type":"response.output_text.delta","item_id":"m","output_index":1,"content_index":0,"delta":"\\u00e9\\/"}');
  });

  it('gives consecutive events of one item the same value for their item id, and a new item its own', () => {
    const reader = new OpenAIResponsesEventReader();
    const parseOpenAIResponsesEvent = (data: string): ReturnType<OpenAIResponsesEventReader['read']> => reader.read(data);
    const first = parseOpenAIResponsesEvent(compact({ kind: 'output_text', indexKey: 'content_index', itemId: 'msg_a', delta: 'x' }));
    const second = parseOpenAIResponsesEvent(compact({ kind: 'output_text', indexKey: 'content_index', itemId: 'msg_a', delta: 'y' }));
    const third = parseOpenAIResponsesEvent(compact({ kind: 'output_text', indexKey: 'content_index', itemId: 'msg_ab', delta: 'z' }));
    const fourth = parseOpenAIResponsesEvent(compact({ kind: 'output_text', indexKey: 'content_index', itemId: 'msg_', delta: 'z' }));
    expect([first?.item_id, second?.item_id, third?.item_id, fourth?.item_id]).to.deep.equal(['msg_a', 'msg_a', 'msg_ab', 'msg_']);
  });

  it('equals JSON.parse on compact deltas of any kind, strings and numbers, with and without the optional fields (property)', () => {
    fc.assert(
      fc.property(shapes, (shape) => agrees(compact(toShape(shape)))),
      { seed: 1717, numRuns: 3000 },
    );
  });

  it('equals JSON.parse on damaged deltas (property)', () => {
    const damaged = fc.tuple(shapes, fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 3 })).map(([shape, position, cut, insert]) => {
      const data = compact(toShape(shape));
      const at = position % (data.length + 1);
      return data.slice(0, at) + insert + data.slice(Math.min(data.length, at + cut));
    });
    fc.assert(
      fc.property(damaged, (data) => agrees(data)),
      { seed: 1818, numRuns: 4000 },
    );
  });
});
