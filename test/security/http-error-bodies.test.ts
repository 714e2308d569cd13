import { expect } from 'chai';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { StreamOutcome } from '../../lib/driver/consume-stream';
import { ERROR_BODY_TIME_LIMIT_MS } from '../../lib/clients/read-error-response';
import type { HttpClientOptions } from '../../lib/clients/stream-http';
import { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { STREAM_CONTENT_TYPE, streamWithClient, within } from '../support/http-clients';
import { startLoopbackServer, type Reply } from '../support/loopback-server';
import { recordingHandler, type RecordingHandler } from '../support/recording-handler';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';

const ERROR_JSON = '{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}';
/** Bytes that are not gzip (nor brotli) at all. */
const GARBAGE = Buffer.from('these bytes were never compressed, whatever the header says; '.repeat(4));

interface Run {
  readonly outcome: StreamOutcome;
  readonly handler: RecordingHandler;
  readonly elapsedMs: number;
}

/** One client call against a fresh loopback server, bounded by `limitMs` (false when it did not settle by then); the server is closed afterwards either way. */
async function overHttp(format: WireFormat, reply: Reply, options: HttpClientOptions = {}, limitMs = 15_000): Promise<Run | false> {
  const server = await startLoopbackServer({ ...reply, headers: { 'content-type': STREAM_CONTENT_TYPE[format], ...reply.headers } });
  try {
    const handler = recordingHandler();
    const started = Date.now();
    let run: Run | undefined;
    const settled = streamWithClient(format, handler, { baseUrl: server.url, ...options }).then((outcome) => {
      run = { outcome, handler, elapsedMs: Date.now() - started };
    });
    return (await within(settled, limitMs)) && run !== undefined ? run : false;
  } finally {
    await server.close();
  }
}

function failedWith(run: Run | false, kind: string): StreamError {
  expect(run, 'the stream settled in time').not.to.equal(false);
  const { outcome, handler } = run as Run;
  expect(outcome.status).to.equal('failed');
  const error = outcome.status === 'failed' ? outcome.error : null;
  expect(StreamError.isInstance(error) && error.kind, `a ${kind} StreamError, got ${String(error)}`).to.equal(kind);
  expect(handler.errors, 'one onError with the same error').to.deep.equal([error]);
  return error as StreamError;
}

/** A body that trickles one byte every 100 ms and would take far longer than any test to end. */
const trickle = (status: number): Reply => ({ status, headers: { 'content-type': 'application/json' }, body: ERROR_JSON.repeat(100), chunkSize: 1, delayMs: 100 });

describe('HTTP error bodies that are slow, cut or undecodable', () => {
  describe('an error status whose body trickles and never ends', () => {
    it('is reported as http with its status before the idle timeout, with the part of the body that arrived', async () => {
      const error = failedWith(await overHttp('openai-chat', trickle(500), { idleTimeoutMs: 2000 }), 'http');
      expect(error.status).to.equal(500);
      expect(error.message).to.match(/^HTTP 500 Internal Server Error from OpenAI Chat Completions: .* \(the error body was still arriving after \d+ ms\)$/);
      expect(typeof error.body).to.equal('string');
      expect((error.body as string).length).to.be.greaterThan(0);
      expect(ERROR_JSON.startsWith(error.body as string), 'the body is what arrived').to.equal(true);
    });

    it(`is reported as http within ERROR_BODY_TIME_LIMIT_MS (${ERROR_BODY_TIME_LIMIT_MS} ms) with the default idle timeout`, async function () {
      this.timeout(30_000);
      const run = await overHttp('anthropic', trickle(503), {}, 15_000);
      const error = failedWith(run, 'http');
      expect(error.status).to.equal(503);
      expect(error.message).to.include(`still arriving after ${ERROR_BODY_TIME_LIMIT_MS} ms`);
      expect((run as Run).elapsedMs).to.be.lessThan(ERROR_BODY_TIME_LIMIT_MS + 10_000);
    });
  });

  describe('an error status whose body is cut', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}: a connection reset mid-body is reported as http with the status and what arrived`, async () => {
        const error = failedWith(await overHttp(format, { status: 500, headers: { 'content-type': 'application/json' }, body: ERROR_JSON, sendBytes: 30, fault: 'reset' }), 'http');
        expect(error.status).to.equal(500);
        expect(error.message).to.include('(the error body was cut off: ');
        expect(error.body).to.equal(ERROR_JSON.slice(0, 30));
        expect(error.cause).to.be.instanceOf(Error);
      });
    }
  });

  describe('a body with content-encoding gzip that is not gzip', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}: a 200 stream is a network error saying the body could not be decoded, with zlib's error as cause`, async () => {
        const error = failedWith(await overHttp(format, { headers: { 'content-encoding': 'gzip' }, body: GARBAGE }), 'network');
        expect(error.message).to.match(/^The response body from .+ could not be decoded \(content-encoding gzip\): incorrect header check$/);
        expect((error.cause as { code?: unknown }).code).to.equal('Z_DATA_ERROR');
      });

      it(`${format}: a 500 is reported as http with its status, saying the error body could not be decoded`, async () => {
        const error = failedWith(await overHttp(format, { status: 500, headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' }, body: GARBAGE }), 'http');
        expect(error.status).to.equal(500);
        expect(error.message).to.include('(the error body could not be decoded (content-encoding gzip): incorrect header check)');
        expect((error.cause as { code?: unknown }).code).to.equal('Z_DATA_ERROR');
      });
    }

    it('a stream that turns corrupt part-way keeps the text decoded before and fails as undecodable', async () => {
      const chunk = (text: string): string =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
      const frames = Array.from({ length: 400 }, (_, n) => chunk(`word ${n} ${'x'.repeat(n % 50)} `)).join('');
      // A whole gzip member, then bytes that are not one, still arriving when the decompressor meets them.
      const damaged = Buffer.concat([gzipSync(Buffer.from(frames)), GARBAGE, GARBAGE, GARBAGE]);
      const run = await overHttp('openai-chat', { headers: { 'content-encoding': 'gzip' }, body: damaged, chunkSize: 64, delayMs: 2 });
      const error = failedWith(run, 'network');
      expect(error.message).to.match(/could not be decoded \(content-encoding gzip\): \S/);
      const texts = (run as Run).handler.calls.flatMap((call) => (call.on === 'partialResponse' ? [call.text] : []));
      expect(texts.length, 'deltas decoded before the damage').to.be.greaterThan(10);
      expect(texts.slice(0, 3)).to.deep.equal(['word 0  ', 'word 1 x ', 'word 2 xx ']);
    });

    it('a 200 stream with a corrupt brotli body is a network error saying so', async () => {
      const error = failedWith(await overHttp('gemini', { headers: { 'content-encoding': 'br' }, body: GARBAGE }), 'network');
      expect(error.message).to.match(/could not be decoded \(content-encoding br\): /);
      expect(String((error.cause as { code?: unknown }).code)).to.match(/^ERR__ERROR_/);
    });

    it('a well-formed gzip or brotli stream and error body still work', async () => {
      for (const [encoding, pack] of [
        ['gzip', gzipSync],
        ['br', brotliCompressSync],
      ] as const) {
        const ok = await overHttp('ollama', { headers: { 'content-encoding': encoding }, body: pack(Buffer.from(TRANSCRIPTS.ollama)) });
        expect(ok && ok.outcome.status, encoding).to.equal('completed');
        const error = failedWith(
          await overHttp('ollama', { status: 500, headers: { 'content-encoding': encoding, 'content-type': 'application/json' }, body: pack(Buffer.from('{"error":"model crashed"}')) }),
          'http',
        );
        expect([error.status, error.body, error.message]).to.deep.equal([500, { error: 'model crashed' }, 'HTTP 500 Internal Server Error from Ollama: model crashed']);
      }
    });
  });
});
