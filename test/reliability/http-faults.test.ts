import { expect } from 'chai';
import sinon from 'sinon';
import { DEFAULT_IDLE_TIMEOUT_MS, type HttpClientOptions } from '../../lib/clients/stream-http';
import { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../support/loopback-server';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';
import { PROVIDER_NAME, STREAM_CONTENT_TYPE, streamWithClient, within } from '../support/http-clients';
import { expectNothingLost, expectOneTerminal, isTerminal } from './support/invariants';
import { recordingHandler, replay, type Replay } from './support/replay';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

/** What each provider sends with an error status, and the message in it. */
const ERROR_BODIES: Readonly<Record<WireFormat, (status: number) => { body: unknown; message: string; code: string | undefined }>> = {
  'openai-chat': (status) => openAIError(status),
  'openai-responses': (status) => openAIError(status),
  anthropic: (status) => {
    const [type, message] =
      status === 429
        ? ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit']
        : status === 500
          ? ['api_error', 'Internal server error']
          : ['overloaded_error', 'Overloaded'];
    return { body: { type: 'error', error: { type, message } }, message, code: type };
  },
  gemini: (status) => {
    const [state, message] =
      status === 429
        ? ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).']
        : status === 500
          ? ['INTERNAL', 'An internal error has occurred.']
          : ['UNAVAILABLE', 'The model is overloaded. Please try again later.'];
    return { body: { error: { code: status, message, status: state } }, message, code: state };
  },
  ollama: (status) => {
    const message = status === 429 ? 'server busy, please try again.  maximum pending requests exceeded' : status === 500 ? 'llama runner process has terminated: signal: killed' : 'model is loading';
    return { body: { error: message }, message, code: undefined };
  },
};

function openAIError(status: number): { body: unknown; message: string; code: string | undefined } {
  const [code, message] =
    status === 429
      ? ['rate_limit_exceeded', 'Rate limit reached for gpt-test in organization org-1 on tokens per min.']
      : status === 500
        ? ['server_error', 'The server had an error while processing your request. Sorry about that!']
        : ['service_unavailable', 'The engine is currently overloaded, please try again later.'];
  return { body: { error: { message, type: code, param: null, code } }, message, code };
}

/** What each provider returns when it ignores `stream: true`: one JSON document. */
const NON_STREAM_BODIES: Readonly<Record<WireFormat, string>> = {
  'openai-chat':
    '{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}',
  'openai-responses':
    '{"id":"resp_1","object":"response","status":"completed","model":"gpt-test","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]}]}]}',
  anthropic: '{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}',
  gemini: '[{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP"}]}]',
  ollama: '{\n  "model": "llama-test",\n  "message": {"role": "assistant", "content": "Hi"},\n  "done": true\n}\n',
};

/** One client call against a fresh loopback server; the server is closed afterwards. */
async function overHttp(format: WireFormat, reply: Reply, options: HttpClientOptions = {}): Promise<Replay & { server: LoopbackServer }> {
  const server = await startLoopbackServer({ ...reply, headers: { 'content-type': STREAM_CONTENT_TYPE[format], ...reply.headers } });
  try {
    const recorder = recordingHandler(undefined, () => undefined);
    const outcome = await streamWithClient(format, recorder.handler, { baseUrl: server.url, apiKey: 'test-key', ...options });
    const message = outcome.status === 'completed' ? outcome.response : outcome.partial;
    // The client has let go of the connection once the stream is over (a stall waits for that).
    if (reply.fault === 'stall') expect(await within(Promise.all(server.requests.map((request) => request.closed)), 5000), 'the server saw the socket close').to.equal(true);
    return { calls: recorder.calls, errors: recorder.errors, outcome, message, cancelledAt: null, released: false, ended: false, server };
  } finally {
    await server.close();
  }
}

/** The run failed once, with a StreamError of this kind (returned for closer checks). */
function failedWith(run: Replay, kind: string): StreamError {
  expectOneTerminal(run);
  expect(run.outcome.status).to.equal('failed');
  const error = run.outcome.status === 'failed' ? run.outcome.error : null;
  expect(StreamError.isInstance(error) && error.kind, `a ${kind} StreamError, got ${String(error)}`).to.equal(kind);
  return error as StreamError;
}

