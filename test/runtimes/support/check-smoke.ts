import { expect } from 'chai';
import type { SmokeResults, SmokeSummary } from '../fixtures/smoke-consumer';
import type { SmokeServer } from './smoke-server';

/** The parts of a summary that do not depend on timing. */
function stable(summary: SmokeSummary): Omit<SmokeSummary, 'elapsedMs'> {
  const { elapsedMs: _elapsed, ...rest } = summary;
  return rest;
}

const completed = (fields: Partial<SmokeSummary>): Omit<SmokeSummary, 'elapsedMs'> => ({
  status: 'completed',
  text: null,
  thinking: null,
  partTypes: [],
  finishReason: 'STOP',
  modelName: null,
  partials: [],
  toolCalls: [],
  errorName: null,
  errorKind: null,
  errors: 0,
  ...fields,
});

/** What the OpenAI Chat body comes to (the hand-written body in smoke-server.ts). */
const OPENAI_CHAT = completed({
  text: 'Hello, wörld ✓',
  partTypes: ['text', 'tool_call'],
  finishReason: 'TOOL_EXECUTION',
  modelName: 'gpt-smoke',
  partials: ['Hello, ', 'wörld ✓'],
  toolCalls: ['get_weather({"city":"Paris"})'],
});

/** A stalled OpenAI Chat stream after its one text delta. */
const STALLED = {
  text: 'Partial',
  thinking: null,
  partTypes: ['text'],
  finishReason: null,
  modelName: 'gpt-smoke',
  partials: ['Partial'],
  toolCalls: [],
} as const;

/**
 * Asserts a runtime's smoke results against the expected values, written out by hand from the
 * bodies the server sends; `runtime` names the runtime in failure messages.
 */
export function checkSmokeResults(results: SmokeResults, runtime: string): void {
  expect(stable(results.formats['openai-chat']), `${runtime}: openai-chat`).to.deep.equal(OPENAI_CHAT);
  expect(stable(results.formats.anthropic), `${runtime}: anthropic`).to.deep.equal(
    completed({ text: 'Bonjour à tous ✓', thinking: 'Let me think … done.', partTypes: ['reasoning', 'text'], modelName: 'claude-smoke', partials: ['Bonjour ', 'à tous ✓'] }),
  );
  expect(stable(results.formats['openai-responses']), `${runtime}: openai-responses`).to.deep.equal(
    completed({ text: 'Hej världen ✓', partTypes: ['text'], modelName: 'gpt-smoke', partials: ['Hej ', 'världen ✓'] }),
  );
  expect(stable(results.formats.gemini), `${runtime}: gemini`).to.deep.equal(
    completed({ text: 'Hola señor ✓', partTypes: ['text', 'media'], modelName: 'gemini-smoke', partials: ['Hola ', 'señor ✓'] }),
  );
  expect(stable(results.formats.ollama), `${runtime}: ollama`).to.deep.equal(
    completed({ text: 'Ciao mondo ✓', thinking: 'Hmm…', partTypes: ['reasoning', 'text'], modelName: 'llama-smoke', partials: ['Ciao ', 'mondo ✓'] }),
  );
  expect(stable(results.sniffed), `${runtime}: format auto`).to.deep.equal(OPENAI_CHAT);
  expect(stable(results.httpClient), `${runtime}: streamOpenAIChat`).to.deep.equal(OPENAI_CHAT);

  expect(stable(results.cancelled), `${runtime}: cancel mid-stream`).to.deep.equal({ status: 'cancelled', ...STALLED, errorName: null, errorKind: null, errors: 0 });
  expect(stable(results.idle), `${runtime}: idleTimeoutMs`).to.deep.equal({ status: 'failed', ...STALLED, errorName: 'StreamError', errorKind: 'timeout', errors: 1 });
  expect(stable(results.deadline), `${runtime}: timeoutMs`).to.deep.equal({ status: 'failed', ...STALLED, errorName: 'StreamError', errorKind: 'timeout', errors: 1 });
  // The limits ended the streams in about their own time (300 ms idle, 600 ms deadline), not at a later limit.
  expect(results.idle.elapsedMs, `${runtime}: idle timeout took`).to.be.within(250, 4_000);
  expect(results.deadline.elapsedMs, `${runtime}: deadline took`).to.be.within(550, 4_500);

  const bytes = Array.from({ length: 256 }, (_, i) => i);
  expect(results.media, `${runtime}: media JSON round trip`).to.deep.equal({
    // Node's Buffer is the reference encoder here, on the test side only.
    base64: Buffer.from(bytes).toString('base64'),
    bytes,
    isUint8Array: true,
    mimeType: 'image/png',
  });
}

/**
 * Asserts what the server saw: the HTTP client's request (path, method, key, stream flags) and the
 * cancelled, idle and deadline streams' connections closed by the client.
 */
export async function checkServerSide(server: SmokeServer, runtime: string): Promise<void> {
  const post = server.requests.find((request) => request.url === '/v1/chat/completions');
  if (post === undefined) throw new Error(`${runtime}: expected a POST to /v1/chat/completions, got ${server.requests.map((r) => r.url).join(', ')}`);
  expect(post.method).to.equal('POST');
  expect(post.headers.authorization).to.equal('Bearer sk-smoke-test');
  expect(JSON.parse(post.body)).to.deep.include({ model: 'gpt-smoke', stream: true, stream_options: { include_usage: true } });
  for (const url of ['/stall/cancel', '/stall/idle', '/trickle']) {
    const request = server.requests.find((candidate) => candidate.url === url);
    if (request === undefined) throw new Error(`${runtime}: expected a request to ${url}`);
    const closedEarly = await Promise.race([request.closedEarly, new Promise<string>((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000))]);
    expect(closedEarly, `${runtime}: the ${url} connection was released by the client`).to.equal(true);
  }
}
