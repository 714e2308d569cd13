import { expect } from 'chai';
import { nonBlankString, nonEmptyString, parseJsonObject, tokenCount } from '../../../lib/wire/read-json';
import { resolveFinishReason } from '../../../lib/providers/kit/resolve-finish-reason';
import { truncatedStreamError } from '../../../lib/providers/kit/truncated-stream-error';
import { StreamError } from '../../../lib/handler/stream-error';

describe('parseJsonObject', () => {
  const cases: Array<[string, unknown]> = [
    ['{"a":1}', { a: 1 }],
    ['{"a":1}   ', { a: 1 }],
    ['[1,2]', undefined],
    ['"text"', undefined],
    ['null', undefined],
    ['{"a":', undefined],
    ['not json', undefined],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${JSON.stringify(text)} as ${JSON.stringify(expected) ?? 'not an object'}`, () => {
      expect(parseJsonObject(text)).to.deep.equal(expected);
    });
  }
});

describe('JSON field readers', () => {
  it('keep only the values of the expected kind', () => {
    expect([nonEmptyString('x'), nonEmptyString(' '), nonEmptyString(''), nonEmptyString(1)]).to.deep.equal(['x', ' ', null, null]);
    expect([nonBlankString('x'), nonBlankString(' '), nonBlankString(null)]).to.deep.equal(['x', null, null]);
    expect([tokenCount(3), tokenCount(0), tokenCount(-1), tokenCount(1.5), tokenCount('3'), tokenCount(null)]).to.deep.equal([3, 0, null, null, null, null]);
  });
});

describe('resolveFinishReason', () => {
  it('is TOOL_EXECUTION when a stop (or no reason) completed tool calls, else the mapped reason', () => {
    expect(resolveFinishReason('STOP', 1)).to.equal('TOOL_EXECUTION');
    expect(resolveFinishReason(null, 2)).to.equal('TOOL_EXECUTION');
    expect(resolveFinishReason('TOOL_EXECUTION', 1)).to.equal('TOOL_EXECUTION');
    expect(resolveFinishReason('STOP', 0)).to.equal('STOP');
    expect(resolveFinishReason('LENGTH', 0)).to.equal('LENGTH');
    expect(resolveFinishReason(null, 0)).to.equal(null);
  });

  it('keeps LENGTH, CONTENT_FILTER and OTHER even when tool calls completed (SPEC §10)', () => {
    expect([resolveFinishReason('LENGTH', 2), resolveFinishReason('CONTENT_FILTER', 1), resolveFinishReason('OTHER', 1)]).to.deep.equal(['LENGTH', 'CONTENT_FILTER', 'OTHER']);
  });

  it('is OTHER for a tool-use stop that completed no call: there is nothing to run', () => {
    expect(resolveFinishReason('TOOL_EXECUTION', 0)).to.equal('OTHER');
  });
});

describe('truncatedStreamError', () => {
  it('names the missing terminal event, and a cut frame', () => {
    const early = truncatedStreamError('message_stop', false);
    const midFrame = truncatedStreamError('message_stop', true);
    expect(StreamError.isInstance(early)).to.equal(true);
    expect([early.kind, early.message]).to.deep.equal(['truncated', 'The stream ended before message_stop']);
    expect([midFrame.kind, midFrame.message]).to.deep.equal(['truncated', 'The stream ended in the middle of a frame, before message_stop']);
  });
});
