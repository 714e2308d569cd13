import { expect } from 'chai';
import { inspect } from 'node:util';
import { secretRedaction } from '../../lib/clients/stream-redaction';
import { StreamError } from '../../lib/handler/stream-error';

const KEY = 'sk-SENTINEL-7f3a9c';
const redaction = secretRedaction([KEY, `Bearer ${KEY}`]);

function redact(): NonNullable<typeof redaction> {
  expect(redaction).to.not.equal(undefined);
  return redaction as NonNullable<typeof redaction>;
}

describe('secretRedaction', () => {
  it('is undefined without secrets: nothing is ever looked at', () => {
    expect(secretRedaction([])).to.equal(undefined);
  });

  it('copies a StreamError that shows the key: same kind, status and shape, every field and cause redacted', () => {
    const cause = new Error(`socket said ${KEY}`);
    const error = new StreamError('provider', `bad key ${KEY}`, {
      status: 401,
      code: `code-${KEY}`,
      body: { error: { message: `bad key ${KEY}`, [KEY]: [1, `${KEY}!`] } },
      frame: `data: {"error":{"message":"bad key \\u0073k-SENTINEL-7f3a9\\u0063"}}`,
      cause,
    });
    const copy = redact().error(error) as StreamError;
    expect(StreamError.isInstance(copy)).to.equal(true);
    expect([copy.kind, copy.status, copy.message, copy.code, copy.frame]).to.deep.equal(['provider', 401, 'bad key [redacted]', 'code-[redacted]', 'data: {"error":{"message":"bad key [redacted]"}}']);
    expect(copy.body).to.deep.equal({ error: { message: 'bad key [redacted]', '[redacted]': [1, '[redacted]!'] } });
    expect((copy.cause as Error).message).to.equal('socket said [redacted]');
    for (const text of [inspect(copy, { depth: Infinity }), JSON.stringify(copy), String(copy.stack)]) expect(text).not.to.include('SENTINEL');
    // The original is left as it was (its body may be an object the mapper still holds).
    expect((error.body as { error: { message: string } }).error.message).to.equal(`bad key ${KEY}`);
  });

  it('returns an error that shows no secret as it is', () => {
    const error = new StreamError('provider', 'overloaded', { code: 'busy', body: { error: { message: 'overloaded' } }, frame: '{"error":{"message":"overloaded"}}' });
    expect(redact().error(error)).to.equal(error);
    const plain = new Error('nothing here');
    expect(redact().error(plain)).to.equal(plain);
  });

  it('finds the key spelt with JSON escapes, in either case of hex digit and with an escaped slash', () => {
    const spellings = ['\\u0073k-SENTINEL-7f3a9c', 'sk\\u002dSENTINEL\\u002D7f3a9c', '\\u0073\\u006B-SENTINEL-7f3a9c'];
    for (const spelling of spellings) {
      expect(redact().rawEvent({ event: null, data: `{"x":"${spelling}"}` }), spelling).to.deep.equal({ event: null, data: '{"x":"[redacted]"}' });
    }
    const slashKey = secretRedaction(['abc/def/ghi']) as NonNullable<typeof redaction>;
    expect(slashKey.rawEvent({ event: 'e', data: '"abc\\/def/ghi"' })).to.deep.equal({ event: 'e', data: '"[redacted]"' });
  });

  it('copies a raw event that shows the key, and returns one that does not as it is', () => {
    const sse = { event: `ev ${KEY}`, data: `data ${KEY}` };
    expect(redact().rawEvent(sse)).to.deep.equal({ event: 'ev [redacted]', data: 'data [redacted]' });
    const clean = { event: null, data: '{"a":1}' };
    expect(redact().rawEvent(clean)).to.equal(clean);
    const line = JSON.parse(`{"__proto__":{"k":"${KEY}"},"n":1}`) as object;
    const copy = redact().rawEvent(line) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).to.deep.equal({ k: '[redacted]' });
    expect(redact().rawEvent(`not json ${KEY}`)).to.equal('not json [redacted]');
  });

  it('redacts a raw value nested 100,000 deep without overflowing the stack', () => {
    let value: unknown = KEY;
    for (let i = 0; i < 100_000; i++) value = { a: value };
    let node = redact().rawEvent(value) as { a: unknown };
    for (let i = 0; i < 100_000; i++) node = node.a as { a: unknown };
    expect(node).to.equal('[redacted]');
  });

  it('replaces whole a value that shows the key and is not JSON', () => {
    const cyclic: Record<string, unknown> = { note: KEY };
    cyclic.self = cyclic;
    expect(redact().rawEvent(cyclic)).to.equal('[redacted]');
  });
});
