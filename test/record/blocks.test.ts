import { ollamaProvider } from '../../lib/providers/ollama/ollama-descriptor';
import { expect } from 'chai';
import { PartsBridge } from '../../lib/bridge/parts-bridge';
import type { ChatResponse } from '../../lib/handler/types';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../lib/handler/values';
import { mediaPart, reasoningPart, textPart, toolCallPart, unknownPart } from '../../lib/parts/factories';
import { StreamingPartIndexer } from '../../lib/parts/streaming-part-indexer';
import type { MessagePart, OpaquePayload } from '../../lib/parts/types';
import { startStream } from '../../lib/driver/consume-stream';
import { openChunkReader } from '../../lib/transport/byte-source';
import type { MapperTarget, StreamMapper } from '../../lib/providers/stream-mapper';
import { dataSse, rawTypes, runBody, typedSse, type TypedEvent } from './support';

// Hand-written transcripts, built from each provider's wire format; the expected final parts are
// written out by hand from the transcript.

const anthropicSig = (data: string): OpaquePayload => ({ provider: 'anthropic', kind: 'signature', data });
const redacted = (data: string): OpaquePayload => ({ provider: 'anthropic', kind: 'redacted_thinking', data });
const encrypted = (data: string): OpaquePayload => ({ provider: 'openai', kind: 'encrypted_content', data });
const thoughtSig = (data: string): OpaquePayload => ({ provider: 'google', kind: 'thought_signature', data });
/** The attributes of an OpenAI Responses part: its output item's id. */
const item_ = (itemId: string) => ({ itemId });

// ---- Anthropic Messages -------------------------------------------------------------------------