/** The in-memory replay of a body's first bytes: the callbacks a connection cut there must still deliver. */
async function inMemoryPrefix(format: WireFormat, body: string, bytes: number): Promise<Replay> {
  return replay([Buffer.from(body, 'utf8').subarray(0, bytes)], format);
}

function withoutTerminal(run: Replay): unknown[] {
  return run.calls.filter((call) => !isTerminal(call));
}

describe('HTTP faults against the loopback server', () => {
  let watch: UnhandledWatch;
  before(() => {
    watch = watchUnhandled();
  });
  after(() => {
    watch.uninstall();
    expect(watch.escaped, 'unhandled rejections / uncaught exceptions').to.deep.equal([]);
  });

  for (const format of WIRE_FORMATS) {
    describe(`${format} client`, () => {
      const body = TRANSCRIPTS[format];
      const half = Math.floor(Buffer.byteLength(body) / 2);
      const provider = PROVIDER_NAME[format];

      it('fails with one network error when the connection is reset mid-stream, keeping everything delivered before it', async () => {
        const run = await overHttp(format, { body, chunkSize: 16, sendBytes: half, fault: 'reset' });
        const error = failedWith(run, 'network');
        expect(error.message).to.match(/^The connection failed while reading the stream: /);
        // A reset may discard bytes the client had not read yet: what arrived is a prefix of what was sent.
        const delivered = withoutTerminal(run);
        expect(delivered).to.deep.equal(withoutTerminal(await inMemoryPrefix(format, body, half)).slice(0, delivered.length));
        expectNothingLost(run);
      });

      it('fails with one network error when the connection is reset before the first body byte', async () => {
        const run = await overHttp(format, { body, sendBytes: 0, fault: 'reset' });
        failedWith(run, 'network');
        expect(run.calls).to.have.lengthOf(1);
      });

      it('fails with one timeout error when the server stalls mid-stream past idleTimeoutMs, and closes the socket', async () => {
        const run = await overHttp(format, { body, chunkSize: 64, sendBytes: half, fault: 'stall' }, { idleTimeoutMs: 100 });
        const error = failedWith(run, 'timeout');
        expect(error.message).to.equal('No data arrived for 100 ms (idleTimeoutMs)');
        expect(run.server.requests[0]?.closedByClient).to.equal(true);
        // Normally all that was sent; on a starved machine the timeout may fire between two chunks.
        const delivered = withoutTerminal(run);
        expect(delivered).to.deep.equal(withoutTerminal(await inMemoryPrefix(format, body, half)).slice(0, delivered.length));
        expectNothingLost(run);
      });

      it('fails with one timeout error when the server sends headers and then nothing', async () => {
        const run = await overHttp(format, { body, sendBytes: 0, fault: 'stall' }, { idleTimeoutMs: 100 });
        failedWith(run, 'timeout');
        expect(run.calls).to.have.lengthOf(1);
        expect(run.server.requests[0]?.closedByClient).to.equal(true);
      });

      for (const status of [429, 500, 503]) {
        it(`fails with one http error carrying status ${status}, the JSON body and the provider’s message`, async () => {
          const expected = ERROR_BODIES[format](status);
          const run = await overHttp(format, { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(expected.body) });
          const error = failedWith(run, 'http');
          expect(run.calls).to.have.lengthOf(1);
          expect({ status: error.status, body: error.body, code: error.code }).to.deep.equal({ status, body: expected.body, code: expected.code });
          expect(error.message).to.match(new RegExp(`^HTTP ${status}\\b.* from ${provider}: `));
          expect(error.message).to.include(expected.message);
        });

        it(`fails with one http error carrying status ${status} when the body is empty`, async () => {
          const run = await overHttp(format, { status, headers: { 'content-type': 'text/plain' }, body: '' });
          const error = failedWith(run, 'http');
          expect(run.calls).to.have.lengthOf(1);
          expect(error.status).to.equal(status);
          expect(error.message).to.match(new RegExp(`^HTTP ${status}\\b.* from ${provider}: no error body$`));
        });

        it(`fails with one http error carrying status ${status} and quoting a plain-text body`, async () => {
          const run = await overHttp(format, { status, headers: { 'content-type': 'text/plain' }, body: 'upstream connect error or disconnect/reset before headers' });
          const error = failedWith(run, 'http');
          expect([error.status, error.body]).to.deep.equal([status, 'upstream connect error or disconnect/reset before headers']);
          expect(error.message).to.match(new RegExp(`^HTTP ${status}\\b.* from ${provider}: upstream connect error or disconnect/reset before headers$`));
        });
      }

      it('fails with one http error naming the status for a text/html error page', async () => {
        const page = '<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center></body>\n</html>\n';
        const run = await overHttp(format, { status: 502, headers: { 'content-type': 'text/html' }, body: page });
        const error = failedWith(run, 'http');
        expect(run.calls).to.have.lengthOf(1);
        expect(error.status).to.equal(502);
        expect(error.message).to.match(new RegExp(`^HTTP 502\\b.* from ${provider}: .*502 Bad Gateway`));
      });

      it('fails with one format error for a 200 text/html page instead of a stream', async () => {
        const run = await overHttp(format, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><body><form>Please sign in</form></body></html>' });
        const error = failedWith(run, 'format');
        expect(run.calls).to.have.lengthOf(1);
        expect(error.message).to.include(provider).and.include('HTML').and.include('Please sign in');
      });

      it('fails with one format error for a 200 JSON document (a response that is not a stream at all)', async () => {
        const run = await overHttp(format, { status: 200, headers: { 'content-type': 'application/json' }, body: NON_STREAM_BODIES[format] });
        const error = failedWith(run, 'format');
        expect(run.calls).to.have.lengthOf(1);
        expect(error.message).to.match(/^Expected an? .*stream.*, got (JSON instead|a JSON document, not a stream): /);
      });

      it('fails with one format error for a 200 plain-text body', async () => {
        const run = await overHttp(format, { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' });
        const error = failedWith(run, 'format');
        expect(run.calls).to.have.lengthOf(1);
        expect(error.message).to.match(/got text that is not (Server-Sent Events|NDJSON): "OK"$/);
      });

      it('fails with one truncated error for a 200 with an empty body', async () => {
        const run = await overHttp(format, { status: 200, body: '' });
        failedWith(run, 'truncated');
        expect(run.calls).to.have.lengthOf(1);
      });
    });
  }

  describe('idle timeout default', () => {
    let clock: sinon.SinonFakeTimers | null = null;
    afterEach(() => {
      clock?.restore();
      clock = null;
    });

    it(`fails a silent stream after ${DEFAULT_IDLE_TIMEOUT_MS} ms when no idleTimeoutMs is given`, async () => {
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      let cancelled = false;
      const silent = new ReadableStream<Uint8Array>({
        cancel() {
          cancelled = true;
        },
      });
      const fetchSilent: typeof fetch = () => Promise.resolve(new Response(silent, { headers: { 'content-type': 'text/event-stream' } }));
      const recorder = recordingHandler(undefined, () => undefined);
      const pending = streamWithClient('anthropic', recorder.handler, { fetch: fetchSilent });
      await clock.tickAsync(DEFAULT_IDLE_TIMEOUT_MS - 1);
      expect(recorder.calls, 'nothing before the timeout').to.deep.equal([]);
      await clock.tickAsync(1);
      const outcome = await pending;
      expect(recorder.calls).to.deep.equal([{ on: 'onError', value: { name: 'StreamError', kind: 'timeout', message: `No data arrived for ${DEFAULT_IDLE_TIMEOUT_MS} ms (idleTimeoutMs)` } }]);
      expect([outcome.status, cancelled]).to.deep.equal(['failed', true]);
    });
  });
});
