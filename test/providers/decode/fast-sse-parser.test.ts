import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { createFastSseParser } from '../../../lib/providers/decode/fast-sse-parser';

type Output =
  | { readonly type: 'event'; readonly id: string | undefined; readonly event: string | undefined; readonly data: string }
  | { readonly type: 'retry'; readonly milliseconds: number }
  | { readonly type: 'comment'; readonly comment: string };

interface Recorder {
  feed(chunk: string): void;
  readonly out: Output[];
}

function recordFast(): Recorder & { parser: ReturnType<typeof createFastSseParser> } {
  const out: Output[] = [];
  const parser = createFastSseParser({
    onEvent: ({ id, event, data }) => out.push({ type: 'event', id, event, data }),
    onRetry: (milliseconds) => out.push({ type: 'retry', milliseconds }),
    onComment: (comment) => out.push({ type: 'comment', comment }),
  });
  return { parser, out, feed: (chunk) => parser.feed(chunk) };
}

function recordReference(): Recorder {
  const out: Output[] = [];
  const parser = createParser({
    onEvent: ({ id, event, data }) => out.push({ type: 'event', id, event, data }),
    onRetry: (milliseconds) => out.push({ type: 'retry', milliseconds }),
    onComment: (comment) => out.push({ type: 'comment', comment }),
  });
  return { out, feed: (chunk) => parser.feed(chunk) };
}

function parse(...chunks: string[]): Output[] {
  const recorder = recordFast();
  for (const chunk of chunks) recorder.feed(chunk);
  return recorder.out;
}

const event = (data: string, fields: { id?: string; event?: string } = {}): Output => ({
  type: 'event',
  id: fields.id,
  event: fields.event,
  data,
});

