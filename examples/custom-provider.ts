/**
 * A provider of your own, added in one file: a `ProviderDescriptor` says everything partstream
 * needs to know about it (SPEC §15), and every feature follows — the HTTP client machinery
 * (`streamProvider`: retries, redirects, limits, secrets kept out of errors, `outcome.http`),
 * `consumeStream` with `format: descriptor`, recognition by `format: 'auto'` through `providers`,
 * and conversation replay through `descriptor.replay`.
 *
 * The made-up "Acme" provider answers `POST {baseURL}/v1/chat` with one JSON object per line:
 *
 *   {"acme":"text","text":"…"}                                   an answer token
 *   {"acme":"done","reason":"stop"|"length","input":N,"output":N}  the end, with usage
 *
 * The example starts a local Acme server on 127.0.0.1 and streams from it.
 *
 * Run: npx ts-node --transpile-only examples/custom-provider.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consumeStream, StreamError, type FinishReason, type StreamingChatResponseHandler } from 'partstream';
import { aiMessage, chatResponse, partialResponse, responseMetadata, tokenUsage } from 'partstream/adapters';
import type { JsonObject, MapperTarget, ProviderDescriptor, StreamMapper } from 'partstream/adapters';
import { streamProvider } from 'partstream/http';
import { userMessage, type ChatMessage } from 'partstream/replay';

/** What the Acme API takes. */
interface AcmeRequest {
  readonly model: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
}

/** Acme's stop reasons in partstream's terms. */
function acmeFinishReason(reason: string | null): FinishReason | null {
  if (reason === null) return null;
  return reason === 'stop' ? 'STOP' : reason === 'length' ? 'LENGTH' : 'OTHER';
}

/** Maps one Acme stream (a line's parsed JSON at a time); one instance per stream. */
class AcmeMapper implements StreamMapper<unknown> {
  readonly framing = 'ndjson' as const;

  map(line: unknown, target: MapperTarget): boolean {
    const event = typeof line === 'object' && line !== null ? (line as JsonObject) : {};
    if (event.acme === 'text' && typeof event.text === 'string') {
      target.handler.onPartialResponse?.(partialResponse(event.text), { streamingHandle: target.handle });
      return false;
    }
    if (event.acme === 'done') {
      const reason = typeof event.reason === 'string' ? event.reason : null;
      const usage = tokenUsage(Number(event.input), Number(event.output));
      target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: acmeFinishReason(reason), providerFinishReason: reason, tokenUsage: usage })));
      return true;
    }
    return false; // anything else surfaces raw
  }

  end(target: MapperTarget): void {
    target.handler.onError(new StreamError('truncated', 'The Acme stream ended before its done line'));
  }
}

/** Everything partstream needs to know about Acme. */
const acme: ProviderDescriptor<'acme', unknown, AcmeRequest, AcmeRequest['messages']> = {
  format: 'acme',
  name: 'Acme Chat',
  expected: 'an Acme chat stream (NDJSON)',
  framing: 'ndjson',
  contentType: 'application/x-ndjson',
  sniff: { jsonLine: (line) => typeof line.acme === 'string' },
  createMapper: () => new AcmeMapper(),
  finishReason: acmeFinishReason,
  client: {
    provider: 'Acme Chat',
    requestName: 'an Acme chat',
    modelField: 'model',
    endpoint: { option: 'baseURL', env: 'ACME_BASE_URL', defaultBase: 'https://api.acme.example', version: 'v1' },
    path: 'chat',
    apiKeyEnv: ['ACME_API_KEY'],
    auth: { header: 'authorization', prefix: 'Bearer ' },
    headers: {},
    body: (request) => ({ ...request, stream: true }),
  },
  // A history of final messages as Acme's messages: the text of each user and AI message.
  replay: (history: readonly ChatMessage[]) =>
    history.flatMap((message): AcmeRequest['messages'] => {
      if (message.type === 'user') return typeof message.content === 'string' ? [{ role: 'user', text: message.content }] : [];
      return message.type === 'ai' ? [{ role: 'assistant', text: message.text ?? '' }] : [];
    }),
  telemetry: { providerName: 'acme', operationName: 'chat' },
};

const LINES = ['{"acme":"text","text":"Hello"}', '{"acme":"ping"}', '{"acme":"text","text":" from Acme."}', '{"acme":"done","reason":"stop","input":7,"output":4}'];

/** The local Acme server: checks the key, then streams the lines. */
function acmeServer(request: IncomingMessage, response: ServerResponse): void {
  const authorized = request.headers.authorization === 'Bearer acme-test-key';
  console.log(`server: ${request.method} ${request.url} authorized=${authorized} accept=${request.headers.accept}`);
  if (!authorized) {
    response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  for (const line of LINES) response.write(`${line}\n`);
  response.end();
}

const handler: StreamingChatResponseHandler = {
  onPartialResponse: (partial) => console.log(`text: ${partial.text}`),
  onUnmappedRawEvent: (raw) => console.log(`raw: ${JSON.stringify(raw)}`),
  onCompleteResponse: (response) => console.log(`final: ${JSON.stringify(response.aiMessage.text)} finish=${response.metadata.finishReason} usage=${response.metadata.tokenUsage?.totalTokenCount}`),
  onError: (error) => console.log(`error: ${error.message}`),
};

async function main(): Promise<void> {
  const server = createServer(acmeServer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // The HTTP client machinery, for a provider partstream has never heard of.
    const request: AcmeRequest = { model: 'acme-1', messages: [{ role: 'user', text: 'Hi' }] };
    const outcome = await streamProvider(acme, request, handler, { baseURL, apiKey: 'acme-test-key' });
    console.log(`outcome: ${outcome.status} http=${outcome.http?.status}`);

    // A wrong key: the provider's error, and the key appears nowhere in it.
    const refused = await streamProvider(acme, request, handler, { baseURL, apiKey: 'wrong-key', maxRetries: 0 });
    if (refused.status === 'failed') console.log(`refused: ${refused.error instanceof StreamError ? refused.error.kind : 'other'}`);

    // A body read elsewhere: `auto` recognises Acme among partstream's own formats.
    const body = (async function* () {
      yield `${LINES.join('\n')}\n`;
    })();
    const sniffed = await consumeStream(body, { onCompleteResponse: () => undefined, onError: () => undefined }, { providers: [acme] });
    if (sniffed.status === 'completed') {
      // Replay: the conversation so far, as the next Acme request's messages.
      const next = acme.replay?.([userMessage('Hi'), sniffed.response.aiMessage]);
      console.log(`replayed: ${JSON.stringify(next)}`);
    }
  } finally {
    server.close();
  }
}

void main();
