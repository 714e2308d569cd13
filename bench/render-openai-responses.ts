import type { ByteSink } from './render-sse';
import type { Content } from './transcript-content';

function hex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[Math.floor(random() * 16)];
  return out;
}

/**
 * Renders content as an OpenAI Responses SSE body: a reasoning item whose summary streams as
 * `reasoning_summary_text.delta`s, a message item of `output_text.delta`s, three function_call
 * items of `function_call_arguments.delta`s, each item's added/done events (the done ones carry
 * the full text), and `response.completed` with the whole output and usage.
 */
export function renderOpenAiResponses(content: Content, random: () => number, sink: ByteSink): void {
  const { expected } = content;
  let sequence = 0;
  const event = (type: string, rest: string): void => sink.frame(`event: ${type}\ndata: {"type":"${type}","sequence_number":${sequence++},${rest}}\n\n`);
  const response = (status: string, output: string, usage: string): string =>
    `"response":{"id":${JSON.stringify(expected.id)},"object":"response","created_at":1764664568,"status":"${status}","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":${JSON.stringify(expected.model)},"output":${output},"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":"medium","summary":"detailed"},"service_tier":"default","store":false,"temperature":1,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","top_p":1,"truncation":"disabled","usage":${usage},"user":null,"metadata":{}}`;
  event('response.created', response('in_progress', '[]', 'null'));
  event('response.in_progress', response('in_progress', '[]', 'null'));
  const reasoningId = `rs_${hex(random, 48)}`;
  const messageId = `msg_${hex(random, 48)}`;
  const encrypted = `gAAAAAB${base64Like(random, 600)}`;
  const reasoningItem = (summary: string): string => `{"id":"${reasoningId}","type":"reasoning","encrypted_content":"${encrypted}","summary":[${summary}]}`;
  const messageItem = (status: string, parts: string): string => `{"id":"${messageId}","type":"message","status":"${status}","content":[${parts}],"role":"assistant"}`;
  const textPart = (text: string): string => `{"type":"output_text","annotations":[],"logprobs":[],"text":${text}}`;
  const callItems: string[] = [];
  const reasoningText = JSON.stringify(expected.reasoning);
  const text = JSON.stringify(expected.text);
  let reasoningOpen = false;
  let messageOpen = false;
  let callIndex = -1;
  let callItemId = '';
  const closeReasoning = (): void => {
    if (!reasoningOpen) return;
    reasoningOpen = false;
    event('response.reasoning_summary_text.done', `"item_id":"${reasoningId}","output_index":0,"summary_index":0,"text":${reasoningText}`);
    event('response.reasoning_summary_part.done', `"item_id":"${reasoningId}","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":${reasoningText}}`);
    event('response.output_item.done', `"output_index":0,"item":${reasoningItem(`{"type":"summary_text","text":${reasoningText}}`)}`);
  };
  const closeMessage = (): void => {
    if (!messageOpen) return;
    messageOpen = false;
    event('response.output_text.done', `"item_id":"${messageId}","output_index":1,"content_index":0,"text":${text},"logprobs":[]`);
    event('response.content_part.done', `"item_id":"${messageId}","output_index":1,"content_index":0,"part":${textPart(text)}`);
    event('response.output_item.done', `"output_index":1,"item":${messageItem('completed', textPart(text))}`);
  };
  const closeCall = (): void => {
    if (callIndex < 0) return;
    const call = expected.toolCalls[callIndex];
    const args = JSON.stringify(call.arguments);
    event('response.function_call_arguments.done', `"item_id":"${callItemId}","output_index":${2 + callIndex},"arguments":${args}`);
    const item = `{"id":"${callItemId}","type":"function_call","status":"completed","arguments":${args},"call_id":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)}}`;
    event('response.output_item.done', `"output_index":${2 + callIndex},"item":${item}`);
    callItems.push(item);
  };
  for (const step of content.steps) {
    switch (step.type) {
      case 'thinking':
        if (!reasoningOpen) {
          reasoningOpen = true;
          event('response.output_item.added', `"output_index":0,"item":${reasoningItem('')}`);
          event('response.reasoning_summary_part.added', `"item_id":"${reasoningId}","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}`);
        }
        event('response.reasoning_summary_text.delta', `"item_id":"${reasoningId}","output_index":0,"summary_index":0,"delta":${JSON.stringify(step.text)}`);
        break;
      case 'text':
        if (!messageOpen) {
          closeReasoning();
          messageOpen = true;
          event('response.output_item.added', `"output_index":1,"item":${messageItem('in_progress', '')}`);
          event('response.content_part.added', `"item_id":"${messageId}","output_index":1,"content_index":0,"part":${textPart('""')}`);
        }
        event('response.output_text.delta', `"item_id":"${messageId}","output_index":1,"content_index":0,"delta":${JSON.stringify(step.text)},"logprobs":[]`);
        break;
      case 'tool-delta':
        if (callIndex !== step.index) {
          closeMessage();
          closeCall();
          callIndex = step.index;
          callItemId = `fc_${hex(random, 48)}`;
          event(
            'response.output_item.added',
            `"output_index":${2 + step.index},"item":{"id":"${callItemId}","type":"function_call","status":"in_progress","arguments":"","call_id":${JSON.stringify(step.id)},"name":${JSON.stringify(step.name)}}`,
          );
        }
        event('response.function_call_arguments.delta', `"item_id":"${callItemId}","output_index":${2 + step.index},"delta":${JSON.stringify(step.partialArguments)}`);
        break;
      case 'signature':
      case 'tool-complete':
        break;
    }
  }
  closeReasoning();
  closeMessage();
  closeCall();
  const reasoningTokens = content.steps.filter((s) => s.type === 'thinking').length;
  const output = `[${reasoningItem(`{"type":"summary_text","text":${reasoningText}}`)},${messageItem('completed', textPart(text))},${callItems.join(',')}]`;
  const usage = JSON.stringify({
    input_tokens: expected.inputTokens,
    input_tokens_details: { cached_tokens: Math.floor(random() * 256) },
    output_tokens: expected.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: expected.inputTokens + expected.outputTokens,
  });
  event('response.completed', response('completed', output, usage));
}

function base64Like(random: () => number, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * 64)];
  return out;
}
