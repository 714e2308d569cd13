import { expect } from 'chai';
import fc from 'fast-check';
import { reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import type { MessagePart, OpaquePayload } from '../../lib/parts/types';
import type { WireFormat } from '../../lib/providers/registry';
import { dataSse, ndjson, runBody, typedSse, type DeliveredPayload, type TypedEvent } from './support';

// For each wire format: a random sequence of provider blocks, written out in the format, and the
// final parts one block each yields, derived here from the blocks (never from partstream). The
// property: the final parts are exactly those, and every payload a partial callback delivered is
// in the final message exactly once, on its own block's part, in stream order.

const SEED = 20250611;
const RUNS = 40;

/** A transcript and the final parts its blocks make. */
interface Case {
  readonly body: string;
  readonly parts: MessagePart[];
}

const piece = fc.string({ minLength: 1, maxLength: 5 });
const pieces = fc.array(piece, { minLength: 1, maxLength: 3 });
/** Payload data: distinct enough to tell blocks apart, drawn from the whole case. */
const token = fc.string({ minLength: 1, maxLength: 8 });
const chunkSize = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }));

/** The payloads of the delivered partials are on the final parts once each, in delivery order. */
function checkPayloads(delivered: readonly DeliveredPayload[], parts: readonly MessagePart[]): void {
  let last = -1;
  for (const { on, payload } of delivered) {
    const carriers = parts.flatMap((part, at) => (part.payload !== null && samePayload(part.payload, payload) ? [at] : []));
    expect(carriers, `payload ${JSON.stringify(payload)}`).to.have.length(1);
    const carrier = parts[carriers[0]];
    expect(carrier.type).to.equal(on === 'partialThinking' ? 'reasoning' : 'text');
    expect(carriers[0]).to.be.greaterThan(last);
    last = carriers[0];
  }
}

function samePayload(a: OpaquePayload, b: OpaquePayload): boolean {
  return a.provider === b.provider && a.kind === b.kind && a.data === b.data;
}

/** Makes the payload data of a case unique (a block's payload must be findable exactly once). */
function tagged(data: string, at: number): string {
  return `${at}:${data}`;
}

async function check(format: WireFormat, made: Case, size: number): Promise<readonly DeliveredPayload[]> {
  const run = await runBody(made.body, format, size);
  expect(run.outcome.status).to.equal('completed');
  const parts = run.response.aiMessage.parts;
  expect(parts).to.deep.equal(made.parts);
  checkPayloads(run.payloads, parts);
  return run.payloads;
}

// ---- Anthropic: thinking (signed), redacted_thinking, text, server_tool_use, tool_use blocks ----

type AnthropicBlock =
  { kind: 'thinking'; text: string[]; signature: string } | { kind: 'redacted'; data: string } | { kind: 'text'; text: string[] } | { kind: 'server'; query: string } | { kind: 'tool'; n: number };

const anthropicBlock: fc.Arbitrary<AnthropicBlock> = fc.oneof(
  fc.record({ kind: fc.constant('thinking' as const), text: fc.array(piece, { maxLength: 3 }), signature: token }),
  fc.record({ kind: fc.constant('redacted' as const), data: token }),
  fc.record({ kind: fc.constant('text' as const), text: pieces }),
  fc.record({ kind: fc.constant('server' as const), query: piece }),
  fc.record({ kind: fc.constant('tool' as const), n: fc.nat(99) }),
);

