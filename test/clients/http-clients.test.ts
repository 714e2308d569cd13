import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatResponse } from '../../lib/handler/types';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat } from '../../lib/clients/http-clients';
import type { HttpClientOptions, HttpStreamOutcome } from '../../lib/clients/stream-http';
import type { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { trackedSource } from '../support/chunk-sources';
import { STREAM_CONTENT_TYPE, streamWithClient } from '../support/http-clients';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../support/loopback-server';
import { recordingHandler, type Recorded, type RecordingHandler } from '../support/recording-handler';
import { FIXTURES_ABSENT } from '../support/recorded-fixtures';
import { noteSkipped } from '../support/skips';
import { expectRejection } from '../support/rejection';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';
import { TEST_ENV_KEYS, withoutClientEnv } from './support/client-env';

/** Deterministic chunk sizes 1 … max from a seed (a small linear congruential generator). */
function seededSizes(seed: number, max: number): (chunk: number) => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return 1 + (state % max);
  };
}

function errorsOf(handler: RecordingHandler): Recorded[] {
  return handler.calls.filter((call) => call.on === 'error' || call.on === 'completeResponse');
}

function partialOf(outcome: StreamOutcome): ChatResponse {
  if (outcome.status === 'completed') throw new Error('expected the stream to fail or be cancelled');
  return outcome.partial;
}

/** Runs one client against a loopback server answering with `reply`. */
async function overHttp(
  format: WireFormat,
  reply: Reply,
  options: HttpClientOptions & { handler?: RecordingHandler } = {},
): Promise<{ handler: RecordingHandler; outcome: StreamOutcome; server: LoopbackServer }> {
  const server = await startLoopbackServer({ headers: { 'content-type': STREAM_CONTENT_TYPE[format] }, ...reply });
  try {
    const handler = options.handler ?? recordingHandler();
    const outcome = await streamWithClient(format, handler, { baseUrl: server.url, apiKey: 'test-key', ...options });
    await Promise.all(server.requests.map((request) => request.settled));
    return { handler, outcome, server };
  } finally {
    await server.close();
  }
}

