import { expect } from 'chai';
import { streamProvider } from '../../lib/clients/stream-client';
import { consumeStream } from '../../lib/driver/consume-stream';
import { StreamError } from '../../lib/handler/stream-error';
import type { FinishReason } from '../../lib/handler/types';
import { aiMessage, chatResponse, partialResponse, responseMetadata, tokenUsage } from '../../lib/handler/values';
import type { AnyProviderDescriptor, ProviderDescriptor } from '../../lib/providers/provider-descriptor';
import { openAIChatProvider } from '../../lib/providers/openai-chat/openai-chat-descriptor';
import type { MapperTarget, StreamMapper } from '../../lib/providers/stream-mapper';
import { userMessage, type ChatMessage } from '../../lib/replay/chat-message';
import { isJsonObject } from '../../lib/wire/read-json';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../support/loopback-server';
import { recordingHandler } from '../support/recording-handler';
import { expectRejection } from '../support/rejection';

// A provider partstream has never heard of is a descriptor (SPEC §15): with it, consumeStream,
// `auto` sniffing, the HTTP client machinery and replay all work — proved on a made-up NDJSON
// provider, "Acme", whose lines are {"acme":"text","text":…} and {"acme":"done",…}.

interface AcmeRequest {
  readonly model: string;
  readonly prompt: string;
}

function acmeFinish(reason: string | null): FinishReason | null {
  return reason === null ? null : reason === 'stop' ? 'STOP' : 'OTHER';
}

class AcmeMapper implements StreamMapper<unknown> {
  readonly framing = 'ndjson' as const;
  map(line: unknown, target: MapperTarget): boolean {
    if (!isJsonObject(line)) return false;
    if (line.acme === 'text' && typeof line.text === 'string') {
      target.handler.onPartialResponse?.(partialResponse(line.text), { streamingHandle: target.handle });
      return false;
    }
    if (line.acme === 'done') {
      target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: acmeFinish('stop'), providerFinishReason: 'stop', tokenUsage: tokenUsage(3, 2) })));
      return true;
    }
    return false;
  }
  end(target: MapperTarget): void {
    target.handler.onError(new StreamError('truncated', 'no done line'));
  }
}

const acme: ProviderDescriptor<'acme', unknown, AcmeRequest, readonly string[]> = {
  format: 'acme',
  name: 'Acme',
  expected: 'an Acme stream (NDJSON)',
  framing: 'ndjson',
  contentType: 'application/x-ndjson',
  sniff: { jsonLine: (line) => typeof line.acme === 'string' },
  createMapper: () => new AcmeMapper(),
  finishReason: acmeFinish,
  client: {
    provider: 'Acme',
    requestName: 'an Acme',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: 'ACME_BASE_URL', defaultBase: 'https://acme.invalid', version: 'v2' },
    path: (request) => `models/${encodeURIComponent(request.model)}/stream`,
    apiKeyEnv: ['ACME_API_KEY'],
    auth: { header: 'x-acme-key', prefix: 'Key ' },
    headers: { 'acme-version': '7' },
    body: (request) => ({ input: request.prompt, stream: true }),
  },
  replay: (history: readonly ChatMessage[]) => history.map((message) => message.type),
  telemetry: { providerName: 'acme', operationName: 'chat' },
};

const BODY = '{"acme":"text","text":"Hi"}\n{"acme":"beep"}\n{"acme":"text","text":" there"}\n{"acme":"done"}\n';

async function* chunks(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += 7) yield text.slice(at, at + 7);
}