describe('createFastSseParser', () => {
  describe('framing', () => {
    it('dispatches a one-line data event closed by a blank line', () => {
      expect(parse('data: {"a":1}\n\n')).to.deep.equal([event('{"a":1}')]);
    });

    it('joins several data lines with "\\n"', () => {
      expect(parse('data: one\ndata: two\ndata:three\n\n')).to.deep.equal([event('one\ntwo\nthree')]);
    });

    it('reads CR, LF and CRLF line ends alike', () => {
      expect(parse('data: a\r\rdata: b\n\ndata: c\r\n\r\ndata: d\r\ndata: e\n\r\n')).to.deep.equal([
        event('a'),
        event('b'),
        event('c'),
        event('d\ne'),
      ]);
    });

    it('does not dispatch an event whose closing blank line has not arrived', () => {
      const recorder = recordFast();
      recorder.feed('data: a\n');
      expect(recorder.out).to.deep.equal([]);
      expect(recorder.parser.hasPendingInput()).to.equal(true);
      recorder.feed('\n');
      expect(recorder.out).to.deep.equal([event('a')]);
      expect(recorder.parser.hasPendingInput()).to.equal(false);
    });

    it('dispatches nothing for an event without data lines, and forgets its fields', () => {
      expect(parse('event: ping\nid: 7\n\ndata: x\n\n')).to.deep.equal([event('x')]);
    });

    it('dispatches an empty-data event for a bare "data" line', () => {
      expect(parse('data\n\ndata:\n\n')).to.deep.equal([event(''), event('')]);
    });
  });

  describe('chunk-boundary hazards', () => {
    it('ends a line at a CR that closes a chunk, without waiting for the next chunk', () => {
      const recorder = recordFast();
      recorder.feed('data: a\r\r');
      expect(recorder.out).to.deep.equal([event('a')]);
    });

    it('reads a CRLF split between two chunks as one line end', () => {
      expect(parse('data: a\r', '\ndata: b\r\n\r\n')).to.deep.equal([event('a\nb')]);
      expect(parse('data: a\r\n\r', '\n', 'data: b\r\n\r\n')).to.deep.equal([event('a'), event('b')]);
    });

    it('keeps a line cut by chunk boundaries whole', () => {
      expect(parse('da', 'ta: he', 'l', 'lo\n', '\n')).to.deep.equal([event('hello')]);
      expect(parse('event: content_', 'block_delta\ndata: x\n\n')).to.deep.equal([event('x', { event: 'content_block_delta' })]);
    });

    it('keeps a line fed one character at a time whole', () => {
      const text = `data: ${'ab:c '.repeat(2000)}\n\n`;
      expect(parse(...Array.from(text))).to.deep.equal([event('ab:c '.repeat(2000))]);
    });

    it('rejoins a surrogate pair split between two chunks', () => {
      expect(parse('data: \uD83D', '\uDE00\n\n')).to.deep.equal([event('😀')]);
    });

    it('strips a byte-order mark at the start of the stream, also after an empty first chunk', () => {
      expect(parse('\uFEFFdata: a\n\n')).to.deep.equal([event('a')]);
      expect(parse('', '\uFEFF', 'data: a\n\n')).to.deep.equal([event('a')]);
    });

    it('keeps a byte-order mark that is not at the start of the stream (the line names no known field)', () => {
      expect(parse('data: a\n\n', '\uFEFFdata: b\n\n')).to.deep.equal([event('a')]);
    });
  });

  describe('fields', () => {
    it('strips exactly one space after the colon', () => {
      expect(parse('data:  two spaces\n\ndata:none\n\n')).to.deep.equal([event(' two spaces'), event('none')]);
    });

    it('names the event with the event field, an empty one meaning the default type', () => {
      expect(parse('event: delta\ndata: a\n\nevent:\ndata: b\n\ndata: c\n\n')).to.deep.equal([
        event('a', { event: 'delta' }),
        event('b'),
        event('c'),
      ]);
    });

    it('gives an event the id of its own id field, ignoring one that contains NUL', () => {
      expect(parse('id: 1\ndata: a\n\nid: 2\0\ndata: b\n\ndata: c\n\n')).to.deep.equal([event('a', { id: '1' }), event('b'), event('c')]);
    });

    it('reports a retry field of ASCII digits and ignores any other', () => {
      const recorder = recordFast();
      recorder.feed('retry: 1500\nretry: 15s\nretry:\nretry: ١٢\n\n');
      expect(recorder.out).to.deep.equal([{ type: 'retry', milliseconds: 1500 }]);
    });

    it('reports comment lines without their colon and one space, and never as events', () => {
      expect(parse(': keep-alive\n:\n:  two\ndata: x\n\n')).to.deep.equal([
        { type: 'comment', comment: 'keep-alive' },
        { type: 'comment', comment: '' },
        { type: 'comment', comment: ' two' },
        event('x'),
      ]);
    });

    it('ignores unknown fields and lines without a colon other than the known field names', () => {
      expect(parse('foo: bar\nDATA: no\ndata : no\nevents: no\ndata: yes\n\n')).to.deep.equal([event('yes')]);
    });
  });

  describe('pendingLine', () => {
    it('returns the unterminated line across chunks, and leaves the parse unchanged', () => {
      const recorder = recordFast();
      recorder.feed('data: a\n\nda');
      recorder.feed('ta: b');
      recorder.feed('c');
      expect(recorder.parser.pendingLine()).to.equal('data: bc');
      expect(recorder.parser.pendingLine()).to.equal('data: bc');
      recorder.feed('\n\n');
      expect(recorder.out).to.deep.equal([event('a'), event('bc')]);
    });

    it('is empty after a line end, also when the event is still open', () => {
      const recorder = recordFast();
      recorder.feed('data: a\r');
      expect(recorder.parser.pendingLine()).to.equal('');
      expect(recorder.parser.hasPendingInput()).to.equal(true);
    });
  });

  describe('reset', () => {
    it('forgets a partial line and the unfinished event', () => {
      const recorder = recordFast();
      recorder.feed('event: a\ndata: b\ndata: c');
      recorder.parser.reset();
      expect(recorder.parser.hasPendingInput()).to.equal(false);
      recorder.feed('data: d\n\n');
      expect(recorder.out).to.deep.equal([event('d')]);
    });

    it('processes the partial line first when asked to consume it', () => {
      const recorder = recordFast();
      recorder.feed('retry: 20');
      recorder.parser.reset({ consume: true });
      expect(recorder.out).to.deep.equal([{ type: 'retry', milliseconds: 20 }]);
    });

    it('strips a byte-order mark again after a reset', () => {
      const recorder = recordFast();
      recorder.feed('data: a\n\n');
      recorder.parser.reset();
      recorder.feed('\uFEFFdata: b\n\n');
      expect(recorder.out).to.deep.equal([event('a'), event('b')]);
    });
  });

  describe('misuse', () => {
    it('rejects a chunk that is not a string', () => {
      const parser = createFastSseParser({});
      expect(() => parser.feed(new Uint8Array([1]) as unknown as string)).to.throw(TypeError, 'Expected a string chunk, got object');
    });

    it('rejects callbacks that are not an object', () => {
      expect(() => createFastSseParser(null as unknown as object)).to.throw(TypeError, 'Expected an object of callbacks');
    });
  });

  describe('against eventsource-parser', () => {
    const line = fc.oneof(
      fc.constantFrom('', 'data', 'data:', 'data: ', 'data:  x', 'event: delta', 'event:', 'event', 'id: 7', 'id', 'id: a\0b', 'retry: 250', 'retry: x'),
      fc.constantFrom(': ping', ':', 'foo: bar', 'dat', 'data : x', 'eventx: y'),
      fc
        .array(fc.constantFrom('a', 'Z', ' ', ':', '"', '{', '}', 'é', '中', '😀', '\uD83D', '\0'), { maxLength: 12 })
        .map((chars) => `data: ${chars.join('')}`),
      fc.array(fc.constantFrom('a', ' ', ':', 'é', '😀'), { maxLength: 8 }).map((chars) => chars.join('')),
    );
    const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
    const stream = fc.array(fc.tuple(line, lineEnd), { maxLength: 40 }).map((lines) => lines.map(([text, end]) => text + end).join(''));

    function splitAt(text: string, cuts: number[]): string[] {
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const chunks: string[] = [];
      let previous = 0;
      for (const point of points) {
        chunks.push(text.slice(previous, point));
        previous = point;
      }
      chunks.push(text.slice(previous));
      return chunks;
    }

    it('emits the same events, retries and comments for random streams split at random points (fast-check, 200 runs)', () => {
      fc.assert(
        fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
          const fast = recordFast();
          const reference = recordReference();
          // The final blank lines close the last event for both (eventsource-parser holds a
          // trailing CR back until it sees what follows).
          for (const chunk of [...splitAt(text, cuts), '\n\n']) {
            fast.feed(chunk);
            reference.feed(chunk);
          }
          expect(fast.out).to.deep.equal(reference.out);
        }),
        { numRuns: 200 },
      );
    });

    it('emits the same events for a stream split at every offset', () => {
      const text = 'event: a\r\ndata: x\r\n\r\n: c\rid: 1\rdata: é😀\r\rdata: y\ndata: z\n\nretry: 9\n\n';
      const reference = recordReference();
      reference.feed(text);
      for (let cut = 0; cut <= text.length; cut++) {
        const fast = recordFast();
        fast.feed(text.slice(0, cut));
        fast.feed(text.slice(cut));
        expect(fast.out, `cut at ${cut}`).to.deep.equal(reference.out);
      }
    });
  });
});
