import { expect } from 'chai';
import fc from 'fast-check';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart } from '../../lib/parts/factories';
import { partFromJSON, partsFromJSON, partsToJSON, partToJSON } from '../../lib/parts/json';
import type { MessagePart } from '../../lib/parts/types';
import { partArb } from './part-arbitraries';

const signature = { provider: 'anthropic', kind: 'signature', data: 'sig==' };
const viaText = (part: MessagePart): MessagePart => partFromJSON(JSON.parse(JSON.stringify(partToJSON(part))));
const fallback = (json: object, kind: string) => unknownPart('partstream', kind, JSON.stringify(json));

describe('partToJSON', () => {
  it('writes each part type with its type name, fields, payload and attributes', () => {
    const parts = [
      textPart('Hi', { attributes: { a: '1' } }),
      reasoningPart('think', { summary: 's', payload: signature }),
      toolCallPart({ id: 'c1', type: 'function', name: 'f', arguments: '{}' }),
      toolResultPart({ id: 'c1', name: 'f', content: [textPart('ok')], isError: false }),
      unknownPart('openai', 'web_search_call', '{}'),
    ];
    expect(partsToJSON(parts)).to.deep.equal([
      { type: 'text', text: 'Hi', payload: null, attributes: { a: '1' } },
      { type: 'reasoning', text: 'think', summary: 's', payload: signature, attributes: {} },
      { type: 'tool_call', toolCall: { id: 'c1', type: 'function', name: 'f', arguments: '{}' }, payload: null, attributes: {} },
      {
        type: 'tool_result',
        id: 'c1',
        name: 'f',
        content: [{ type: 'text', text: 'ok', payload: null, attributes: {} }],
        isError: false,
        payload: null,
        attributes: {},
      },
      { type: 'unknown', provider: 'openai', kind: 'web_search_call', rawJson: '{}', payload: null, attributes: {} },
    ]);
  });

  it('writes media bytes as base64', () => {
    const part = mediaPart({ id: 'm1', mimeType: 'image/png', name: null, dataKind: 'bytes', data: new Uint8Array([0, 255, 16]) });
    expect(partToJSON(part)).to.deep.equal({
      type: 'media',
      media: { id: 'm1', mimeType: 'image/png', name: null, dataKind: 'bytes', data: 'AP8Q' },
      payload: null,
      attributes: {},
    });
  });

  it('rejects a value that is not a part', () => {
    expect(() => partToJSON(null as never)).to.throw(TypeError, 'Expected part to be a message part, got null');
    expect(() => partsToJSON([textPart('a'), {} as never])).to.throw(TypeError, 'Expected parts[1] to be a message part, got an object');
  });
});

describe('partFromJSON', () => {
  it('reads media base64 back into bytes', () => {
    const json = { type: 'media', media: { id: null, mimeType: 'audio/wav', name: 'a', dataKind: 'bytes', data: 'AP8Q' } };
    expect(partFromJSON(json)).to.deep.equal(mediaPart({ id: null, mimeType: 'audio/wav', name: 'a', dataKind: 'bytes', data: new Uint8Array([0, 255, 16]) }));
  });

  it('defaults a missing payload and attributes to none', () => {
    expect(partFromJSON({ type: 'text', text: 'x' })).to.deep.equal(textPart('x'));
  });

  it('reads an unknown type as an unknown part named after the type, wrapping the whole object', () => {
    const json = { type: 'citation', url: 'https://example.com', nested: { a: [1, 2] } };
    expect(partFromJSON(json)).to.deep.equal(fallback(json, 'citation'));
  });

  it('reads a missing or non-string type as an unknown part of kind "unknown"', () => {
    expect(partFromJSON({ text: 'x' })).to.deep.equal(fallback({ text: 'x' }, 'unknown'));
    expect(partFromJSON({ type: 7 })).to.deep.equal(fallback({ type: 7 }, 'unknown'));
  });

  it('reads a known type with invalid fields as an unknown part of that kind', () => {
    const cases: Array<[object, string]> = [
      [{ type: 'text', text: 5 }, 'text'],
      [{ type: 'text' }, 'text'],
      [{ type: 'reasoning', text: 'x', summary: 1 }, 'reasoning'],
      [{ type: 'tool_call', toolCall: 'f()' }, 'tool_call'],
      [{ type: 'tool_result', content: [1] }, 'tool_result'],
      [{ type: 'media', media: { mimeType: 'image/png', dataKind: 'bytes', data: 'not base64!' } }, 'media'],
      [{ type: 'unknown', provider: 'p' }, 'unknown'],
      [{ type: 'text', text: 'x', attributes: { a: 1 } }, 'text'],
      [{ type: 'text', text: 'x', payload: 'sig' }, 'text'],
    ];
    expect(cases.map(([json]) => partFromJSON(json))).to.deep.equal(cases.map(([json, kind]) => fallback(json, kind)));
  });

  it('reads an unknown element inside tool-result content as an unknown part, keeping the rest', () => {
    const json = { type: 'tool_result', id: 'c', content: [{ type: 'text', text: 'ok' }, { type: 'chart' }] };
    expect(partFromJSON(json)).to.deep.equal(toolResultPart({ id: 'c', content: [textPart('ok'), fallback({ type: 'chart' }, 'chart')] }));
  });

  it('rejects only values that are not objects', () => {
    for (const value of [null, undefined, 1, 'text', true, []]) {
      expect(() => partFromJSON(value)).to.throw(TypeError, /^Expected json to be an object, got /);
    }
  });

  it('reads lists, naming a non-object element', () => {
    expect(partsFromJSON([{ type: 'text', text: 'a' }, { type: 'x' }])).to.deep.equal([textPart('a'), fallback({ type: 'x' }, 'x')]);
    expect(() => partsFromJSON([{ type: 'text', text: 'a' }, 3])).to.throw(TypeError, 'Expected json[1] to be an object, got number 3');
    expect(() => partsFromJSON({})).to.throw(TypeError, 'Expected json to be an array, got an object');
  });

  it('property: every part survives a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(partArb, (part) => {
        expect(viaText(part)).to.deep.equal(part);
      }),
      { seed: 7001, numRuns: 200 },
    );
  });

  it('property: any JSON object reads back as some part, and a fallback keeps the whole object', () => {
    const typed = fc
      .tuple(fc.constantFrom('text', 'reasoning', 'tool_call', 'tool_result', 'media', 'unknown', 'other'), fc.dictionary(fc.string(), fc.jsonValue()))
      .map(([type, rest]) => ({ ...rest, type }));
    const anyObject = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), typed);
    fc.assert(
      fc.property(anyObject, (json) => {
        const part = partFromJSON(json);
        expect(viaText(part)).to.deep.equal(part);
        if (part.type === 'unknown' && part.provider === 'partstream' && json.type !== 'unknown') {
          expect(JSON.parse(part.rawJson)).to.deep.equal(JSON.parse(JSON.stringify(json)));
          expect(part.kind).to.equal(typeof json.type === 'string' ? json.type : 'unknown');
        } else {
          expect(part.type).to.equal(json.type);
        }
      }),
      { seed: 7002, numRuns: 200 },
    );
  });
});