describe('a custom provider as a descriptor (SPEC §15)', () => {
  it('consumeStream reads it with format: descriptor, surfacing the lines no callback models raw', async () => {
    const handler = recordingHandler();
    const outcome = await consumeStream(chunks(BODY), handler, { format: acme });
    expect(outcome.status).to.equal('completed');
    expect(handler.calls).to.deep.equal([
      { on: 'partialResponse', text: 'Hi' },
      { on: 'unmappedRawEvent', raw: { acme: 'beep' } },
      { on: 'partialResponse', text: ' there' },
      { on: 'completeResponse', text: 'Hi there', thinking: null },
    ]);
  });

  it("format 'auto' recognises it among partstream's own formats when it is in providers, and not otherwise", async () => {
    const sniffed = await consumeStream(chunks(BODY), recordingHandler(), { providers: [acme] });
    expect(sniffed.status === 'completed' && sniffed.response.aiMessage.text).to.equal('Hi there');
    const unknown = await consumeStream(chunks(BODY), recordingHandler());
    expect(unknown.status).to.equal('failed');
    expect(unknown.status === 'failed' && (unknown.error as StreamError).kind).to.equal('format');
    // A body of partstream's own formats is still recognised with a custom provider listed first.
    const chat = await consumeStream(chunks('data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'), recordingHandler(), { providers: [acme] });
    expect(chat.status === 'completed' && chat.response.aiMessage.text).to.equal('ok');
  });

  it('a custom descriptor listed first wins over a built-in rule that would also accept the body', async () => {
    const chatLike: AnyProviderDescriptor = { ...openAIChatProvider, format: 'chat-like', createMapper: () => new AcmeMapper() as StreamMapper<unknown> };
    const handler = recordingHandler();
    const outcome = await consumeStream(chunks('data: {"choices":[]}\n\n'), handler, { providers: [chatLike] });
    // The Acme mapper ends the stream (it never sees an Acme done line), which proves it was chosen.
    expect(outcome.status === 'failed' && outcome.error.message).to.equal('no done line');
  });

  it('rejects a descriptor that is not one with a TypeError naming what is missing', async () => {
    await expectRejection(
      () => consumeStream(chunks(BODY), recordingHandler(), { format: { ...acme, createMapper: undefined } as never }),
      TypeError,
      'Expected format to be a ProviderDescriptor with a createMapper function',
    );
    await expectRejection(
      () => consumeStream(chunks(BODY), recordingHandler(), { providers: [{ ...acme, framing: 'xml' }] as never }),
      TypeError,
      'Expected providers[0] to be a ProviderDescriptor with a framing',
    );
    await expectRejection(() => consumeStream(chunks(BODY), recordingHandler(), { format: 'acme' as never }), TypeError, 'Expected format to be one of');
  });

  it('replay is the descriptor’s own', () => {
    expect(acme.replay?.([userMessage('a'), aiMessage([])])).to.deep.equal(['user', 'ai']);
  });

  describe('streamProvider: the HTTP client machinery', () => {
    let server: LoopbackServer;
    afterEach(async () => server?.close());

    it('sends the request where, and as, the descriptor says, and drives the handler with the answer', async () => {
      server = await startLoopbackServer({ headers: { 'content-type': 'application/x-ndjson' }, body: BODY, chunkSize: 5 });
      const handler = recordingHandler();
      const outcome = await streamProvider(acme, { model: 'rocket/1', prompt: 'go' }, handler, { baseURL: server.url, apiKey: 'secret-acme-key' });
      expect(outcome.status === 'completed' && outcome.response.aiMessage.text).to.equal('Hi there');
      expect(outcome.http?.status).to.equal(200);
      const [request] = server.requests;
      expect(request?.method).to.equal('POST');
      expect(request?.url).to.equal('/v2/models/rocket%2F1/stream');
      expect(request?.headers['x-acme-key']).to.equal('Key secret-acme-key');
      expect(request?.headers['acme-version']).to.equal('7');
      expect(request?.headers.accept).to.equal('application/x-ndjson');
      expect(JSON.parse(request?.body ?? '')).to.deep.equal({ input: 'go', stream: true });
    });

    it('retries a 503, and keeps the key out of an error whose body echoes it', async () => {
      server = await startLoopbackServer((_request, index): Reply =>
        index === 0
          ? { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"error":{"message":"busy"}}' }
          : { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"bad key secret-acme-key"}}' },
      );
      const handler = recordingHandler();
      const outcome = await streamProvider(acme, { model: 'm', prompt: 'p' }, handler, { baseURL: server.url, apiKey: 'secret-acme-key', maxRetries: 1 });
      expect(server.requests).to.have.length(2);
      expect(outcome.status).to.equal('failed');
      const error = outcome.status === 'failed' ? (outcome.error as StreamError) : null;
      expect(error?.kind).to.equal('http');
      expect(JSON.stringify([error?.message, error?.body, handler.calls])).to.not.include('secret-acme-key');
    });

    it('refuses, before sending anything, a request without its model field, no key, or a descriptor without a client', async () => {
      await expectRejection(() => streamProvider(acme, { prompt: 'p' } as never, recordingHandler(), { baseURL: 'http://127.0.0.1:9' }), TypeError, 'Expected an Acme request with a model name, got');
      const saved = process.env.ACME_API_KEY;
      delete process.env.ACME_API_KEY;
      try {
        await expectRejection(
          () => streamProvider(acme, { model: 'm', prompt: 'p' }, recordingHandler(), { baseURL: 'http://127.0.0.1:9' }),
          TypeError,
          'Missing API key for Acme: pass apiKey or set ACME_API_KEY',
        );
      } finally {
        if (saved !== undefined) process.env.ACME_API_KEY = saved;
      }
      await expectRejection(() => streamProvider({ ...acme, client: null }, { model: 'm', prompt: 'p' }, recordingHandler()), TypeError, 'Expected a provider with an HTTP client');
    });
  });
});
