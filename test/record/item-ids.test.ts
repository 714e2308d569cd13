import { expect } from 'chai';
import { reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import type { MessagePart, OpaquePayload } from '../../lib/parts/types';
import type { SseFrame } from '../../lib/wire/types';
import { fixtureEntries, fixturesAvailable, readFixture, recordRun, referenceSseFrames } from '../providers/shared/fixture-support';
import { runBody, typedSse, type TypedEvent } from './support';

// SPEC §10: every part of an OpenAI Responses stream keeps its output item's `id` as the
// attribute `itemId` (replay sends a reasoning item back with its id). Hand-written transcripts;
// the expected final parts are written out by hand from them.

let sequence = 0;
const ev = (type: string, fields: Record<string, unknown> = {}): TypedEvent => ({ type, sequence_number: sequence++, ...fields });
const created = (): TypedEvent => ev('response.created', { response: { id: 'resp_i1', object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } });
const completed = (): TypedEvent =>
  ev('response.completed', { response: { id: 'resp_i1', object: 'response', status: 'completed', model: 'gpt-test', output: [], usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 } } });
const incompleteForLength = (): TypedEvent =>
  ev('response.incomplete', { response: { id: 'resp_i1', object: 'response', status: 'incomplete', model: 'gpt-test', output: [], incomplete_details: { reason: 'max_output_tokens' } } });
const added = (outputIndex: number, item: Record<string, unknown>): TypedEvent => ev('response.output_item.added', { output_index: outputIndex, item });
const done = (outputIndex: number, item: Record<string, unknown>): TypedEvent => ev('response.output_item.done', { output_index: outputIndex, item });
const summaryDelta = (outputIndex: number, itemId: string, delta: string): TypedEvent =>
  ev('response.reasoning_summary_text.delta', { item_id: itemId, output_index: outputIndex, summary_index: 0, delta });
const textDelta = (outputIndex: number, itemId: string | undefined, delta: string): TypedEvent =>
  ev('response.output_text.delta', { ...(itemId === undefined ? {} : { item_id: itemId }), output_index: outputIndex, content_index: 0, delta });
const argsDelta = (outputIndex: number, itemId: string, delta: string): TypedEvent => ev('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });

const encrypted = (data: string): OpaquePayload => ({ provider: 'openai', kind: 'encrypted_content', data });
const item = (itemId: string) => ({ attributes: { itemId } });
const call = (itemId: string, id: string, name: string, args: string): MessagePart => toolCallPart({ id, type: 'function', name, arguments: args }, item(itemId));
// A custom tool call's part also says what item it was, so that replay sends a custom_tool_call back.
const customCall = (itemId: string, id: string, name: string, input: string): MessagePart =>
  toolCallPart({ id, type: 'function', name, arguments: input }, { attributes: { itemId, itemType: 'custom_tool_call' } });

async function finalParts(events: readonly TypedEvent[], chunkSize = 0): Promise<{ parts: MessagePart[]; status: string; finishReason: string | null }> {
  const run = await runBody(typedSse(events), 'openai-responses', chunkSize);
  return { parts: [...run.response.aiMessage.parts], status: run.outcome.status, finishReason: run.response.metadata.finishReason };
}

const annotation = { type: 'url_citation', start_index: 0, end_index: 4, url: 'https://example.com/tides', title: 'Tides' };
const webSearch = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'tides today' } };

