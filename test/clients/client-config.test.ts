import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { formatOllamaHost } from '../../lib/providers/ollama/ollama-descriptor';
import { streamAnthropic, streamGemini, streamOllama, streamOpenAIChat, streamOpenAIResponses } from '../../lib/clients/http-clients';
import { readEnv } from '../../lib/clients/environment';
import type { HttpClientOptions, HttpStreamOutcome } from '../../lib/clients/stream-http';
import { PARTSTREAM_VERSION } from '../../lib/clients/version';
import type { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { STREAM_CONTENT_TYPE } from '../support/http-clients';
import { startLoopbackServer } from '../support/loopback-server';
import { recordingHandler } from '../support/recording-handler';
import { expectRejection, rejectionOf } from '../support/rejection';
import { TRANSCRIPTS } from '../support/transcripts';
import { TEST_ENV_KEYS, withEnv, withoutClientEnv } from './support/client-env';

const repo = path.resolve(__dirname, '../..');
const KEY = 'sk-config-test-key-0123456789';

/** What a fake fetch was asked for. */
interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** A fetch that records the request and answers with the format's transcript (or `answer`). */
function fakeFetch(format: WireFormat, sent: Sent[], answer?: () => Response): typeof fetch {
  return (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    sent.push({ url: String(input), headers, body: JSON.parse(String(init?.body)) as Record<string, unknown> });
    return Promise.resolve(answer?.() ?? new Response(TRANSCRIPTS[format], { headers: { 'content-type': STREAM_CONTENT_TYPE[format] } }));
  };
}

type AnyOptions = HttpClientOptions & { readonly baseURL?: string; readonly host?: string };

/** Calls a client with a minimal request through a fake fetch; returns what it sent and the outcome. */
async function send(format: WireFormat, options: AnyOptions = {}, handler: StreamingChatResponseHandler = recordingHandler()): Promise<Sent & { outcome: HttpStreamOutcome }> {
  const sent: Sent[] = [];
  const all = { fetch: fakeFetch(format, sent), maxRetries: 0, ...options };
  const outcome = await call(format, all, handler);
  expect(sent).to.have.length(1);
  return { ...(sent[0] as Sent), outcome };
}

function call(format: WireFormat, options: AnyOptions, handler: StreamingChatResponseHandler): Promise<HttpStreamOutcome> {
  const messages = [{ role: 'user' as const, content: 'Hi' }];
  switch (format) {
    case 'openai-chat':
      return streamOpenAIChat({ model: 'gpt-test', messages }, handler, options);
    case 'openai-responses':
      return streamOpenAIResponses({ model: 'gpt-test', input: 'Hi' }, handler, options);
    case 'anthropic':
      return streamAnthropic({ model: 'claude-test', max_tokens: 8, messages }, handler, options);
    case 'gemini':
      return streamGemini({ model: 'gemini-test', contents: [] }, handler, options);
    case 'ollama':
      return streamOllama({ model: 'llama-test', messages }, handler, options);
    default:
      throw new TypeError(`Expected a wire format, got ${String(format)}`);
  }
}

const GEMINI_PATH = 'models/gemini-test:streamGenerateContent?alt=sse';

describe('HTTP clients: base URLs, keys and environment variables as the official SDKs', () => {
  withoutClientEnv(TEST_ENV_KEYS);

  describe('defaults', () => {
    const defaults: [WireFormat, string][] = [
      ['openai-chat', 'https://api.openai.com/v1/chat/completions'],
      ['openai-responses', 'https://api.openai.com/v1/responses'],
      ['anthropic', 'https://api.anthropic.com/v1/messages'],
      ['gemini', `https://generativelanguage.googleapis.com/v1beta/${GEMINI_PATH}`],
      ['ollama', 'http://127.0.0.1:11434/api/chat'],
    ];
    for (const [format, url] of defaults) {
      it(`${format}: posts to ${url}`, async () => {
        expect((await send(format)).url).to.equal(url);
      });
    }
  });

  describe('baseURL (Ollama: host), spelled and taken as each SDK takes it', () => {
    const cases: [WireFormat, AnyOptions, string][] = [
      ['openai-chat', { baseURL: 'http://h.test/v1' }, 'http://h.test/v1/chat/completions'],
      ['openai-responses', { baseURL: 'http://h.test/v1/' }, 'http://h.test/v1/responses'],
      ['anthropic', { baseURL: 'http://h.test' }, 'http://h.test/v1/messages'],
      ['anthropic', { baseURL: 'http://h.test/proxy/' }, 'http://h.test/proxy/v1/messages'],
      ['gemini', { baseURL: 'http://h.test' }, `http://h.test/v1beta/${GEMINI_PATH}`],
      ['ollama', { host: 'http://h.test:8080' }, 'http://h.test:8080/api/chat'],
      ['ollama', { host: 'h.test' }, 'http://h.test:11434/api/chat'],
    ];
    for (const [format, options, url] of cases) {
      it(`${format}: ${JSON.stringify(options)} posts to ${url}`, async () => {
        expect((await send(format, options)).url).to.equal(url);
      });
    }

    it('keeps the deprecated baseUrl working as before (Anthropic’s with /v1, Gemini’s with the version)', async () => {
      expect((await send('anthropic', { baseUrl: 'http://h.test/v1' })).url).to.equal('http://h.test/v1/messages');
      expect((await send('gemini', { baseUrl: 'http://h.test/v1beta' })).url).to.equal(`http://h.test/v1beta/${GEMINI_PATH}`);
      expect((await send('openai-chat', { baseUrl: 'http://h.test/v1' })).url).to.equal('http://h.test/v1/chat/completions');
      expect((await send('ollama', { baseUrl: 'http://h.test:1' })).url).to.equal('http://h.test:1/api/chat');
    });

    it('rejects with a TypeError for baseURL and baseUrl together, and for a baseURL or host that is not a string', async () => {
      await expectRejection(
        () => streamAnthropic({ model: 'm', max_tokens: 1, messages: [] }, recordingHandler(), { baseURL: 'http://a.test', baseUrl: 'http://a.test/v1' }),
        TypeError,
        'Expected baseURL or the deprecated baseUrl, got both: pass baseURL alone',
      );
      await expectRejection(() => streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { baseURL: 42 as never }), TypeError, 'Expected baseURL to be a string, got number 42');
      await expectRejection(() => streamOllama({ model: 'm', messages: [] }, recordingHandler(), { host: {} as never }), TypeError, 'Expected host to be a string, got an object');
    });

    it('names baseURL when it is not an absolute URL', async () => {
      await expectRejection(() => streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { baseURL: 'api.example.com/v1' }), TypeError, 'Expected baseURL to be an absolute URL');
    });
  });

  describe('environment variables, read when the option is not given', () => {
    it('OPENAI_API_KEY and OPENAI_BASE_URL, for both OpenAI clients', async () => {
      await withEnv({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'http://openai.test/v1' }, async () => {
        for (const [format, url] of [
          ['openai-chat', 'http://openai.test/v1/chat/completions'],
          ['openai-responses', 'http://openai.test/v1/responses'],
        ] as const) {
          const sent = await send(format);
          expect([sent.url, sent.headers.authorization]).to.deep.equal([url, `Bearer ${KEY}`]);
        }
      });
    });

    it('the options win over the variables', async () => {
      await withEnv({ OPENAI_API_KEY: 'sk-from-env-000000', OPENAI_BASE_URL: 'http://env.test/v1' }, async () => {
        const sent = await send('openai-chat', { apiKey: KEY, baseURL: 'http://option.test/v1' });
        expect([sent.url, sent.headers.authorization]).to.deep.equal(['http://option.test/v1/chat/completions', `Bearer ${KEY}`]);
      });
    });

    it('ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (the host, as the SDK takes it)', async () => {
      await withEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://anthropic.test' }, async () => {
        const sent = await send('anthropic');
        expect([sent.url, sent.headers['x-api-key']]).to.deep.equal(['http://anthropic.test/v1/messages', KEY]);
      });
    });

    it('GEMINI_API_KEY, else GOOGLE_API_KEY', async () => {
      await withEnv({ GEMINI_API_KEY: 'gemini-key-000000', GOOGLE_API_KEY: 'google-key-000000' }, async () => {
        expect((await send('gemini')).headers['x-goog-api-key']).to.equal('gemini-key-000000');
      });
      await withEnv({ GOOGLE_API_KEY: 'google-key-000000' }, async () => {
        expect((await send('gemini')).headers['x-goog-api-key']).to.equal('google-key-000000');
      });
    });

    it('OLLAMA_HOST, completed as Ollama reads it', async () => {
      await withEnv({ OLLAMA_HOST: '0.0.0.0' }, async () => {
        expect((await send('ollama')).url).to.equal('http://0.0.0.0:11434/api/chat');
      });
    });

    it('each client reads its own provider’s key variable only, and Ollama none (a local Ollama takes no key)', async () => {
      const variables = {
        OPENAI_API_KEY: 'openai-env-key-0001',
        ANTHROPIC_API_KEY: 'anthropic-env-key-0002',
        GEMINI_API_KEY: 'gemini-env-key-0003',
        GOOGLE_API_KEY: 'google-env-key-0004',
      };
      const credentials = (headers: Record<string, string>): Record<string, string> =>
        Object.fromEntries(Object.entries(headers).filter(([name]) => ['authorization', 'x-api-key', 'x-goog-api-key'].includes(name)));
      await withEnv(variables, async () => {
        const seen: [WireFormat, Record<string, string>][] = [];
        for (const format of ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama'] as const) seen.push([format, credentials((await send(format)).headers)]);
        expect(seen).to.deep.equal([
          ['openai-chat', { authorization: 'Bearer openai-env-key-0001' }],
          ['openai-responses', { authorization: 'Bearer openai-env-key-0001' }],
          ['anthropic', { 'x-api-key': 'anthropic-env-key-0002' }],
          ['gemini', { 'x-goog-api-key': 'gemini-env-key-0003' }],
          ['ollama', {}],
        ]);
        expect(credentials((await send('ollama', { apiKey: 'hosted-ollama-key' })).headers)).to.deep.equal({ authorization: 'Bearer hosted-ollama-key' });
      });
    });

    it('ignores a blank variable, as the SDKs do', async () => {
      await withEnv({ OPENAI_API_KEY: '  ', OPENAI_BASE_URL: '' }, async () => {
        const sent: Sent[] = [];
        const pending = streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { fetch: fakeFetch('openai-chat', sent) });
        await pending.then(
          () => expect.fail('Expected a missing-key rejection'),
          (error: unknown) => expect((error as Error).message).to.match(/^Missing API key for OpenAI Chat Completions: pass apiKey or set OPENAI_API_KEY/),
        );
        expect(sent).to.deep.equal([]);
        const keyed = await send('openai-chat', { apiKey: KEY });
        expect([keyed.url, keyed.headers.authorization]).to.deep.equal(['https://api.openai.com/v1/chat/completions', `Bearer ${KEY}`]);
      });
    });

    it('names the variable, never its value, for a key a header cannot carry', async () => {
      await withEnv({ ANTHROPIC_API_KEY: `${KEY}\nX-Evil: 1` }, async () => {
        const thrown = await rejectionOf(() => streamAnthropic({ model: 'm', max_tokens: 1, messages: [] }, recordingHandler(), { fetch: fakeFetch('anthropic', []) }));
        expect(thrown).to.be.instanceOf(TypeError);
        expect((thrown as Error).message).to.equal(`ANTHROPIC_API_KEY contains a character not allowed in an HTTP header (a line break) at position ${KEY.length}`);
        expect((thrown as Error).message).to.not.include(KEY);
      });
    });

    it('names the variable for a base URL that is not absolute', async () => {
      await withEnv({ OPENAI_BASE_URL: 'api.example.com/v1' }, async () => {
        await expectRejection(() => streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { apiKey: KEY }), TypeError, 'Expected OPENAI_BASE_URL to be an absolute URL');
      });
    });

    it('redacts a key read from the environment when the server echoes it back', async () => {
      await withEnv({ OPENAI_API_KEY: KEY }, async () => {
        const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } });
        const sent: Sent[] = [];
        const outcome = await streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), {
          fetch: fakeFetch('openai-chat', sent, () => new Response(body, { status: 401, headers: { 'content-type': 'application/json', 'x-echo': KEY } })),
        });
        const error = (outcome as unknown as { error: StreamError }).error;
        expect(error.message).to.equal('HTTP 401 from OpenAI Chat Completions: Incorrect API key provided: [redacted]');
        expect(JSON.stringify([error.message, error.body, outcome.http])).to.not.include(KEY);
        expect(outcome.http?.headers['x-echo']).to.equal('[redacted]');
      });
    });

    it('reads nothing and fails nowhere where there is no process (a browser)', async () => {
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process') as PropertyDescriptor;
      const sent: Sent[] = [];
      let keyed: Promise<HttpStreamOutcome>;
      let keyless: Promise<HttpStreamOutcome>;
      let read: unknown;
      await withEnv({ OPENAI_API_KEY: KEY }, async () => {
        Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
        try {
          read = readEnv('OPENAI_API_KEY');
          keyed = streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { fetch: fakeFetch('openai-chat', sent), apiKey: 'sk-given-0000' });
          keyless = streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { fetch: fakeFetch('openai-chat', sent) });
        } finally {
          Object.defineProperty(globalThis, 'process', descriptor);
        }
        expect(read).to.equal(undefined);
        expect((await keyed).status).to.equal('completed');
        // The variable set in the (hidden) environment is not read: the key is missing.
        const refused = await keyless.then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused).to.be.instanceOf(TypeError);
        expect(sent.map((request) => request.headers.authorization)).to.deep.equal(['Bearer sk-given-0000']);
      });
    });

    it('formats an Ollama host as its SDK does', () => {
      const table: [string, string][] = [
        ['127.0.0.1', 'http://127.0.0.1:11434'],
        ['0.0.0.0:8080', 'http://0.0.0.0:8080'],
        [':11435', 'http://127.0.0.1:11435'],
        ['example.com/ollama', 'http://example.com:11434/ollama'],
        ['[::1]', 'http://[::1]:11434'],
        ['[::1]:9000', 'http://[::1]:9000'],
        ['https://ollama.example.com', 'https://ollama.example.com'],
        ['http://localhost:11434', 'http://localhost:11434'],
      ];
      expect(table.map(([host]) => [host, formatOllamaHost(host)])).to.deep.equal(table);
    });
  });

  describe('no Node-only API in the clients (they run in a browser)', () => {
    it('lib/clients imports no node: module and reads the environment only through globalThis.process?.env', () => {
      const dir = path.join(repo, 'lib/clients');
      const offending: string[] = [];
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.ts'))) {
        const code = readFileSync(path.join(dir, name), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        if (/from '(node:)?(fs|path|os|http|https|net|child_process|process|util|buffer|zlib)'|require\(/.test(code)) offending.push(`${name}: a Node import`);
        if (/(^|[^.?\w])process\b(?!\?:)/.test(code)) offending.push(`${name}: a bare process`);
      }
      expect(offending).to.deep.equal([]);
    });
  });
});