const messageStart: TypedEvent = {
  type: 'message_start',
  message: { id: 'msg_b1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
};
const messageEnd: TypedEvent[] = [{ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }, { type: 'message_stop' }];
const start = (index: number, block: Record<string, unknown>): TypedEvent => ({ type: 'content_block_start', index, content_block: block });
const delta = (index: number, value: Record<string, unknown>): TypedEvent => ({ type: 'content_block_delta', index, delta: value });
const stop = (index: number): TypedEvent => ({ type: 'content_block_stop', index });
const text = (index: number, ...pieces: string[]): TypedEvent[] => [start(index, { type: 'text', text: '' }), ...pieces.map((piece) => delta(index, { type: 'text_delta', text: piece })), stop(index)];

async function anthropicParts(events: readonly TypedEvent[]): Promise<MessagePart[]> {
  const run = await runBody(typedSse([messageStart, ...events, ...messageEnd]), 'anthropic');
  expect(run.outcome.status).to.equal('completed');
  return [...run.response.aiMessage.parts];
}

describe('Anthropic blocks in the final message', () => {
  it('keeps two redacted_thinking blocks back to back as two reasoning parts, each with its own data', async () => {
    const parts = await anthropicParts([start(0, { type: 'redacted_thinking', data: 'RD-first' }), stop(0), start(1, { type: 'redacted_thinking', data: 'RD-second' }), stop(1), ...text(2, 'Done.')]);
    expect(parts).to.deep.equal([reasoningPart(null, { payload: redacted('RD-first') }), reasoningPart(null, { payload: redacted('RD-second') }), textPart('Done.')]);
  });

  it('keeps two signed thinking blocks back to back as two reasoning parts, each with its text and signature', async () => {
    const parts = await anthropicParts([
      start(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'First ' }),
      delta(0, { type: 'thinking_delta', thinking: 'idea.' }),
      delta(0, { type: 'signature_delta', signature: 'SIG-one' }),
      stop(0),
      start(1, { type: 'thinking', thinking: '', signature: '' }),
      delta(1, { type: 'thinking_delta', thinking: 'Second idea.' }),
      delta(1, { type: 'signature_delta', signature: 'SIG-two' }),
      stop(1),
      ...text(2, 'Answer'),
    ]);
    expect(parts).to.deep.equal([reasoningPart('First idea.', { payload: anthropicSig('SIG-one') }), reasoningPart('Second idea.', { payload: anthropicSig('SIG-two') }), textPart('Answer')]);
  });

  it('keeps a web search (input assembled from its deltas), its result and the cited text blocks with their citations, in order', async () => {
    const citationA = { type: 'web_search_result_location', cited_text: 'Never look at the sun.', url: 'https://example.com/e', title: 'Eclipse safety', encrypted_index: 'IDX-A' };
    const citationB = { type: 'web_search_result_location', cited_text: 'Use certified glasses.', url: 'https://example.com/g', title: 'Glasses', encrypted_index: 'IDX-B' };
    const events: TypedEvent[] = [
      start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '' }),
      delta(0, { type: 'input_json_delta', partial_json: '{"query": "eclipse' }),
      delta(0, { type: 'input_json_delta', partial_json: ' safety"}' }),
      stop(0),
      start(1, {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: [{ type: 'web_search_result', title: 'Eclipse safety', url: 'https://example.com/e', encrypted_content: 'ENC-R', page_age: null }],
      }),
      stop(1),
      ...text(2, 'Here is what I found.'),
      start(3, { citations: [], type: 'text', text: '' }),
      delta(3, { type: 'citations_delta', citation: citationA }),
      delta(3, { type: 'text_delta', text: 'Never look directly' }),
      delta(3, { type: 'citations_delta', citation: citationB }),
      delta(3, { type: 'text_delta', text: ' at it.' }),
      stop(3),
      ...text(4, ' Enjoy.'),
    ];
    const run = await runBody(typedSse([messageStart, ...events, ...messageEnd]), 'anthropic');
    expect(run.response.aiMessage.parts).to.deep.equal([
      unknownPart('anthropic', 'server_tool_use', '{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"eclipse safety"}}'),
      unknownPart(
        'anthropic',
        'web_search_tool_result',
        '{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Eclipse safety","url":"https://example.com/e","encrypted_content":"ENC-R","page_age":null}]}',
      ),
      textPart('Here is what I found.'),
      textPart('Never look directly at it.', {
        payload: {
          provider: 'anthropic',
          kind: 'citations',
          data:
            '[{"type":"web_search_result_location","cited_text":"Never look at the sun.","url":"https://example.com/e","title":"Eclipse safety","encrypted_index":"IDX-A"},' +
            '{"type":"web_search_result_location","cited_text":"Use certified glasses.","url":"https://example.com/g","title":"Glasses","encrypted_index":"IDX-B"}]',
        },
      }),
      textPart(' Enjoy.'),
    ]);
    expect(run.response.aiMessage.text).to.equal('Here is what I found.Never look directly at it. Enjoy.');
    // The server-side blocks and the citations still surface raw, as before.
    expect(rawTypes(run.raw)).to.deep.equal([
      'message_start',
      'content_block_start',
      'content_block_delta:input_json_delta',
      'content_block_delta:input_json_delta',
      'content_block_delta:input_json_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'content_block_delta:citations_delta',
      'content_block_delta:citations_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('keeps MCP, web fetch, code execution and block types not known today as unknown parts', async () => {
    const parts = await anthropicParts([
      start(0, { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: {}, server_name: 'echo' }),
      delta(0, { type: 'input_json_delta', partial_json: '{"text":' }),
      delta(0, { type: 'input_json_delta', partial_json: '"hi"}' }),
      stop(0),
      start(1, { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'hi' }] }),
      stop(1),
      start(2, { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'web_fetch_result', url: 'https://example.com/f', retrieved_at: '2025-01-01T00:00:00Z' } }),
      stop(2),
      start(3, { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_3', content: { type: 'code_execution_result', stdout: '4\n', stderr: '', return_code: 0 } }),
      stop(3),
      start(4, { type: 'memo', note: null, tag: 'x' }),
      delta(4, { type: 'memo_delta', note: 'Remember ' }),
      delta(4, { type: 'memo_delta', note: 'this.' }),
      delta(4, { type: 'text_delta', text: ' (not answer text)' }),
      stop(4),
      ...text(5, 'Echoed.'),
    ]);
    expect(parts).to.deep.equal([
      unknownPart('anthropic', 'mcp_tool_use', '{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","input":{"text":"hi"},"server_name":"echo"}'),
      unknownPart('anthropic', 'mcp_tool_result', '{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"hi"}]}'),
      unknownPart(
        'anthropic',
        'web_fetch_tool_result',
        '{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"web_fetch_result","url":"https://example.com/f","retrieved_at":"2025-01-01T00:00:00Z"}}',
      ),
      unknownPart(
        'anthropic',
        'code_execution_tool_result',
        '{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_3","content":{"type":"code_execution_result","stdout":"4\\n","stderr":"","return_code":0}}',
      ),
      unknownPart('anthropic', 'memo', '{"type":"memo","note":"Remember this.","tag":"x","text":" (not answer text)"}'),
      textPart('Echoed.'),
    ]);
  });

  it('keeps a text block that only brings citations as an empty text part carrying them', async () => {
    const citation = { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 };
    const parts = await anthropicParts([
      start(0, { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '{}' }),
      stop(0),
      start(1, { type: 'text', text: '', citations: [citation] }),
      stop(1),
    ]);
    expect(parts).to.deep.equal([
      toolCallPart({ id: 'toolu_1', type: 'function', name: 'lookup', arguments: '{}' }),
      textPart('', {
        payload: { provider: 'anthropic', kind: 'citations', data: '[{"type":"char_location","cited_text":"x","document_index":0,"start_char_index":0,"end_char_index":1}]' },
      }),
    ]);
  });
});