/** A reasoning item (summary + encrypted), a function call, a custom tool call, a web search, a message. */
function everyItemKind(): TypedEvent[] {
  return [
    created(),
    added(0, { id: 'rs_1', type: 'reasoning', summary: [] }),
    ev('response.reasoning_summary_part.added', { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }),
    summaryDelta(0, 'rs_1', 'Look it '),
    summaryDelta(0, 'rs_1', 'up.'),
    ev('response.reasoning_summary_text.done', { item_id: 'rs_1', output_index: 0, summary_index: 0, text: 'Look it up.' }),
    ev('response.reasoning_summary_part.done', { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: 'Look it up.' } }),
    done(0, { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look it up.' }], encrypted_content: 'ENC-1' }),
    added(1, { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'lookup', arguments: '' }),
    argsDelta(1, 'fc_1', '{"q":'),
    argsDelta(1, 'fc_1', '"tides"}'),
    ev('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 1, arguments: '{"q":"tides"}' }),
    done(1, { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'lookup', arguments: '{"q":"tides"}' }),
    added(2, { id: 'ct_1', type: 'custom_tool_call', status: 'in_progress', call_id: 'call_2', name: 'run_sql', input: '' }),
    ev('response.custom_tool_call_input.delta', { item_id: 'ct_1', output_index: 2, delta: 'SELECT ' }),
    ev('response.custom_tool_call_input.delta', { item_id: 'ct_1', output_index: 2, delta: '1' }),
    ev('response.custom_tool_call_input.done', { item_id: 'ct_1', output_index: 2, input: 'SELECT 1' }),
    done(2, { id: 'ct_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_2', name: 'run_sql', input: 'SELECT 1' }),
    added(3, { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }),
    ev('response.web_search_call.in_progress', { item_id: 'ws_1', output_index: 3 }),
    ev('response.web_search_call.searching', { item_id: 'ws_1', output_index: 3 }),
    ev('response.web_search_call.completed', { item_id: 'ws_1', output_index: 3 }),
    done(3, webSearch),
    added(4, { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] }),
    ev('response.content_part.added', { item_id: 'msg_1', output_index: 4, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } }),
    textDelta(4, 'msg_1', 'High tide '),
    textDelta(4, 'msg_1', 'at noon.'),
    ev('response.output_text.annotation.added', { item_id: 'msg_1', output_index: 4, content_index: 0, annotation_index: 0, annotation }),
    ev('response.output_text.done', { item_id: 'msg_1', output_index: 4, content_index: 0, text: 'High tide at noon.' }),
    done(4, {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'High tide at noon.', annotations: [annotation], logprobs: [] }],
    }),
    completed(),
  ];
}