function anthropicCase(blocks: readonly AnthropicBlock[]): Case {
  const events: TypedEvent[] = [{ type: 'message_start', message: { id: 'msg_p', type: 'message', role: 'assistant', model: 'claude-p', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }];
  const parts: MessagePart[] = [];
  blocks.forEach((block, index) => {
    const start = (content: Record<string, unknown>): void => void events.push({ type: 'content_block_start', index, content_block: content });
    const delta = (value: Record<string, unknown>): void => void events.push({ type: 'content_block_delta', index, delta: value });
    switch (block.kind) {
      case 'thinking': {
        const signature = tagged(block.signature, index);
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const text of block.text) delta({ type: 'thinking_delta', thinking: text });
        delta({ type: 'signature_delta', signature });
        parts.push(reasoningPart(block.text.length === 0 ? null : block.text.join(''), { payload: { provider: 'anthropic', kind: 'signature', data: signature } }));
        break;
      }
      case 'redacted': {
        const data = tagged(block.data, index);
        start({ type: 'redacted_thinking', data });
        parts.push(reasoningPart(null, { payload: { provider: 'anthropic', kind: 'redacted_thinking', data } }));
        break;
      }
      case 'text':
        start({ type: 'text', text: '' });
        for (const text of block.text) delta({ type: 'text_delta', text });
        parts.push(textPart(block.text.join('')));
        break;
      case 'server': {
        start({ type: 'server_tool_use', id: `srvtoolu_${index}`, name: 'web_search', input: {} });
        const input = JSON.stringify({ query: block.query });
        delta({ type: 'input_json_delta', partial_json: input.slice(0, 5) });
        delta({ type: 'input_json_delta', partial_json: input.slice(5) });
        parts.push(unknownPart('anthropic', 'server_tool_use', `{"type":"server_tool_use","id":"srvtoolu_${index}","name":"web_search","input":${input}}`));
        break;
      }
      case 'tool':
        start({ type: 'tool_use', id: `toolu_${index}`, name: 'count', input: {} });
        delta({ type: 'input_json_delta', partial_json: `{"n":${block.n}}` });
        parts.push(toolCallPart({ id: `toolu_${index}`, type: 'function', name: 'count', arguments: `{"n":${block.n}}` }));
        break;
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, { type: 'message_stop' });
  return { body: typedSse(events), parts };
}

// ---- OpenAI Responses: reasoning (summary and/or encrypted), message, web_search_call, function_call;
// every part keeps its item's id as `itemId` ----

type ResponsesItem = { kind: 'reasoning'; summary: string[]; encrypted: string | null } | { kind: 'message'; text: string[] } | { kind: 'search'; query: string } | { kind: 'call'; n: number };

const responsesItem: fc.Arbitrary<ResponsesItem> = fc.oneof(
  fc.record({ kind: fc.constant('reasoning' as const), summary: fc.array(piece, { maxLength: 2 }), encrypted: fc.option(token, { nil: null }) }),
  fc.record({ kind: fc.constant('message' as const), text: pieces }),
  fc.record({ kind: fc.constant('search' as const), query: piece }),
  fc.record({ kind: fc.constant('call' as const), n: fc.nat(99) }),
);

function responsesCase(items: readonly ResponsesItem[]): Case {
  const events: TypedEvent[] = [{ type: 'response.created', response: { id: 'resp_p', status: 'in_progress', model: 'gpt-p', output: [] } }];
  const parts: MessagePart[] = [];
  items.forEach((item, at) => {
    const added = (value: Record<string, unknown>): void => void events.push({ type: 'response.output_item.added', output_index: at, item: value });
    const done = (value: Record<string, unknown>): void => void events.push({ type: 'response.output_item.done', output_index: at, item: value });
    switch (item.kind) {
      case 'reasoning': {
        const id = `rs_${at}`;
        added({ id, type: 'reasoning', summary: [] });
        for (const text of item.summary) events.push({ type: 'response.reasoning_summary_text.delta', item_id: id, output_index: at, summary_index: 0, delta: text });
        const encrypted = item.encrypted === null ? null : tagged(item.encrypted, at);
        done({ id, type: 'reasoning', summary: [], ...(encrypted === null ? {} : { encrypted_content: encrypted }) });
        // Every item is a part: one without summary or encrypted content holds its id alone.
        const payload = encrypted === null ? null : { provider: 'openai', kind: 'encrypted_content', data: encrypted };
        parts.push(reasoningPart(item.summary.length === 0 ? null : item.summary.join(''), { payload, attributes: { itemId: id } }));
        break;
      }
      case 'message': {
        const id = `msg_${at}`;
        added({ id, type: 'message', role: 'assistant', content: [] });
        for (const text of item.text) events.push({ type: 'response.output_text.delta', item_id: id, output_index: at, content_index: 0, delta: text });
        done({ id, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: item.text.join(''), annotations: [] }] });
        parts.push(textPart(item.text.join(''), { attributes: { itemId: id } }));
        break;
      }
      case 'search': {
        const value = { id: `ws_${at}`, type: 'web_search_call', status: 'completed', action: { type: 'search', query: item.query } };
        added({ id: `ws_${at}`, type: 'web_search_call', status: 'in_progress' });
        events.push({ type: 'response.web_search_call.completed', item_id: `ws_${at}`, output_index: at });
        done(value);
        parts.push(unknownPart('openai', 'web_search_call', JSON.stringify(value), { attributes: { itemId: `ws_${at}` } }));
        break;
      }
      case 'call': {
        const args = `{"n":${item.n}}`;
        added({ id: `fc_${at}`, type: 'function_call', call_id: `call_${at}`, name: 'count', arguments: '' });
        events.push({ type: 'response.function_call_arguments.delta', item_id: `fc_${at}`, output_index: at, delta: args });
        done({ id: `fc_${at}`, type: 'function_call', call_id: `call_${at}`, name: 'count', arguments: args });
        parts.push(toolCallPart({ id: `call_${at}`, type: 'function', name: 'count', arguments: args }, { attributes: { itemId: `fc_${at}` } }));
        break;
      }
    }
  });
  events.push({ type: 'response.completed', response: { id: 'resp_p', status: 'completed', model: 'gpt-p', output: [] } });
  return { body: typedSse(events), parts };
}