describe('HTTP clients over a loopback socket', () => {
  withoutClientEnv(TEST_ENV_KEYS);

  describe('requests', () => {
    const expectations: [WireFormat, string, Record<string, string>, (body: Record<string, unknown>) => unknown][] = [
      ['openai-chat', '/v1/chat/completions', { authorization: 'Bearer test-key' }, (body) => [body.stream, body.stream_options]],
      ['openai-responses', '/v1/responses', { authorization: 'Bearer test-key' }, (body) => [body.stream, body.input]],
      ['anthropic', '/v1/messages', { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' }, (body) => [body.stream, body.max_tokens]],
      ['gemini', '/v1/models/gemini-test:streamGenerateContent?alt=sse', { 'x-goog-api-key': 'test-key' }, (body) => [body.stream, body.model, body.contents]],
      ['ollama', '/v1/api/chat', { authorization: 'Bearer test-key' }, (body) => [body.stream, body.model]],
    ];
    const bodies: Record<WireFormat, unknown> = {
      'openai-chat': [true, { include_usage: true }],
      'openai-responses': [true, 'Hi'],
      anthropic: [true, 64],
      gemini: [undefined, undefined, [{ role: 'user', parts: [{ text: 'Hi' }] }]],
      ollama: [true, 'llama-test'],
    };
    it('gemini: accepts the model with its "models/" prefix and posts to the same path', async () => {
      const loopback = await startLoopbackServer({ body: TRANSCRIPTS.gemini, headers: { 'content-type': STREAM_CONTENT_TYPE.gemini } });
      try {
        const request = { model: 'models/gemini-test', contents: [{ role: 'user' as const, parts: [{ text: 'Hi' }] }] };
        const result = await streamGemini(request, recordingHandler(), { baseUrl: `${loopback.url}/v1/`, apiKey: 'test-key' });
        expect(result.status).to.equal('completed');
        expect(loopback.requests[0]?.url).to.equal('/v1/models/gemini-test:streamGenerateContent?alt=sse');
      } finally {
        await loopback.close();
      }
    });
    for (const [format, url, headers, pick] of expectations) {
      it(`${format}: POSTs to ${url} with the provider's headers and a streaming body`, async () => {
        const loopback = await startLoopbackServer({ body: TRANSCRIPTS[format], headers: { 'content-type': STREAM_CONTENT_TYPE[format] } });
        try {
          const result = await streamWithClient(format, recordingHandler(), { baseUrl: `${loopback.url}/v1/`, apiKey: 'test-key', headers: { 'x-extra': 'yes' } });
          expect(result.status).to.equal('completed');
          const [request] = loopback.requests;
          expect([request?.method, request?.url]).to.deep.equal(['POST', url]);
          expect(request?.headers).to.deep.include({ ...headers, 'x-extra': 'yes', 'content-type': 'application/json' });
          expect(pick(JSON.parse(request?.body ?? '{}') as Record<string, unknown>)).to.deep.equal(bodies[format]);
        } finally {
          await loopback.close();
        }
      });
    }

    it('lets extra headers override the client’s own (a newer anthropic-version)', async () => {
      const loopback = await startLoopbackServer({ body: TRANSCRIPTS.anthropic });
      try {
        await streamAnthropic({ model: 'm', max_tokens: 1, messages: [] }, recordingHandler(), { baseUrl: loopback.url, headers: { 'Anthropic-Version': '2024-01-01' } });
        expect(loopback.requests[0]?.headers['anthropic-version']).to.equal('2024-01-01');
        expect(loopback.requests[0]?.headers['x-api-key']).to.equal(TEST_ENV_KEYS.ANTHROPIC_API_KEY);
      } finally {
        await loopback.close();
      }
    });
  });

  describe('replaying a transcript at random chunk sizes', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}: gives the in-memory callbacks and outcome (seed 7)`, async () => {
        const expected = recordingHandler();
        const inMemory = await consumeStream(trackedSource([TRANSCRIPTS[format]]), expected, { format });
        const { handler, outcome } = await overHttp(format, { body: TRANSCRIPTS[format], chunkSize: seededSizes(7, 23) });
        expect(handler.calls).to.deep.equal(expected.calls);
        const { http, ...rest } = outcome as HttpStreamOutcome;
        expect(rest).to.deep.equal(inMemory);
        expect(http?.status).to.equal(200);
      });
    }
  });

  describe('error statuses', () => {
    it('turns a 500 with a JSON body into one http error carrying status, body and provider message', async () => {
      const body = { error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } };
      const { handler, outcome } = await overHttp('openai-chat', { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(errorsOf(handler)).to.deep.equal([
        { on: 'error', name: 'StreamError', kind: 'http', message: 'HTTP 500 Internal Server Error from OpenAI Chat Completions: The server had an error while processing your request.' },
      ]);
      const error = handler.errors[0] as StreamError;
      expect([error.status, error.body, error.code]).to.deep.equal([500, body, 'server_error']);
      expect(outcome).to.deep.include({ status: 'failed', error });
      expect(partialOf(outcome).aiMessage.parts).to.deep.equal([]);
    });

    it('turns a 401 into one http error with the provider’s code', async () => {
      const body = { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } };
      const { handler, outcome } = await overHttp('anthropic', { status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'http', message: 'HTTP 401 Unauthorized from Anthropic: invalid x-api-key' }]);
      expect([(handler.errors[0] as StreamError).status, (handler.errors[0] as StreamError).code]).to.deep.equal([401, 'authentication_error']);
      expect(outcome.status).to.equal('failed');
    });

    it('turns a status without a body into an http error that says so', async () => {
      const { handler } = await overHttp('ollama', { status: 404, headers: { 'content-type': 'text/plain' } });
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'http', message: 'HTTP 404 Not Found from Ollama: no error body' }]);
    });

    it('turns an HTML error page into an http error quoting the page', async () => {
      const page = '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n';
      const { handler } = await overHttp('gemini', { status: 502, headers: { 'content-type': 'text/html' }, body: page });
      expect(errorsOf(handler)).to.deep.equal([
        { on: 'error', name: 'StreamError', kind: 'http', message: 'HTTP 502 Bad Gateway from Gemini: <html> <head><title>502 Bad Gateway</title></head> <body>nginx</body> </html>' },
      ]);
      expect((handler.errors[0] as StreamError).body).to.equal(page);
    });

    it('refuses a successful HTML page as not a stream', async () => {
      const { handler } = await overHttp('openai-responses', { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><p>Sign in</p>' });
      expect(errorsOf(handler)).to.deep.equal([
        {
          on: 'error',
          name: 'StreamError',
          kind: 'format',
          message: 'Expected a stream (text/event-stream) from OpenAI Responses, got an HTML page (HTTP 200, content-type text/html; charset=utf-8): <!doctype html><p>Sign in</p>',
        },
      ]);
    });

    describe('the recorded Gemini 404', function () {
      const fixtures = path.resolve(__dirname, '../..', '../shared/fixtures');
      const file = path.join(fixtures, 'gemini/http-404-model-not-found.json');
      if (!existsSync(file)) {
        it('is absent: skipped', function () {
          noteSkipped(FIXTURES_ABSENT, 'the recorded Gemini 404');
          this.skip();
        });
        return;
      }
      it('becomes one http error with the provider’s message and status code', async () => {
        const body = readFileSync(file);
        const { handler, outcome } = await overHttp('gemini', { status: 404, headers: { 'content-type': 'text/event-stream' }, body });
        const parsed = JSON.parse(body.toString('utf8')) as { error: { message: string } };
        expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'http', message: `HTTP 404 Not Found from Gemini: ${parsed.error.message}` }]);
        const error = handler.errors[0] as StreamError;
        expect([error.status, error.code, error.body]).to.deep.equal([404, 'NOT_FOUND', parsed]);
        expect(outcome.status).to.equal('failed');
      });
    });
  });

  describe('broken connections', () => {
    it('reports a connection reset mid-tool-call once, keeping the text and the arguments received', async () => {
      const body = TRANSCRIPTS['openai-chat'];
      const cut = Buffer.byteLength(body.slice(0, body.indexOf('"\\"Zürich')));
      const { handler, outcome } = await overHttp('openai-chat', { body, chunkSize: 64, sendBytes: cut, fault: 'reset' });
      expect(errorsOf(handler).map((call) => (call.on === 'error' ? call.kind : call.on))).to.deep.equal(['network']);
      expect(outcome.status).to.equal('failed');
      const partial = partialOf(outcome).aiMessage;
      const calls = partial.parts.flatMap((part) => (part.type === 'tool_call' ? [[part.toolCall.id, part.toolCall.name, part.toolCall.arguments, part.attributes]] : []));
      expect([partial.text, calls]).to.deep.equal(['Grüße, world 👋', [['call_1', 'get_weather', '{"city":', { incomplete: 'true' }]]]);
      // The cut call was never reported complete: it is no request to execute.
      expect(partial.toolExecutionRequests).to.deep.equal([]);
    });

    for (const format of WIRE_FORMATS) {
      it(`${format}: reports a server that stops mid-frame once as truncated, keeping what arrived`, async () => {
        const body = TRANSCRIPTS[format];
        const cutAt = body.length - 25;
        const expected = recordingHandler();
        await consumeStream(trackedSource([body.slice(0, cutAt)]), expected, { format });
        const { handler, outcome } = await overHttp(format, { body, chunkSize: seededSizes(11, 40), sendBytes: Buffer.byteLength(body.slice(0, cutAt)) });
        expect(errorsOf(handler).map((call) => (call.on === 'error' ? call.kind : call.on))).to.deep.equal(['truncated']);
        expect(handler.calls).to.deep.equal(expected.calls);
        expect(partialOf(outcome).aiMessage.text).to.be.a('string').and.not.equal('');
      });
    }

    it('reports a refused connection as a network error', async () => {
      const server = await startLoopbackServer({});
      const url = server.url;
      await server.close();
      const handler = recordingHandler();
      const outcome = await streamOllama({ model: 'm', messages: [] }, handler, { baseUrl: url, maxRetries: 0 });
      expect(errorsOf(handler).map((call) => (call.on === 'error' ? call.kind : call.on))).to.deep.equal(['network']);
      expect((handler.errors[0] as StreamError).message).to.match(/^The request to Ollama \(http:\/\/127\.0\.0\.1:\d+\/api\/chat\) failed: fetch failed \(.*ECONNREFUSED.*\)$/);
      expect(outcome.status).to.equal('failed');
    });

    it('fails a stalled stream after the idle timeout and closes the socket', async () => {
      const body = TRANSCRIPTS.anthropic;
      const { handler, outcome, server } = await overHttp(
        'anthropic',
        { body, sendBytes: Buffer.byteLength(body.slice(0, body.indexOf('event: content_block_stop'))), fault: 'stall' },
        { idleTimeoutMs: 150 },
      );
      expect(errorsOf(handler)).to.deep.equal([{ on: 'error', name: 'StreamError', kind: 'timeout', message: 'No data arrived for 150 ms (idleTimeoutMs)' }]);
      expect(partialOf(outcome).aiMessage.text).to.equal('Hello from Köln ☕');
      expect(server.requests[0]?.closedByClient).to.equal(true);
    });
  });

  describe('cancel', () => {
    it('closes the socket when the handler cancels mid-stream, and delivers nothing more', async () => {
      const handler = recordingHandler({
        afterEach: (call, self) => {
          if (call.on === 'partialResponse') self.handle?.cancel();
        },
      });
      const body = TRANSCRIPTS.gemini;
      const { outcome, server } = await overHttp('gemini', { body, sendBytes: Buffer.byteLength(body.slice(0, body.indexOf('data:', 10))), fault: 'stall' }, { handler });
      expect(handler.calls).to.deep.equal([{ on: 'partialResponse', text: 'Bonjour ' }]);
      expect(outcome.status).to.equal('cancelled');
      expect(partialOf(outcome).aiMessage.text).to.equal('Bonjour ');
      expect(server.requests[0]?.closedByClient).to.equal(true);
    });

    it('closes the socket when the signal aborts before the first token', async () => {
      const controller = new AbortController();
      const server = await startLoopbackServer({ sendBytes: 0, fault: 'stall', body: TRANSCRIPTS['openai-chat'] });
      try {
        const handler = recordingHandler();
        const pending = streamOpenAIChat({ model: 'm', messages: [] }, handler, { baseUrl: server.url, signal: controller.signal });
        while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort();
        const outcome = await pending;
        await server.requests[0]?.closed;
        expect([outcome.status, handler.calls, server.requests[0]?.closedByClient]).to.deep.equal(['cancelled', [], true]);
      } finally {
        await server.close();
      }
    });

    it('sends no request at all when the signal is already aborted', async () => {
      const server = await startLoopbackServer({ body: TRANSCRIPTS.ollama });
      try {
        const handler = recordingHandler();
        const outcome = await streamOllama({ model: 'm', messages: [] }, handler, { baseUrl: server.url, signal: AbortSignal.abort() });
        expect([outcome.status, handler.calls, server.requests.length]).to.deep.equal(['cancelled', [], 0]);
      } finally {
        await server.close();
      }
    });
  });

  describe('options', () => {
    it('uses an injected fetch', async () => {
      const seen: { url: string; method: string | undefined; auth: string | null }[] = [];
      const fakeFetch: typeof fetch = (input, init) => {
        seen.push({ url: String(input), method: init?.method, auth: new Headers(init?.headers).get('authorization') });
        return Promise.resolve(new Response(TRANSCRIPTS['openai-chat'], { headers: { 'content-type': 'text/event-stream' } }));
      };
      const outcome = await streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { fetch: fakeFetch, apiKey: 'k' });
      expect(outcome.status).to.equal('completed');
      expect(seen).to.deep.equal([{ url: 'https://api.openai.com/v1/chat/completions', method: 'POST', auth: 'Bearer k' }]);
    });

    it('rejects with a TypeError for a request without a model or a bad option', async () => {
      await expectRejection(() => streamGemini({ contents: [] } as never, recordingHandler()), TypeError, 'Expected a Gemini request with a model name, got an object');
      await expectRejection(() => streamOllama({ model: 'm', messages: [] }, recordingHandler(), { baseUrl: 42 as never }), TypeError, 'Expected baseUrl to be a string, got number 42');
    });
  });
});
