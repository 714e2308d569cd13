import { consumeStream, type ConsumeStreamOptions, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { StreamingChatResponseHandler, StreamingHandle } from '../../lib/handler/types';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { ChatModelListener } from '../../lib/telemetry/chat-model-listener';
import { trackedSource } from '../support/chunk-sources';
import { streamWithClient } from '../support/http-clients';
import { OWN_TRANSCRIPTS } from '../support/own-transcripts';
import { TRANSCRIPTS } from '../support/transcripts';

// Every way a stream can end (SPEC §14), each as a function that runs one stream with the given
// listeners and a handler that records its terminal callback into `log`.

export interface EndCase {
  readonly name: string;
  /** The terminal listener call expected. */
  readonly terminal: 'onResponse' | 'onError' | 'onCancel';
  /** The outcome's error kind (failed streams): a StreamError kind, or null. */
  readonly kind?: string;
  readonly run: (listeners: readonly ChatModelListener[], log: string[]) => Promise<StreamOutcome>;
}

const CHAT = TRANSCRIPTS['openai-chat'];
const chatFailed = OWN_TRANSCRIPTS.find((t) => t.file === 'own/openai-chat/server-error.sse');

/** A handler that logs its terminal callbacks (and may do more at each callback). */
export function loggingHandler(log: string[], extra: Partial<StreamingChatResponseHandler> = {}): StreamingChatResponseHandler {
  return {
    ...extra,
    onCompleteResponse: () => {
      log.push('handler.onCompleteResponse');
    },
    onError: (error: Error) => {
      log.push(`handler.onError:${error.name}`);
    },
  };
}

function consume(
  chunks: readonly string[],
  listeners: readonly ChatModelListener[],
  log: string[],
  options: Partial<ConsumeStreamOptions> = {},
  end: { fail?: Error; stall?: boolean } = {},
  extra: Partial<StreamingChatResponseHandler> = {},
): Promise<StreamOutcome> {
  return consumeStream(trackedSource(chunks, end), loggingHandler(log, extra), { format: 'openai-chat', listeners, ...options } as ConsumeStreamOptions);
}

function respond(status: number, body: string, type = 'text/event-stream'): Response {
  return new Response(body, { status, headers: { 'content-type': type } });
}

export const END_CASES: readonly EndCase[] = [
  { name: 'completed', terminal: 'onResponse', run: (l, log) => consume([CHAT], l, log) },
  {
    name: 'an HTTP error status',
    terminal: 'onError',
    kind: 'http',
    run: (l, log) =>
      streamWithClient('openai-chat', loggingHandler(log), {
        apiKey: 'sk-test',
        listeners: l,
        fetch: async () => respond(429, '{"error":{"message":"slow down","code":"rate_limit_exceeded"}}', 'application/json'),
      }),
  },
  {
    name: 'a provider error event',
    terminal: 'onError',
    kind: 'provider',
    run: (l, log) => consume([new TextDecoder().decode(chatFailed?.bytes)], l, log),
  },
  { name: 'truncated', terminal: 'onError', kind: 'truncated', run: (l, log) => consume([CHAT.slice(0, CHAT.indexOf('world'))], l, log) },
  { name: 'malformed', terminal: 'onError', kind: 'malformed', run: (l, log) => consume([CHAT.slice(0, 200)], l, log, { maxFrameBytes: 50 }) },
  { name: 'an idle timeout', terminal: 'onError', kind: 'timeout', run: (l, log) => consume([CHAT.slice(0, 300)], l, log, { idleTimeoutMs: 20 }, { stall: true }) },
  { name: 'the deadline', terminal: 'onError', kind: 'timeout', run: (l, log) => consume([CHAT.slice(0, 300)], l, log, { timeoutMs: 20 }, { stall: true }) },
  { name: 'a network failure', terminal: 'onError', kind: 'network', run: (l, log) => consume([CHAT.slice(0, 300)], l, log, {}, { fail: new Error('reset') }) },
  {
    name: 'cancel() from a callback',
    terminal: 'onCancel',
    run: (l, log) => {
      let handle: StreamingHandle | null = null;
      return consume([CHAT], l, log, {}, {}, { bindStreamingHandle: (h) => void (handle = h), onPartialResponse: () => handle?.cancel() });
    },
  },
  {
    name: 'an AbortSignal',
    terminal: 'onCancel',
    run: (l, log) => {
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 10);
      return consume([CHAT.slice(0, 300)], l, log, { signal: abort.signal }, { stall: true });
    },
  },
  {
    name: 'break out of for await over a ChatStream',
    terminal: 'onCancel',
    run: async (l, _log) => {
      const stream = new ChatStream();
      const done = consumeStream(trackedSource([CHAT.slice(0, 400)], { stall: true }), stream, { format: 'openai-chat', listeners: l });
      for await (const event of stream) {
        if (event.type === 'partialResponse') break;
      }
      return done;
    },
  },
  {
    name: 'a throwing handler callback (counted, not an error)',
    terminal: 'onResponse',
    run: (l, log) =>
      consume(
        [CHAT],
        l,
        log,
        {},
        {},
        {
          onPartialResponse: () => {
            throw new Error('handler bug');
          },
        },
      ),
  },
  {
    name: 'a retry that later succeeds',
    terminal: 'onResponse',
    run: (l, log) => {
      let calls = 0;
      return streamWithClient('openai-chat', loggingHandler(log), {
        apiKey: 'sk-test',
        listeners: l,
        maxRetries: 1,
        fetch: async () => (calls++ === 0 ? new Response('', { status: 503, headers: { 'retry-after-ms': '1' } }) : respond(200, CHAT)),
      });
    },
  },
];
