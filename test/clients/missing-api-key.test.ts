import { expect } from 'chai';
import type { HttpClientOptions } from '../../lib/clients/stream-http';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { STREAM_CONTENT_TYPE, streamWithClient } from '../support/http-clients';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server';
import { recordingHandler } from '../support/recording-handler';
import { rejectionOf } from '../support/rejection';
import { TRANSCRIPTS } from '../support/transcripts';
import { withEnv, withoutClientEnv } from './support/client-env';

/** The format a request path asks for, so that one server answers every client. */
function formatOf(url: string): WireFormat {
  if (url.includes('/chat/completions')) return 'openai-chat';
  if (url.includes('/responses')) return 'openai-responses';
  if (url.includes('/messages')) return 'anthropic';
  if (url.includes('streamGenerateContent')) return 'gemini';
  return 'ollama';
}

/** The credential headers a request carried. */
function credentials(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => ['authorization', 'x-api-key', 'x-goog-api-key'].includes(name)));
}

/** Long enough for a request the client had started to reach the server. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

describe('HTTP clients: a missing API key is refused before anything is sent, as the official SDKs', () => {
  withoutClientEnv();
  let server: LoopbackServer;

  before(async () => {
    server = await startLoopbackServer(
      (request) => {
        const format = formatOf(request.url);
        return { body: TRANSCRIPTS[format], headers: { 'content-type': STREAM_CONTENT_TYPE[format] } };
      },
      { maxRequests: 100 },
    );
  });
  after(() => server.close());

  /** Calls the client of `format` against the server (key options as given, nothing else). */
  function call(format: WireFormat, options: HttpClientOptions, handler = recordingHandler()): Promise<unknown> {
    const base = format === 'ollama' ? { host: server.url } : { baseURL: format === 'openai-chat' || format === 'openai-responses' ? `${server.url}/v1` : server.url };
    // streamWithClient sends a test key unless apiKey is given: give it as the case says, absent included.
    return streamWithClient(format, handler, { ...base, ...options, apiKey: options.apiKey } as HttpClientOptions);
  }

  const needing: [WireFormat, string][] = [
    ['openai-chat', 'Missing API key for OpenAI Chat Completions: pass apiKey or set OPENAI_API_KEY'],
    ['openai-responses', 'Missing API key for OpenAI Responses: pass apiKey or set OPENAI_API_KEY'],
    ['anthropic', 'Missing API key for Anthropic: pass apiKey or set ANTHROPIC_API_KEY'],
    ['gemini', 'Missing API key for Gemini: pass apiKey or set GEMINI_API_KEY or GOOGLE_API_KEY'],
  ];
  for (const [format, message] of needing) {
    it(`${format}: rejects with a TypeError naming the variable, sends no request and calls no callback`, async () => {
      const before = server.requests.length;
      const handler = recordingHandler();
      const error = await rejectionOf(() => call(format, {}, handler));
      expect(error).to.be.instanceOf(TypeError);
      expect((error as Error).message).to.equal(`${message} (or pass apiKey: '' to send none, for a server that takes no key)`);
      await settle();
      expect([server.requests.length - before, handler.calls]).to.deep.equal([0, []]);
    });
  }

  it('sends the key from the environment when only the variable is set (each provider’s own)', async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-env-openai-01', ANTHROPIC_API_KEY: 'sk-env-anthropic-02', GOOGLE_API_KEY: 'google-env-03' }, async () => {
      const before = server.requests.length;
      for (const [format] of needing) expect(((await call(format, {})) as { status: string }).status, format).to.equal('completed');
      expect(server.requests.slice(before).map((request) => credentials(request.headers))).to.deep.equal([
        { authorization: 'Bearer sk-env-openai-01' },
        { authorization: 'Bearer sk-env-openai-01' },
        { 'x-api-key': 'sk-env-anthropic-02' },
        { 'x-goog-api-key': 'google-env-03' },
      ]);
    });
  });

  it('sends Ollama’s request with no key (a local Ollama takes none)', async () => {
    const before = server.requests.length;
    expect(((await call('ollama', {})) as { status: string }).status).to.equal('completed');
    expect(server.requests.slice(before).map((request) => credentials(request.headers))).to.deep.equal([{}]);
  });

  it('sends the caller’s own authorization header (any letter case) or the provider’s key header instead of a key', async () => {
    const before = server.requests.length;
    const cases: [WireFormat, Record<string, string>][] = [
      ['openai-chat', { Authorization: 'Bearer proxy-token-01' }],
      ['openai-responses', { authorization: 'Bearer proxy-token-02' }],
      ['anthropic', { authorization: 'Bearer oauth-token-03' }],
      ['anthropic', { 'X-Api-Key': 'header-key-04' }],
      ['gemini', { 'x-goog-api-key': 'header-key-05' }],
    ];
    for (const [format, headers] of cases) expect(((await call(format, { headers })) as { status: string }).status, format).to.equal('completed');
    expect(server.requests.slice(before).map((request) => credentials(request.headers))).to.deep.equal([
      { authorization: 'Bearer proxy-token-01' },
      { authorization: 'Bearer proxy-token-02' },
      { authorization: 'Bearer oauth-token-03' },
      { 'x-api-key': 'header-key-04' },
      { 'x-goog-api-key': 'header-key-05' },
    ]);
  });

  it('still refuses when the caller’s headers carry something else (a user agent, another provider’s key header)', async () => {
    const before = server.requests.length;
    const error = await rejectionOf(() => call('openai-chat', { headers: { 'user-agent': 'app/1', 'x-api-key': 'not-openai' } }));
    expect(error).to.be.instanceOf(TypeError);
    await settle();
    expect(server.requests.length - before).to.equal(0);
  });

  it("sends no key, on purpose, for apiKey: '' (a server that takes none), even when the variable is set", async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-env-openai-06', ANTHROPIC_API_KEY: 'sk-env-anthropic-07' }, async () => {
      const before = server.requests.length;
      for (const format of ['openai-chat', 'anthropic'] as const) expect(((await call(format, { apiKey: '' })) as { status: string }).status).to.equal('completed');
      expect(server.requests.slice(before).map((request) => credentials(request.headers))).to.deep.equal([{}, {}]);
    });
  });
});
