import { expect } from 'chai';
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import type { StreamOutcome } from '../../lib/driver/consume-stream';
import type { HttpClientOptions } from '../../lib/clients/stream-http';
import { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { streamWithClient } from '../support/http-clients';
import { startLoopbackServer, type Reply } from '../support/loopback-server';
import { recordingHandler } from '../support/recording-handler';
import { WIRE_FORMATS } from '../support/transcripts';

const KEY = 'sk-SENTINEL-7f3a9c';

/** How a failure surfaced: the call's promise rejected (a usage error), or in the outcome (with the handler's onError). */
type Provoked = { readonly thrown: unknown } | { readonly outcome: StreamOutcome; readonly reported: readonly Error[] };

function provoke(format: WireFormat, options: HttpClientOptions): Promise<Provoked> {
  const handler = recordingHandler();
  return streamWithClient(format, handler, options).then(
    (outcome): Provoked => ({ outcome, reported: handler.errors }),
    (thrown: unknown): Provoked => ({ thrown }),
  );
}

/** Every view of an error the brief names: message, String, JSON (of it and of its spread), util.inspect with causes. */
function views(error: unknown): string[] {
  const shown = [String(error), JSON.stringify(error), inspect(error, { depth: Infinity, showHidden: false })];
  if (error instanceof Error) shown.push(error.message, JSON.stringify({ ...error }), String(error.stack));
  return shown;
}

/** The error of a provoked failure, after checking that no view of anything the caller sees holds `secret`. */
function expectNoSecret(provoked: Provoked, secret: string = KEY): Error {
  const error = 'thrown' in provoked ? provoked.thrown : provoked.outcome.status === 'failed' ? provoked.outcome.error : null;
  expect(error, 'a failure').to.be.instanceOf(Error);
  const seen = views(error);
  if ('outcome' in provoked) {
    seen.push(inspect(provoked.outcome, { depth: Infinity }), JSON.stringify(provoked.outcome));
    for (const reported of provoked.reported) seen.push(...views(reported));
  }
  for (const text of seen) expect(text, 'what the caller sees').not.to.include(secret);
  return error as Error;
}

function streamError(error: Error, kind: string): StreamError {
  expect(StreamError.isInstance(error) && error.kind, `a ${kind} StreamError, got ${String(error)}`).to.equal(kind);
  return error as StreamError;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function againstServer(format: WireFormat, reply: Reply, options: HttpClientOptions = {}): Promise<Provoked> {
  const server = await startLoopbackServer(reply);
  try {
    return await provoke(format, { baseUrl: server.url, apiKey: KEY, ...options });
  } finally {
    await server.close();
  }
}

describe('HTTP clients keep the API key and URL credentials out of every error', () => {
  for (const format of WIRE_FORMATS) {
    describe(format, () => {
      for (const [what, key, problem] of [
        ['a line break', `${KEY}\n${KEY}`, `(a line break) at position ${KEY.length}`],
        ['a CR in the middle', `sk-SENTINEL\r-7f3a9c${KEY}`, '(a line break) at position 11'],
        ['a NUL', `${KEY}\0`, `(a NUL) at position ${KEY.length}`],
        ['a character beyond Latin-1', `${KEY}€`, `(a character beyond Latin-1) at position ${KEY.length}`],
      ] as const) {
        it(`refuses a key with ${what} with a TypeError that names the position, not the key`, async () => {
          const error = expectNoSecret(await provoke(format, { baseUrl: 'http://127.0.0.1:1', apiKey: key }));
          expect(error).to.be.instanceOf(TypeError);
          expect(error.message).to.equal(`apiKey contains a character not allowed in an HTTP header ${problem}`);
          expect(error.message).not.to.include('SENTINEL');
        });
      }

      it('still accepts a key with a trailing newline (fetch trims it), and sends it trimmed', async () => {
        const server = await startLoopbackServer({ status: 418 });
        try {
          const provoked = await provoke(format, { baseUrl: server.url, apiKey: `${KEY}\n` });
          expect(streamError(expectNoSecret(provoked), 'http').status).to.equal(418);
          expect(Object.values(server.requests[0]?.headers ?? {}).some((value) => String(value).endsWith(KEY))).to.equal(true);
        } finally {
          await server.close();
        }
      });

      it('refuses a credential header with a line break without quoting it', async () => {
        const error = expectNoSecret(await provoke(format, { baseUrl: 'http://127.0.0.1:1', headers: { authorization: `Bearer ${KEY}\nX-Evil: 1` } }));
        expect(error.message).to.equal('headers["authorization"] contains a character not allowed in an HTTP header (a line break) at position 25');
      });

      it('refuses a base URL with user:password@ without quoting the password', async () => {
        const error = expectNoSecret(await provoke(format, { baseUrl: `http://someone:${KEY}@127.0.0.1:1/v1`, apiKey: KEY }));
        expect(error).to.be.instanceOf(TypeError);
        expect(error.message).to.include('Expected baseUrl without credentials');
        expect(error.message).to.include('http://127.0.0.1:1/v1');
        expect(error.message).not.to.include('someone');
      });

      for (const [what, baseUrl] of [
        ['an invalid base URL with the key in its query', `htp//example?key=${KEY}`],
        ['a host that is not a host name (no DNS involved)', `http://bad host.invalid:1/v1?key=${KEY}`],
        ['an invalid base URL with credentials', `http://someone:${KEY}@[::1/v1`],
      ] as const) {
        it(`refuses ${what} with a TypeError that quotes neither key nor credentials`, async () => {
          const error = expectNoSecret(await provoke(format, { baseUrl, apiKey: KEY }));
          expect(error).to.be.instanceOf(TypeError);
          expect(error.message).to.include('Expected baseUrl to be an absolute URL');
          expect(error.message).not.to.include('someone');
        });
      }

      it('reports a refused connection (a closed loopback port) as a network error without the key', async () => {
        const port = await closedPort();
        const error = streamError(expectNoSecret(await provoke(format, { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY })), 'network');
        expect(error.message).to.include(`http://127.0.0.1:${port}/v1`);
      });

      it('redacts a key that fetch itself put in its error and in the error’s cause', async () => {
        const leaky: typeof fetch = () => {
          const inner = Object.assign(new Error(`header value ${KEY} rejected`), { code: 'ERR_LEAKY', value: KEY });
          return Promise.reject(new TypeError(`Headers.set: "${KEY}" is an invalid header value.`, { cause: inner }));
        };
        const error = streamError(expectNoSecret(await provoke(format, { baseUrl: 'http://127.0.0.1:1', apiKey: KEY, fetch: leaky })), 'network');
        expect(error.message).to.include('Headers.set: "[redacted]" is an invalid header value.');
        const cause = error.cause as Error & { cause: Error & { code: string } };
        expect([cause.name, cause.cause.code, cause.cause.message]).to.deep.equal(['TypeError', 'ERR_LEAKY', 'header value [redacted] rejected']);
      });

      it('keeps an error from fetch without a secret as the cause, untouched', async () => {
        const original = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
        const error = streamError(expectNoSecret(await provoke(format, { baseUrl: 'http://127.0.0.1:1', apiKey: KEY, fetch: () => Promise.reject(original) })), 'network');
        expect(error.cause).to.equal(original);
      });

      it('redacts the key from an HTTP 401 whose JSON body echoes it, literally and JSON-escaped', async () => {
        const escaped = `\\u0073k-SENTINEL-7f3a9c`;
        const body = `{"error":{"message":"Incorrect API key provided: ${KEY}.","type":"invalid_request_error","code":"invalid_api_key","param":"${escaped}","${KEY}":1}}`;
        const error = streamError(expectNoSecret(await againstServer(format, { status: 401, headers: { 'content-type': 'application/json' }, body })), 'http');
        expect(error.status).to.equal(401);
        expect(error.body).to.deep.equal({
          error: { message: 'Incorrect API key provided: [redacted].', type: 'invalid_request_error', code: 'invalid_api_key', param: '[redacted]', '[redacted]': 1 },
        });
      });

      it('redacts the key from an HTTP 401 whose text body echoes it', async () => {
        const error = streamError(expectNoSecret(await againstServer(format, { status: 401, headers: { 'content-type': 'text/plain' }, body: `bad key ${KEY}, try again` })), 'http');
        expect([error.status, error.body]).to.deep.equal([401, 'bad key [redacted], try again']);
        expect(error.message).to.include('bad key [redacted], try again');
      });

      it('refuses a redirect to another origin without showing its path, query or credentials', async () => {
        const location = `http://${KEY}:${KEY}@127.0.0.1:1/${KEY}?key=${KEY}`;
        const error = streamError(expectNoSecret(await againstServer(format, { status: 307, headers: { location } })), 'http');
        expect([error.status, error.message.includes('another origin (http://127.0.0.1:1)')]).to.deep.equal([307, true]);
      });

      it('redacts an authorization header value given through headers, when the body echoes the token', async () => {
        const error = expectNoSecret(
          await againstServer(format, { status: 403, headers: { 'content-type': 'text/plain' }, body: `token ${KEY} is revoked` }, { apiKey: undefined, headers: { authorization: `Bearer ${KEY}` } }),
        );
        expect((error as StreamError).body).to.equal('token [redacted] is revoked');
      });
    });
  }
});

/** The key as a server may echo it inside JSON: escaped (`\u0073k-…`), with its slash escaped too. */
const ESCAPED = `\\u0073k-SENTINEL-7f3a9c`;

/** For each format: a stream (status 200) whose provider error echoes the key, after one event of content. */
const IN_STREAM_ERRORS: Readonly<Record<WireFormat, { readonly body: string; readonly code: string | undefined; readonly contentType?: string }>> = {
  'openai-chat': {
    body:
      'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n' +
      `data: {"error":{"message":"bad key Bearer ${KEY}","type":"invalid_request_error","param":"${ESCAPED}","code":"invalid_api_key","${KEY}":1}}\n\n`,
    code: 'invalid_api_key',
  },
  'openai-responses': {
    body:
      'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","model":"m","output":[]}}\n\n' +
      'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}}\n\n' +
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}\n\n' +
      `event: error\ndata: {"type":"error","sequence_number":1,"code":"invalid_api_key","message":"bad key Bearer ${KEY}","param":"${ESCAPED}"}\n\n`,
    code: 'invalid_api_key',
  },
  anthropic: {
    body:
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
      `event: error\ndata: {"type":"error","error":{"type":"authentication_error","message":"bad key ${KEY}","detail":"${ESCAPED}"}}\n\n`,
    code: 'authentication_error',
  },
  gemini: {
    body:
      'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}],"modelVersion":"g"}\n\n' +
      `data: {"error":{"code":401,"message":"API key not valid: ${KEY}","status":"UNAUTHENTICATED","details":[{"reason":"${ESCAPED}"}]}}\n\n`,
    code: 'UNAUTHENTICATED',
  },
  ollama: {
    body: `{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":false}\n{"error":"bad key ${KEY} (${ESCAPED})"}\n`,
    code: undefined,
    contentType: 'application/x-ndjson',
  },
};

/** For each format: a stream that surfaces an event echoing the key raw, then ends normally or with an error. */
const RAW_WITH_KEY: Readonly<Record<WireFormat, string>> = {
  'openai-chat': `data: {"object":"custom.notice","note":"key ${KEY}","escaped":"${ESCAPED}"}\n\n`,
  'openai-responses': `event: response.custom_notice\ndata: {"type":"response.custom_notice","note":"key ${KEY}","escaped":"${ESCAPED}"}\n\n`,
  anthropic: `event: custom_notice\ndata: {"type":"custom_notice","note":"key ${KEY}","escaped":"${ESCAPED}"}\n\n`,
  gemini: `data: {"customNotice":"key ${KEY}","escaped":"${ESCAPED}"}\n\n`,
  ollama:
    `{"model":"m","created_at":"t","custom_notice":"key ${KEY}","escaped":"${ESCAPED}","done":false}\n` +
    `{"event":null,"data":"a line with the two keys of an SSE event","note":"key ${KEY}"}\nkey ${KEY} is not JSON\n`,
};

/** The error event alone (the last event of the stream in IN_STREAM_ERRORS). */
function errorEvent(format: WireFormat): string {
  const { body } = IN_STREAM_ERRORS[format];
  const end = format === 'ollama' ? '\n' : '\n\n';
  return body.slice(body.lastIndexOf(end, body.length - end.length - 1) + end.length);
}

describe('HTTP clients keep the API key out of errors and raw events built from a 200 stream', () => {
  for (const format of WIRE_FORMATS) {
    describe(format, () => {
      const { body, code, contentType = 'text/event-stream' } = IN_STREAM_ERRORS[format];

      it('redacts a provider error event that echoes the key (message, body, frame, code, inspect, JSON, onError), as an HTTP error body is', async () => {
        const provoked = await againstServer(format, { headers: { 'content-type': contentType }, body });
        const error = streamError(expectNoSecret(provoked), 'provider');
        for (const text of [error.message, JSON.stringify(error.body), String(error.frame ?? '')]) expect(text).not.to.include('SENTINEL');
        expect(error.message).to.include('[redacted]');
        expect(error.code).to.equal(code);
        expect(JSON.stringify(error.body)).to.include('[redacted]');
        // What was streamed before the error is kept.
        expect('outcome' in provoked && provoked.outcome.status === 'failed' && provoked.outcome.partial.aiMessage.text).to.equal('Hi');
        expect('outcome' in provoked && provoked.reported.length).to.equal(1);
      });

      it('redacts the key from a provider error sent as the first event (read while the format is checked)', async () => {
        const error = streamError(expectNoSecret(await againstServer(format, { headers: { 'content-type': contentType }, body: errorEvent(format) })), 'provider');
        expect(error.message).to.include('[redacted]');
      });

      for (const [what, text] of [
        ['a first event of no known format', format === 'ollama' ? `not json ${KEY} ${ESCAPED}\n` : `data: not json ${KEY} ${ESCAPED}\n\n`],
        ['a stream cut inside a frame', format === 'ollama' ? `{"model":"m","note":"${KEY} ${ESCAPED}` : `data: {"note":"${KEY} ${ESCAPED}`],
      ] as const) {
        it(`redacts the key from the error of ${what} that quotes the stream`, async () => {
          const error = expectNoSecret(await againstServer(format, { headers: { 'content-type': contentType }, body: text }));
          expect(StreamError.isInstance(error), String(error)).to.equal(true);
        });
      }

      it('redacts the key from raw events (onUnmappedRawEvent), literally and JSON-escaped', async () => {
        const handler = recordingHandler();
        const server = await startLoopbackServer({ headers: { 'content-type': contentType }, body: `${RAW_WITH_KEY[format]}${errorEvent(format)}` });
        try {
          await streamWithClient(format, handler, { baseUrl: server.url, apiKey: KEY });
        } finally {
          await server.close();
        }
        const raw = handler.calls.filter((call) => call.on === 'unmappedRawEvent');
        expect(raw.length, 'raw events').to.be.at.least(1);
        for (const call of raw) {
          const shown = [JSON.stringify(call), inspect(call, { depth: Infinity })];
          for (const text of shown) expect(text).not.to.include('SENTINEL');
          expect(JSON.stringify(call)).to.include('[redacted]');
        }
      });
    });
  }

  it('leaves errors and raw events untouched when they hold no secret', async () => {
    const handler = recordingHandler();
    const server = await startLoopbackServer({ body: 'data: {"object":"custom.notice","note":"plain"}\n\ndata: {"error":{"message":"overloaded","code":"server_busy"}}\n\n' });
    let outcome: StreamOutcome;
    try {
      outcome = await streamWithClient('openai-chat', handler, { baseUrl: server.url, apiKey: KEY });
    } finally {
      await server.close();
    }
    expect(handler.calls.filter((call) => call.on === 'unmappedRawEvent').map((call) => (call as { raw: unknown }).raw)).to.deep.equal([
      { event: null, data: '{"object":"custom.notice","note":"plain"}' },
    ]);
    const error = streamError((outcome as { error: Error }).error, 'provider');
    expect([error.message, error.code, error.body, error.frame]).to.deep.equal([
      'overloaded',
      'server_busy',
      { message: 'overloaded', code: 'server_busy' },
      '{"error":{"message":"overloaded","code":"server_busy"}}',
    ]);
    expect(handler.errors[0]).to.equal(error);
  });
});
