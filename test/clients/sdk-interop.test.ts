import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { StreamError } from '../../lib/handler/stream-error';
import { trackedSource } from '../support/chunk-sources';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../support/loopback-server';
import { recordingHandler, type RecordingHandler } from '../support/recording-handler';
import { TRANSCRIPTS } from '../support/transcripts';
import { expectRejection } from '../support/rejection';

// The other way in: an official SDK sends the request (its auth, retries and options), and
// partstream reads the raw response it hands back (`.asResponse()`), against a loopback server.

const KEY = 'sk-sdk-interop-test-0123456789';

async function expectedCalls(format: 'openai-chat' | 'anthropic'): Promise<RecordingHandler> {
  const handler = recordingHandler();
  await consumeStream(trackedSource([TRANSCRIPTS[format]]), handler, { format });
  return handler;
}

async function serve(replies: readonly Reply[], body: (server: LoopbackServer) => Promise<void>): Promise<void> {
  const server = await startLoopbackServer((_request, index) => replies[Math.min(index, replies.length - 1)] as Reply);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const tooMany: Reply = { status: 429, headers: { 'content-type': 'application/json', 'retry-after-ms': '1' }, body: '{"error":{"message":"slow down","type":"rate_limit_error"}}' };

describe('official SDKs into consumeStream', function () {
  this.timeout(30_000);

  describe('openai: client.chat.completions.create({ stream: true }).asResponse()', () => {
    it('streams the raw response through consumeStream, with the SDK’s auth and its retries', async () => {
      const expected = await expectedCalls('openai-chat');
      await serve([tooMany, { body: TRANSCRIPTS['openai-chat'] }], async (server) => {
        const client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 2 });
        const response = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], stream: true }).asResponse();
        const handler = recordingHandler();
        const outcome = await consumeStream(response, handler, { format: 'openai-chat' });
        expect(outcome.status).to.equal('completed');
        expect(handler.calls).to.deep.equal(expected.calls);
        expect(server.requests.map((request) => [request.method, request.url, request.headers.authorization])).to.deep.equal([
          ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
          ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
        ]);
      });
    });

    it('refuses the parsed Stream (events, not bytes) at call time with a TypeError that says what to pass', async () => {
      await serve([{ body: TRANSCRIPTS['openai-chat'] }], async (server) => {
        const client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
        const stream = await client.chat.completions.create({ model: 'gpt-test', messages: [], stream: true });
        try {
          await expectRejection(
            () => consumeStream(stream as never, recordingHandler(), { format: 'openai-chat' }),
            TypeError,
            "Expected the raw bytes of a stream, got an SDK's parsed stream (an async iterable of event objects): pass the raw response instead, e.g. `await client.chat.completions.create({ ..., stream: true }).asResponse()`",
          );
        } finally {
          stream.controller.abort();
        }
      });
    });

    it('refuses the un-awaited call with a TypeError saying to await it', async () => {
      await serve([{ body: TRANSCRIPTS['openai-chat'] }], async (server) => {
        const client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
        const pending = client.chat.completions.create({ model: 'gpt-test', messages: [], stream: true });
        try {
          await expectRejection(() => consumeStream(pending as never, recordingHandler(), { format: 'openai-chat' }), TypeError, 'got a promise (await it first)');
        } finally {
          (await pending).controller.abort();
        }
      });
    });
  });

  describe('@anthropic-ai/sdk: client.messages.create({ stream: true }).asResponse() / .withResponse()', () => {
    it('streams the raw response through consumeStream (format auto), with the SDK’s key and retries', async () => {
      const expected = await expectedCalls('anthropic');
      await serve([tooMany, { body: TRANSCRIPTS.anthropic }], async (server) => {
        const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 2 });
        const response = await client.messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], stream: true }).asResponse();
        const handler = recordingHandler();
        const outcome = await consumeStream(response, handler, { format: 'auto' });
        expect(outcome.status).to.equal('completed');
        expect(handler.calls).to.deep.equal(expected.calls);
        // The SDK's own auth (x-api-key or a bearer token, as its version sends it) reached the server.
        const auth = (headers: Record<string, unknown>): unknown => headers['x-api-key'] ?? String(headers.authorization).replace(/^Bearer /, '');
        expect(server.requests.map((request) => [request.url, auth(request.headers)])).to.deep.equal([
          ['/v1/messages', KEY],
          ['/v1/messages', KEY],
        ]);
      });
    });

    it('takes withResponse()’s response (its parsed data left unread)', async () => {
      const expected = await expectedCalls('anthropic');
      await serve([{ body: TRANSCRIPTS.anthropic }], async (server) => {
        const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
        const { response, request_id } = await client.messages.create({ model: 'claude-test', max_tokens: 64, messages: [], stream: true }).withResponse();
        const handler = recordingHandler();
        const outcome = await consumeStream(response, handler, { format: 'anthropic' });
        expect([outcome.status, request_id]).to.deep.equal(['completed', null]);
        expect(handler.calls).to.deep.equal(expected.calls);
      });
    });

    it('refuses the parsed Stream and the MessageStream helper at call time, saying what to pass', async () => {
      await serve([{ body: TRANSCRIPTS.anthropic }], async (server) => {
        const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
        const stream = await client.messages.create({ model: 'claude-test', max_tokens: 64, messages: [], stream: true });
        const helper = client.messages.stream({ model: 'claude-test', max_tokens: 64, messages: [] });
        helper.on('error', () => undefined);
        try {
          for (const parsed of [stream, helper]) {
            await expectRejection(
              () => consumeStream(parsed as never, recordingHandler(), { format: 'anthropic' }),
              TypeError,
              "got an SDK's parsed stream (an async iterable of event objects): pass the raw response instead",
            );
          }
        } finally {
          stream.controller.abort();
          helper.abort();
        }
      });
    });
  });

  it('fails an iterable of plain objects at its first chunk as a format error that says to pass the raw response', async () => {
    async function* parsedEvents(): AsyncGenerator<object> {
      yield { type: 'message_start', message: { id: 'msg_1' } };
    }
    const handler = recordingHandler();
    const outcome = await consumeStream(parsedEvents() as never, handler, { format: 'anthropic' });
    expect(outcome.status).to.equal('failed');
    const error = (outcome as unknown as { error: StreamError }).error;
    expect(error.kind).to.equal('format');
    expect(error.message).to.equal(
      "Expected a Uint8Array or string chunk, got an object (a parsed event, not bytes: pass the raw response instead, e.g. an SDK's `await client.chat.completions.create({ ..., stream: true }).asResponse()` or `await client.messages.create({ ..., stream: true }).asResponse()`)",
    );
    expect(handler.calls.map((call) => call.on)).to.deep.equal(['error']);
  });
});