// ---- OpenAI Responses ---------------------------------------------------------------------------

let sequence = 0;
const ev = (type: string, fields: Record<string, unknown> = {}): TypedEvent => ({ type, sequence_number: sequence++, ...fields });
const responsesStart = (): TypedEvent => ev('response.created', { response: { id: 'resp_b1', object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } });
const responsesEnd = (): TypedEvent =>
  ev('response.completed', {
    response: { id: 'resp_b1', object: 'response', status: 'completed', model: 'gpt-test', output: [], usage: { input_tokens: 4, output_tokens: 6, total_tokens: 10 } },
  });
const item = (outputIndex: number, added: Record<string, unknown>, done: Record<string, unknown>, between: TypedEvent[] = []): TypedEvent[] => [
  ev('response.output_item.added', { output_index: outputIndex, item: added }),
  ...between,
  ev('response.output_item.done', { output_index: outputIndex, item: done }),
];
const encryptedReasoning = (outputIndex: number, id: string, data: string): TypedEvent[] =>
  item(outputIndex, { id, type: 'reasoning', summary: [] }, { id, type: 'reasoning', summary: [], encrypted_content: data });
const message = (outputIndex: number, id: string, textValue: string, annotations: unknown[] = []): TypedEvent[] =>
  item(
    outputIndex,
    { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: textValue, annotations, logprobs: [] }] },
    [
      ev('response.content_part.added', { item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } }),
      ev('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta: textValue }),
      ev('response.output_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text: textValue }),
    ],
  );

async function responsesRun(events: readonly TypedEvent[]) {
  const run = await runBody(typedSse([responsesStart(), ...events, responsesEnd()]), 'openai-responses');
  expect(run.outcome.status).to.equal('completed');
  return run;
}

