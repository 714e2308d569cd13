import { expect } from 'chai';
import type { AiMessage } from '../../lib/handler/types';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { WireFormat } from '../../lib/providers/registry';

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/** The final message of a wire transcript streamed through consumeStream (which must complete). */
export async function finalMessage(format: WireFormat, wire: string): Promise<AiMessage> {
  const outcome = await consumeStream(once(wire), { onCompleteResponse() {}, onError() {} }, { format });
  expect(outcome.status, 'stream outcome').to.equal('completed');
  if (outcome.status !== 'completed') throw new Error('unreachable');
  return outcome.response.aiMessage;
}

/** SSE text of `data:` events, each a JSON value written as given. */
export function sse(events: readonly unknown[], done = false): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** SSE text with `event:` names (Anthropic, OpenAI Responses): the name is the JSON's `type`. */
export function namedSse(events: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** NDJSON text of the given lines. */
export function ndjson(lines: readonly unknown[]): string {
  return lines.map((l) => JSON.stringify(l) + '\n').join('');
}
