import type { ChatResponse, StreamingChatResponseHandler } from '../../lib/handler/types';
import type { OpaquePayload } from '../../lib/parts/types';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { SseFrame } from '../../lib/wire/types';
import type { WireFormat } from '../../lib/providers/registry';

/** A wire event of a typed SSE format (Anthropic, OpenAI Responses): its `type` names the frame. */
export type TypedEvent = { readonly type: string } & Record<string, unknown>;

/** `event: <type>` + `data: <json>` frames, as Anthropic and OpenAI Responses send them. */
export function typedSse(events: readonly TypedEvent[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** `data: <json>` frames, as Gemini and OpenAI Chat send them. */
export function dataSse(chunks: readonly unknown[]): string {
  return chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`).join('');
}

/** One JSON object per line, as Ollama sends them. */
export function ndjson(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** A payload delivered through a partial callback, with the callback's kind. */
export interface DeliveredPayload {
  readonly on: 'partialResponse' | 'partialThinking';
  readonly payload: OpaquePayload;
}

/** What one stream delivered and how it ended. */
export interface BlockRun {
  readonly outcome: StreamOutcome;
  readonly response: ChatResponse;
  /** The raw events, in order. */
  readonly raw: unknown[];
  /** The payloads of the partial callbacks, in order. */
  readonly payloads: DeliveredPayload[];
}

/** Runs `body` (split into `chunkSize`-byte pieces when given) through `consumeStream` and records it. */
export async function runBody(body: string, format: WireFormat, chunkSize = 0): Promise<BlockRun> {
  const raw: unknown[] = [];
  const payloads: DeliveredPayload[] = [];
  const handler: StreamingChatResponseHandler = {
    onPartialResponse: (partial) => {
      if (partial.payload !== undefined) payloads.push({ on: 'partialResponse', payload: partial.payload });
    },
    onPartialThinking: (partial) => {
      if (partial.payload !== undefined) payloads.push({ on: 'partialThinking', payload: partial.payload });
    },
    onUnmappedRawEvent: (event) => raw.push(event),
    onCompleteResponse: () => undefined,
    onError: () => undefined,
  };
  const bytes = new TextEncoder().encode(body);
  async function* source(): AsyncGenerator<Uint8Array> {
    if (chunkSize <= 0) {
      yield bytes;
      return;
    }
    for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
  }
  const outcome = await consumeStream(source(), handler, { format });
  return { outcome, response: outcome.status === 'completed' ? outcome.response : outcome.partial, raw, payloads };
}

/** The `type` of each raw SSE frame's JSON (or its event name). */
export function rawTypes(raw: readonly unknown[]): string[] {
  return raw.map((event) => {
    const frame = event as SseFrame;
    const parsed = JSON.parse(frame.data) as { type?: string; delta?: { type?: string } };
    return parsed.type === 'content_block_delta' ? `content_block_delta:${parsed.delta?.type ?? ''}` : (parsed.type ?? frame.event ?? '');
  });
}