describe('OpenAI Responses items in the final message', () => {
  it('keeps both encrypted reasoning items around a web_search_call, which stays as an unknown part between them', async () => {
    const run = await responsesRun([
      ...encryptedReasoning(0, 'rs_1', 'ENC-first'),
      ...item(1, { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }, { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'eclipse' } }, [
        ev('response.web_search_call.in_progress', { item_id: 'ws_1', output_index: 1 }),
        ev('response.web_search_call.searching', { item_id: 'ws_1', output_index: 1 }),
        ev('response.web_search_call.completed', { item_id: 'ws_1', output_index: 1 }),
      ]),
      ...encryptedReasoning(2, 'rs_2', 'ENC-second'),
      ...message(3, 'msg_1', 'Eclipses are safe with glasses.'),
    ]);
    expect(run.response.aiMessage.parts).to.deep.equal([
      reasoningPart(null, { payload: encrypted('ENC-first'), attributes: item_('rs_1') }),
      unknownPart('openai', 'web_search_call', '{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"eclipse"}}', { attributes: item_('ws_1') }),
      reasoningPart(null, { payload: encrypted('ENC-second'), attributes: item_('rs_2') }),
      textPart('Eclipses are safe with glasses.', { attributes: item_('msg_1') }),
    ]);
    // The web search's events, its output_item.done included, still surface raw.
    expect(rawTypes(run.raw).filter((type) => type.includes('web_search') || type === 'response.output_item.done')).to.deep.equal([
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
      'response.output_item.done',
    ]);
  });

  it('keeps both encrypted reasoning items around an mcp_call', async () => {
    const call = { id: 'mcp_1', type: 'mcp_call', server_label: 'docs', name: 'lookup', arguments: '{"q":"x"}', output: 'found', error: null };
    const run = await responsesRun([
      ...encryptedReasoning(0, 'rs_1', 'ENC-A'),
      ...item(1, { ...call, arguments: '', output: null }, call, [
        ev('response.mcp_call_arguments.delta', { item_id: 'mcp_1', output_index: 1, delta: '{"q":"x"}' }),
        ev('response.mcp_call_arguments.done', { item_id: 'mcp_1', output_index: 1, arguments: '{"q":"x"}' }),
        ev('response.mcp_call.completed', { item_id: 'mcp_1', output_index: 1 }),
      ]),
      ...encryptedReasoning(2, 'rs_2', 'ENC-B'),
      ...message(3, 'msg_1', 'Found it.'),
    ]);
    expect(run.response.aiMessage.parts).to.deep.equal([
      reasoningPart(null, { payload: encrypted('ENC-A'), attributes: item_('rs_1') }),
      unknownPart('openai', 'mcp_call', '{"id":"mcp_1","type":"mcp_call","server_label":"docs","name":"lookup","arguments":"{\\"q\\":\\"x\\"}","output":"found","error":null}', {
        attributes: item_('mcp_1'),
      }),
      reasoningPart(null, { payload: encrypted('ENC-B'), attributes: item_('rs_2') }),
      textPart('Found it.', { attributes: item_('msg_1') }),
    ]);
  });

  it('keeps two reasoning items with summaries back to back as two parts, and two messages as two text parts', async () => {
    const summarised = (outputIndex: number, id: string, summary: string, data: string): TypedEvent[] =>
      item(outputIndex, { id, type: 'reasoning', summary: [] }, { id, type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], encrypted_content: data }, [
        ev('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: 0, delta: summary }),
        ev('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: 0, text: summary }),
      ]);
    const run = await responsesRun([...summarised(0, 'rs_1', 'Plan.', 'ENC-1'), ...summarised(1, 'rs_2', 'Check.', 'ENC-2'), ...message(2, 'msg_1', 'One.'), ...message(3, 'msg_2', 'Two.')]);
    expect(run.response.aiMessage.parts).to.deep.equal([
      reasoningPart('Plan.', { payload: encrypted('ENC-1'), attributes: item_('rs_1') }),
      reasoningPart('Check.', { payload: encrypted('ENC-2'), attributes: item_('rs_2') }),
      textPart('One.', { attributes: item_('msg_1') }),
      textPart('Two.', { attributes: item_('msg_2') }),
    ]);
  });

  it('keeps other output items as unknown parts, a generated image as a media part and the annotations on their text part', async () => {
    const listTools = { id: 'mcpl_1', type: 'mcp_list_tools', server_label: 'docs', tools: [{ name: 'lookup', input_schema: { type: 'object' } }] };
    const interpreter = { id: 'ci_1', type: 'code_interpreter_call', status: 'completed', code: 'print(2+2)', container_id: 'cntr_1', outputs: [{ type: 'logs', logs: '4\n' }] };
    const image = { id: 'ig_1', type: 'image_generation_call', status: 'completed', output_format: 'webp', result: 'UklGRg==' };
    const future = { id: 'zz_1', type: 'hologram_call', status: 'completed' };
    const annotation = { type: 'url_citation', start_index: 0, end_index: 4, url: 'https://example.com/', title: 'Example' };
    const run = await responsesRun([
      ...item(0, { ...listTools, tools: [] }, listTools),
      ...item(1, { ...interpreter, status: 'in_progress', outputs: null }, interpreter, [ev('response.code_interpreter_call_code.delta', { item_id: 'ci_1', output_index: 1, delta: 'print(2+2)' })]),
      ...item(2, { id: 'ig_1', type: 'image_generation_call', status: 'in_progress' }, image, [
        ev('response.image_generation_call.partial_image', { item_id: 'ig_1', output_index: 2, partial_image_index: 0, partial_image_b64: 'AAAA' }),
      ]),
      ...item(3, future, future),
      ...message(4, 'msg_1', 'Seen.', [annotation]),
    ]);
    expect(run.response.aiMessage.parts).to.deep.equal([
      unknownPart('openai', 'mcp_list_tools', '{"id":"mcpl_1","type":"mcp_list_tools","server_label":"docs","tools":[{"name":"lookup","input_schema":{"type":"object"}}]}', {
        attributes: item_('mcpl_1'),
      }),
      unknownPart(
        'openai',
        'code_interpreter_call',
        '{"id":"ci_1","type":"code_interpreter_call","status":"completed","code":"print(2+2)","container_id":"cntr_1","outputs":[{"type":"logs","logs":"4\\n"}]}',
        { attributes: item_('ci_1') },
      ),
      mediaPart({ id: 'ig_1', mimeType: 'image/webp', name: null, dataKind: 'string', data: 'UklGRg==' }, { attributes: item_('ig_1') }),
      unknownPart('openai', 'hologram_call', '{"id":"zz_1","type":"hologram_call","status":"completed"}', { attributes: item_('zz_1') }),
      textPart('Seen.', {
        payload: { provider: 'openai', kind: 'annotations', data: '[{"type":"url_citation","start_index":0,"end_index":4,"url":"https://example.com/","title":"Example"}]' },
        attributes: item_('msg_1'),
      }),
    ]);
    // Every event of the unmodelled items surfaces raw.
    expect(rawTypes(run.raw).filter((type) => type === 'response.output_item.done')).to.have.length(5);
  });
});