describe('OpenAI Responses parts keep their output item id (itemId)', () => {
  it('on every part: reasoning with summary and encrypted content, function call, custom tool call, web search, message', async () => {
    const expected = [
      reasoningPart('Look it up.', { payload: encrypted('ENC-1'), ...item('rs_1') }),
      call('fc_1', 'call_1', 'lookup', '{"q":"tides"}'),
      customCall('ct_1', 'call_2', 'run_sql', 'SELECT 1'),
      unknownPart('openai', 'web_search_call', '{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"tides today"}}', item('ws_1')),
      textPart('High tide at noon.', {
        payload: { provider: 'openai', kind: 'annotations', data: '[{"type":"url_citation","start_index":0,"end_index":4,"url":"https://example.com/tides","title":"Tides"}]' },
        ...item('msg_1'),
      }),
    ];
    const events = everyItemKind();
    for (const chunkSize of [0, 1, 13]) {
      const run = await finalParts(events, chunkSize);
      expect(run.status, `chunks of ${chunkSize}`).to.equal('completed');
      expect(run.parts, `chunks of ${chunkSize}`).to.deep.equal(expected);
      expect(run.finishReason).to.equal('TOOL_EXECUTION');
    }
  });

  it('on a function call cut by max_output_tokens, kept incomplete', async () => {
    const run = await finalParts([
      created(),
      added(0, { id: 'rs_1', type: 'reasoning', summary: [] }),
      done(0, { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'ENC-1' }),
      added(1, { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'write', arguments: '' }),
      argsDelta(1, 'fc_1', '{"text":"Once upon'),
      incompleteForLength(),
    ]);
    expect(run.parts).to.deep.equal([
      reasoningPart(null, { payload: encrypted('ENC-1'), ...item('rs_1') }),
      toolCallPart({ id: 'call_1', type: 'function', name: 'write', arguments: '{"text":"Once upon' }, { attributes: { incomplete: 'true', itemId: 'fc_1' } }),
    ]);
    expect(run.finishReason).to.equal('LENGTH');
  });

  it('on a custom tool call done with status "incomplete", and on a complete call before it', async () => {
    const run = await finalParts([
      created(),
      added(0, { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'f', arguments: '' }),
      argsDelta(0, 'fc_1', '{}'),
      done(0, { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'f', arguments: '{}' }),
      added(1, { id: 'ct_1', type: 'custom_tool_call', status: 'in_progress', call_id: 'call_2', name: 'run_sql', input: '' }),
      ev('response.custom_tool_call_input.delta', { item_id: 'ct_1', output_index: 1, delta: 'SELECT * FR' }),
      done(1, { id: 'ct_1', type: 'custom_tool_call', status: 'incomplete', call_id: 'call_2', name: 'run_sql', input: 'SELECT * FR' }),
      incompleteForLength(),
    ]);
    expect(run.parts).to.deep.equal([
      call('fc_1', 'call_1', 'f', '{}'),
      toolCallPart({ id: 'call_2', type: 'function', name: 'run_sql', arguments: 'SELECT * FR' }, { attributes: { incomplete: 'true', itemId: 'ct_1', itemType: 'custom_tool_call' } }),
    ]);
  });

  it('on a custom tool call that completes at its output_item.done (no input done event)', async () => {
    const run = await finalParts([
      created(),
      added(0, { id: 'ct_1', type: 'custom_tool_call', status: 'in_progress', call_id: 'call_1', name: 'write_sql', input: '' }),
      ev('response.custom_tool_call_input.delta', { item_id: 'ct_1', output_index: 0, delta: 'SELECT 1' }),
      done(0, { id: 'ct_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_1', name: 'write_sql', input: 'SELECT 1' }),
      completed(),
    ]);
    expect(run.parts).to.deep.equal([customCall('ct_1', 'call_1', 'write_sql', 'SELECT 1')]);
  });

  it('on the text of a message whose output_item.done never came', async () => {
    const run = await finalParts([created(), added(0, { id: 'msg_1', type: 'message', role: 'assistant', content: [] }), textDelta(0, 'msg_1', 'Cut short'), completed()]);
    expect(run.parts).to.deep.equal([textPart('Cut short', item('msg_1'))]);
  });

  it("on a failed stream's partial, for the text streamed before the error", async () => {
    const run = await finalParts([created(), textDelta(0, 'msg_1', 'Half'), ev('error', { code: 'server_error', message: 'boom' })]);
    expect(run.status).to.equal('failed');
    expect(run.parts).to.deep.equal([textPart('Half', item('msg_1'))]);
  });

  it('never on the wrong part: interleaved items keep a part each, with its own id', async () => {
    const run = await finalParts([
      created(),
      added(0, { id: 'rs_1', type: 'reasoning', summary: [] }),
      summaryDelta(0, 'rs_1', 'A'),
      added(1, { id: 'msg_1', type: 'message', role: 'assistant', content: [] }),
      textDelta(1, 'msg_1', 'B'),
      summaryDelta(0, 'rs_1', 'C'),
      added(2, { id: 'rs_2', type: 'reasoning', summary: [] }),
      summaryDelta(2, 'rs_2', 'D'),
      done(0, { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'AC' }], encrypted_content: 'ENC-1' }),
      done(2, { id: 'rs_2', type: 'reasoning', summary: [{ type: 'summary_text', text: 'D' }] }),
      done(1, { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'B', annotations: [] }] }),
      completed(),
    ]);
    expect(run.parts).to.deep.equal([
      reasoningPart('A', item('rs_1')),
      textPart('B', item('msg_1')),
      reasoningPart('C', item('rs_1')),
      reasoningPart('D', item('rs_2')),
      reasoningPart(null, { payload: encrypted('ENC-1'), ...item('rs_1') }),
    ]);
  });

  it('never on the wrong part: an empty reasoning item keeps its id on a part of its own, and an item without id gives none', async () => {
    const run = await finalParts([
      created(),
      added(0, { id: 'msg_1', type: 'message', role: 'assistant', content: [] }),
      textDelta(0, 'msg_1', 'One.'),
      done(0, { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One.', annotations: [] }] }),
      added(1, { id: 'rs_empty', type: 'reasoning', summary: [] }),
      done(1, { id: 'rs_empty', type: 'reasoning', summary: [] }),
      added(2, { type: 'message', role: 'assistant', content: [] }),
      textDelta(2, undefined, 'Two.'),
      done(2, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two.', annotations: [] }] }),
      done(3, { type: 'web_search_call', status: 'completed' }),
      added(4, { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '' }),
      argsDelta(4, 'fc_1', '{}'),
      done(4, { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }),
      completed(),
    ]);
    expect(run.parts).to.deep.equal([
      textPart('One.', item('msg_1')),
      reasoningPart(null, item('rs_empty')),
      textPart('Two.'),
      unknownPart('openai', 'web_search_call', '{"type":"web_search_call","status":"completed"}'),
      call('fc_1', 'call_1', 'f', '{}'),
    ]);
  });
});

// ---- the recorded Responses streams ----

type Json = Record<string, unknown>;

/**
 * The part type each output item yields, with the item's id, read from the frames
 * (eventsource-parser): a message with text → text; a reasoning item with summary text or
 * every reasoning item → reasoning (an empty one too: every output item is a part, SPEC §5, §10); a
 * client tool call → tool_call; a generated image → media; any other item → unknown. A message
 * without text yields none.
 */
function expectedItemParts(frames: readonly SseFrame[]): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (const frame of frames) {
    const event = JSON.parse(frame.data) as Json;
    if (event.type !== 'response.output_item.done') continue;
    const value = event.item as Json;
    const id = value.id as string;
    switch (value.type) {
      case 'message': {
        const text = ((value.content ?? []) as Json[]).map((content) => (typeof content.text === 'string' ? content.text : '')).join('');
        if (text.length > 0) result.push(['text', id]);
        break;
      }
      case 'reasoning':
        result.push(['reasoning', id]);
        break;
      case 'function_call':
      case 'custom_tool_call':
        result.push(['tool_call', id]);
        break;
      case 'image_generation_call':
        result.push(['media', id]);
        break;
      default:
        result.push(['unknown', id]);
    }
  }
  return result;
}

const available = fixturesAvailable('item id fixtures');

(available ? describe : describe.skip)('the recorded OpenAI Responses streams: every part keeps its item id', () => {
  for (const entry of available ? fixtureEntries('openai-responses') : []) {
    it(entry.file, async () => {
      const bytes = readFixture(entry.file);
      const frames = referenceSseFrames(bytes);
      const expected = expectedItemParts(frames);
      // The custom tool calls, read from the recorded items: their parts say so (itemType).
      const customIds = new Set(
        frames
          .map((frame) => JSON.parse(frame.data) as Json)
          .filter((event) => event.type === 'response.output_item.done' && (event.item as Json).type === 'custom_tool_call')
          .map((event) => (event.item as Json).id as string),
      );
      const run = await recordRun([bytes], 'openai-responses');
      const parts = run.response.aiMessage.parts;
      expect(parts.map((part) => [part.type, part.attributes.itemId])).to.deep.equal(expected);
      for (const part of parts) {
        const custom = part.type === 'tool_call' && customIds.has(part.attributes.itemId ?? '');
        expect(part.attributes).to.deep.equal(custom ? { itemId: part.attributes.itemId, itemType: 'custom_tool_call' } : { itemId: part.attributes.itemId });
      }
    });
  }
});