describe('HTTP clients: User-Agent and outcome.http', () => {
  withoutClientEnv(TEST_ENV_KEYS);
  const version = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;

  it('sends User-Agent: partstream/<version in package.json>', async () => {
    expect(PARTSTREAM_VERSION).to.equal(version);
    for (const format of ['openai-chat', 'anthropic', 'gemini', 'ollama'] as const) {
      expect((await send(format)).headers['user-agent'], format).to.equal(`partstream/${version}`);
    }
  });

  it('lets headers override the User-Agent', async () => {
    expect((await send('openai-responses', { headers: { 'User-Agent': 'my-app/2' } })).headers['user-agent']).to.equal('my-app/2');
  });

  it('puts the status, the headers (lower-case, frozen) and the request id on a completed outcome', async () => {
    const server = await startLoopbackServer({ body: TRANSCRIPTS['openai-chat'], headers: { 'X-Request-Id': 'req_abc', 'X-Custom': 'Yes' } });
    try {
      const outcome = await streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), { baseURL: server.url });
      expect(outcome.status).to.equal('completed');
      const http = outcome.http;
      expect([http?.status, http?.requestId, http?.headers['x-custom'], http?.headers['content-type']]).to.deep.equal([200, 'req_abc', 'Yes', 'text/event-stream']);
      expect(Object.keys(http?.headers ?? {}).every((name) => name === name.toLowerCase())).to.equal(true);
      expect([Object.isFrozen(outcome), Object.isFrozen(http), Object.isFrozen(http?.headers)]).to.deep.equal([true, true, true]);
      expect(Object.getPrototypeOf(http?.headers)).to.equal(Object.prototype);
    } finally {
      await server.close();
    }
  });

  it('takes Anthropic’s request-id, and puts http on a failed outcome too', async () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } });
    const server = await startLoopbackServer({ status: 400, body, headers: { 'content-type': 'application/json', 'request-id': 'req_011' } });
    try {
      const outcome = await streamAnthropic({ model: 'm', max_tokens: 1, messages: [] }, recordingHandler(), { baseURL: server.url });
      expect(outcome.status).to.equal('failed');
      expect([outcome.http?.status, outcome.http?.requestId]).to.deep.equal([400, 'req_011']);
    } finally {
      await server.close();
    }
  });

  it('has a null requestId when the server sends none, joins repeated headers, and keeps a __proto__ header a plain key', async () => {
    const headers = new Headers({ 'content-type': 'text/event-stream' });
    headers.append('__proto__', 'polluted');
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const sent: Sent[] = [];
    const outcome = await streamOpenAIChat({ model: 'm', messages: [] }, recordingHandler(), {
      fetch: fakeFetch('openai-chat', sent, () => new Response(TRANSCRIPTS['openai-chat'], { headers })),
    });
    const http = outcome.http;
    expect(http?.requestId).to.equal(null);
    expect(http?.headers['set-cookie']).to.equal('a=1, b=2');
    expect(Object.prototype.hasOwnProperty.call(http?.headers, '__proto__')).to.equal(true);
    expect(Object.getPrototypeOf(http?.headers)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});

describe('HTTP clients: extraBody, the typed escape hatch', () => {
  withoutClientEnv(TEST_ENV_KEYS);

  it('merges its fields into the body after the typed ones, never letting it turn streaming off', async () => {
    const sent: Sent[] = [];
    await streamOpenAIChat({ model: 'gpt-test', messages: [], temperature: 0.5, extraBody: { top_k: 40, temperature: 0.1, stream: false } }, recordingHandler(), {
      fetch: fakeFetch('openai-chat', sent),
    });
    expect(sent[0]?.body).to.deep.equal({ model: 'gpt-test', messages: [], temperature: 0.1, top_k: 40, stream: true, stream_options: { include_usage: true } });
  });

  it('sends Gemini’s fields without the model, and Anthropic’s and Ollama’s with stream: true', async () => {
    const gemini: Sent[] = [];
    await streamGemini({ model: 'gemini-test', contents: [], extraBody: { labels: { team: 'a' } } }, recordingHandler(), { fetch: fakeFetch('gemini', gemini) });
    expect(gemini[0]?.body).to.deep.equal({ contents: [], labels: { team: 'a' } });
    const anthropic: Sent[] = [];
    await streamAnthropic({ model: 'c', max_tokens: 1, messages: [], extraBody: { stream: false } }, recordingHandler(), { fetch: fakeFetch('anthropic', anthropic) });
    expect(anthropic[0]?.body).to.deep.equal({ model: 'c', max_tokens: 1, messages: [], stream: true });
    const ollama: Sent[] = [];
    await streamOllama({ model: 'l', messages: [], extraBody: { options: { mirostat_new: 1 } } }, recordingHandler(), { fetch: fakeFetch('ollama', ollama) });
    expect(ollama[0]?.body).to.deep.equal({ model: 'l', messages: [], options: { mirostat_new: 1 }, stream: true });
  });
});