// ---- Gemini: text and thought parts (some signed), function calls, server-side toolCall parts ----

type GeminiBlock = { kind: 'text' | 'thought'; text: string; signature: string | null } | { kind: 'function'; n: number; signature: string | null } | { kind: 'server'; signature: string | null };

const signature = fc.option(token, { nil: null });
const geminiBlock: fc.Arbitrary<GeminiBlock> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'thought' as const), text: piece, signature }),
  fc.record({ kind: fc.constant('function' as const), n: fc.nat(99), signature }),
  fc.record({ kind: fc.constant('server' as const), signature }),
);

/** The Gemini rule, written out: text of one kind runs on, unless a second signature arrives. */
function geminiCase(blocks: readonly GeminiBlock[], perChunk: number): Case {
  const wireParts: Record<string, unknown>[] = [];
  const parts: MessagePart[] = [];
  let run: { kind: 'text' | 'thought'; text: string; payload: OpaquePayload | null } | null = null;
  const flush = (): void => {
    if (run === null) return;
    parts.push(run.kind === 'thought' ? reasoningPart(run.text, { payload: run.payload }) : textPart(run.text, { payload: run.payload }));
    run = null;
  };
  blocks.forEach((block, at) => {
    const sig = block.signature === null ? null : tagged(block.signature, at);
    const payload: OpaquePayload | null = sig === null ? null : { provider: 'google', kind: 'thought_signature', data: sig };
    const withSig = (part: Record<string, unknown>): Record<string, unknown> => (sig === null ? part : { ...part, thoughtSignature: sig });
    switch (block.kind) {
      case 'text':
      case 'thought': {
        wireParts.push(withSig(block.kind === 'thought' ? { text: block.text, thought: true } : { text: block.text }));
        if (run !== null && run.kind === block.kind && !(payload !== null && run.payload !== null)) {
          run.text += block.text;
          run.payload ??= payload;
        } else {
          flush();
          run = { kind: block.kind, text: block.text, payload };
        }
        break;
      }
      case 'function': {
        flush();
        wireParts.push(withSig({ functionCall: { name: 'count', args: { n: block.n } } }));
        parts.push(toolCallPart({ id: null, type: 'function', name: 'count', arguments: `{"n":${block.n}}` }, { payload }));
        break;
      }
      case 'server': {
        flush();
        const part = withSig({ toolCall: { id: `tc_${at}`, toolType: 'GOOGLE_SEARCH_WEB' } });
        wireParts.push(part);
        parts.push(unknownPart('google', 'toolCall', JSON.stringify(part)));
        break;
      }
    }
  });
  flush();
  const chunks: unknown[] = [];
  for (let at = 0; at < wireParts.length; at += perChunk) {
    const last = at + perChunk >= wireParts.length;
    chunks.push({
      candidates: [{ content: { role: 'model', parts: wireParts.slice(at, at + perChunk) }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      modelVersion: 'gemini-p',
    });
  }
  return { body: dataSse(chunks), parts };
}

// ---- OpenAI Chat and Ollama: no blocks; reasoning and text runs, no payloads ----

type Delta = { kind: 'reasoning' | 'text'; text: string };
const delta: fc.Arbitrary<Delta> = fc.record({ kind: fc.constantFrom('reasoning' as const, 'text' as const), text: piece });

function runsOf(deltas: readonly Delta[]): MessagePart[] {
  const parts: MessagePart[] = [];
  let kind: Delta['kind'] | null = null;
  let text = '';
  const flush = (): void => {
    if (kind !== null) parts.push(kind === 'reasoning' ? reasoningPart(text) : textPart(text));
  };
  for (const d of deltas) {
    if (d.kind === kind) {
      text += d.text;
      continue;
    }
    flush();
    kind = d.kind;
    text = d.text;
  }
  flush();
  return parts;
}

function chatCase(deltas: readonly Delta[]): Case {
  const chunk = (value: Record<string, unknown>, finish: string | null = null): unknown => ({ id: 'c_p', model: 'gpt-p', choices: [{ index: 0, delta: value, finish_reason: finish }] });
  const chunks = deltas.map((d) => chunk(d.kind === 'reasoning' ? { reasoning_content: d.text } : { content: d.text }));
  return { body: dataSse([...chunks, chunk({}, 'stop'), '[DONE]']), parts: runsOf(deltas) };
}

function ollamaCase(deltas: readonly Delta[]): Case {
  const line = (message: Record<string, unknown>, done = false): unknown => ({ model: 'llama-p', message: { role: 'assistant', content: '', ...message }, done });
  const lines = deltas.map((d) => line(d.kind === 'reasoning' ? { thinking: d.text } : { content: d.text }));
  return { body: ndjson([...lines, { ...(line({}, true) as object), done_reason: 'stop' }]), parts: runsOf(deltas) };
}

describe('payloads in the final message (property, all five formats)', () => {
  it(`anthropic: one part per block, each payload on its own block's part (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anthropicBlock, { minLength: 1, maxLength: 8 }), chunkSize, async (blocks, size) => {
        await check('anthropic', anthropicCase(blocks), size);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`openai-responses: one part per item, each encrypted reasoning on its own item's part (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(responsesItem, { minLength: 1, maxLength: 8 }), chunkSize, async (items, size) => {
        await check('openai-responses', responsesCase(items), size);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`gemini: signed parts never merge, server-side parts stay in place (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(geminiBlock, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 3 }), chunkSize, async (blocks, perChunk, size) => {
        await check('gemini', geminiCase(blocks, perChunk), size);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`openai-chat and ollama: runs of reasoning and text, no payload anywhere (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(delta, { minLength: 1, maxLength: 10 }), chunkSize, async (deltas, size) => {
        expect(await check('openai-chat', chatCase(deltas), size)).to.deep.equal([]);
        expect(await check('ollama', ollamaCase(deltas), size)).to.deep.equal([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