// ---- Gemini -------------------------------------------------------------------------------------

const geminiChunk = (parts: unknown[], finishReason?: string): unknown => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }],
  modelVersion: 'gemini-test',
  responseId: 'g-b1',
});

async function geminiRun(chunks: readonly unknown[]) {
  const run = await runBody(dataSse(chunks), 'gemini');
  expect(run.outcome.status).to.equal('completed');
  return run;
}

describe('Gemini parts in the final message', () => {
  it('keeps Gemini 3 toolCall / toolResponse parts that carry a thought signature and no text as unknown parts, raw as well', async () => {
    const call = { toolCall: { id: 'tc_1', toolType: 'GOOGLE_SEARCH_WEB', args: { queries: ['eclipse'] } }, thoughtSignature: 'GS-call' };
    const response = { toolResponse: { id: 'tc_1', toolType: 'GOOGLE_SEARCH_WEB', response: { results: [{ title: 'Eclipse' }] } }, thoughtSignature: 'GS-response' };
    const chunks = [geminiChunk([call]), geminiChunk([response]), geminiChunk([{ text: 'Eclipses ', thoughtSignature: 'GS-text' }]), geminiChunk([{ text: 'are rare.' }], 'STOP')];
    const run = await geminiRun(chunks);
    expect(run.response.aiMessage.parts).to.deep.equal([
      unknownPart('google', 'toolCall', '{"toolCall":{"id":"tc_1","toolType":"GOOGLE_SEARCH_WEB","args":{"queries":["eclipse"]}},"thoughtSignature":"GS-call"}'),
      unknownPart('google', 'toolResponse', '{"toolResponse":{"id":"tc_1","toolType":"GOOGLE_SEARCH_WEB","response":{"results":[{"title":"Eclipse"}]}},"thoughtSignature":"GS-response"}'),
      textPart('Eclipses are rare.', { payload: thoughtSig('GS-text') }),
    ]);
    expect(run.raw).to.deep.equal([
      { event: null, data: JSON.stringify(chunks[0]) },
      { event: null, data: JSON.stringify(chunks[1]) },
    ]);
    // Only the text's signature went through a partial callback.
    expect(run.payloads).to.deep.equal([{ on: 'partialResponse', payload: thoughtSig('GS-text') }]);
  });

  it('keeps two text parts, and two thought parts, that each carry a thought signature as parts of their own', async () => {
    const run = await geminiRun([
      geminiChunk([{ text: 'Hmm.', thought: true, thoughtSignature: 'T-1' }]),
      geminiChunk([{ text: ' More.', thought: true }]),
      geminiChunk([{ text: 'Again.', thought: true, thoughtSignature: 'T-2' }]),
      geminiChunk([{ text: 'One.', thoughtSignature: 'S-1' }]),
      geminiChunk(
        [
          { text: 'Two.', thoughtSignature: 'S-2' },
          { text: '', thoughtSignature: '' },
        ],
        'STOP',
      ),
    ]);
    expect(run.response.aiMessage.parts).to.deep.equal([
      reasoningPart('Hmm. More.', { payload: thoughtSig('T-1') }),
      reasoningPart('Again.', { payload: thoughtSig('T-2') }),
      textPart('One.', { payload: thoughtSig('S-1') }),
      textPart('Two.', { payload: thoughtSig('S-2') }),
    ]);
  });

  it('maps code execution, function responses, inline media and a signature alone by what they hold', async () => {
    const chunks = [
      geminiChunk([{ thought: true, thoughtSignature: 'T-only' }]),
      geminiChunk([{ executableCode: { language: 'PYTHON', code: 'print(4)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '4\n' } }]),
      geminiChunk([{ text: 'Result: 4.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' }, thoughtSignature: 'IMG-sig' }]),
      geminiChunk([{ functionResponse: { name: 'lookup', response: { ok: true } } }, { thoughtSignature: 'LONE' }, {}], 'STOP'),
    ];
    const run = await geminiRun(chunks);
    expect(run.response.aiMessage.parts).to.deep.equal([
      reasoningPart(null, { payload: thoughtSig('T-only') }),
      unknownPart('google', 'executableCode', '{"executableCode":{"language":"PYTHON","code":"print(4)"}}'),
      unknownPart('google', 'codeExecutionResult', '{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"4\\n"}}'),
      textPart('Result: 4.'),
      mediaPart({ id: null, mimeType: 'image/png', name: null, dataKind: 'string', data: 'iVBORw0K' }, { payload: thoughtSig('IMG-sig') }),
      unknownPart('google', 'functionResponse', '{"functionResponse":{"name":"lookup","response":{"ok":true}}}'),
      unknownPart('google', 'thoughtSignature', '{"thoughtSignature":"LONE"}'),
    ]);
    // A chunk that mapped text and also held a media part surfaces raw once; so do the unmapped ones.
    expect(run.raw).to.deep.equal(chunks.slice(1).map((chunk) => ({ event: null, data: JSON.stringify(chunk) })));
  });
});

// ---- The chain: indexer, bridge, MapperTarget -----------------------------------------------------

describe('StreamingPartIndexer#stamp with payloads and block ends', () => {
  const index = (part: MessagePart): string | undefined => part.attributes.partIndex;

  it('starts a new part for a second payload-bearing delta of the same type', () => {
    const indexer = new StreamingPartIndexer();
    const stamped = [reasoningPart('A'), reasoningPart('', { payload: anthropicSig('one') }), reasoningPart('', { payload: anthropicSig('two') }), reasoningPart('B')].map((part) =>
      indexer.stamp(part),
    );
    expect(stamped.map(index)).to.deep.equal(['0', '0', '1', '1']);
  });

  it('ends the current run at endRun, so the next delta of the same type takes a new index', () => {
    const indexer = new StreamingPartIndexer();
    const first = indexer.stamp(textPart('a'));
    indexer.endRun();
    const second = indexer.stamp(textPart('b'));
    const third = indexer.stamp(textPart('c'));
    expect([first, second, third].map(index)).to.deep.equal(['0', '1', '1']);
  });
});

describe('PartsBridge#completeBlock', () => {
  const context = { streamingHandle: { cancel: () => undefined, isCancelled: () => false } };

  function bridgeWith(): { bridge: PartsBridge; finals: ChatResponse[]; calls: string[] } {
    const finals: ChatResponse[] = [];
    const calls: string[] = [];
    const bridge = new PartsBridge({
      onPartialResponse: (partial) => calls.push(`text:${partial.text}`),
      onUnmappedRawEvent: () => calls.push('raw'),
      onCompleteResponse: (response) => finals.push(response),
      onError: (error) => calls.push(`error:${error.message}`),
    });
    return { bridge, finals, calls };
  }

  it('hands a whole part over at its place, ends text runs, and reaches no callback of the wrapped handler', () => {
    const { bridge, calls } = bridgeWith();
    bridge.onPartialResponse(partialResponse('a'), context);
    bridge.completeBlock();
    bridge.onPartialResponse(partialResponse('b'), context);
    bridge.completeBlock(unknownPart('x', 'thing', '{}'));
    bridge.onPartialResponse(partialResponse('c'), context);
    bridge.completeBlock(textPart('', { payload: { provider: 'x', kind: 'citations', data: '[]' } }));
    expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([
      textPart('a'),
      textPart('b'),
      unknownPart('x', 'thing', '{}'),
      textPart('c', { payload: { provider: 'x', kind: 'citations', data: '[]' } }),
    ]);
    expect(calls).to.deep.equal(['text:a', 'text:b', 'text:c']);
  });

  it('rejects a value that is not a part with a TypeError naming it', () => {
    const { bridge } = bridgeWith();
    expect(() => bridge.completeBlock({ type: 'text', text: 5 } as unknown as MessagePart)).to.throw(TypeError, /part/);
  });

  it('aggregates nothing once the response completed', () => {
    const { bridge, finals } = bridgeWith();
    bridge.onPartialResponse(partialResponse('a'), context);
    bridge.onCompleteResponse(bridge.partialResponse());
    bridge.completeBlock(unknownPart('x', 'late', '{}'));
    expect(finals[0].aiMessage.parts).to.deep.equal([textPart('a')]);
    expect(bridge.partialResponse().aiMessage.parts).to.deep.equal([textPart('a')]);
  });

  it('is on the MapperTarget a custom adapter gets: its parts keep their place, its events stay raw', async () => {
    class BlockMapper implements StreamMapper<unknown> {
      readonly framing = 'ndjson' as const;
      map(event: unknown, target: MapperTarget): boolean {
        const line = event as { text?: string; block?: string; done?: boolean };
        if (typeof line.text === 'string') target.handler.onPartialResponse?.(partialResponse(line.text), { streamingHandle: target.handle });
        if (typeof line.block === 'string') target.completeBlock?.(unknownPart('custom', line.block, JSON.stringify(line)));
        return line.done === true;
      }
      end(target: MapperTarget): void {
        target.handler.onCompleteResponse(bridgeResponse());
      }
    }
    const raw: unknown[] = [];
    const body = '{"text":"a"}\n{"block":"b"}\n{"text":"c"}\n{"done":true}\n';
    const outcome = await startStream(
      async () =>
        openChunkReader(
          (async function* () {
            yield body;
          })(),
        ),
      { onUnmappedRawEvent: (event) => raw.push(event), onCompleteResponse: () => undefined, onError: () => undefined },
      { format: { ...ollamaProvider, createMapper: () => new BlockMapper() } },
    );
    expect(outcome.status).to.equal('completed');
    expect(outcome.status === 'completed' && outcome.response.aiMessage.parts).to.deep.equal([textPart('a'), unknownPart('custom', 'b', '{"block":"b"}'), textPart('c')]);
    expect(raw).to.deep.equal([{ block: 'b' }, { done: true }]);
  });
});

function bridgeResponse(): ChatResponse {
  return chatResponse(aiMessage([]), responseMetadata({ finishReason: 'STOP' }));
}
