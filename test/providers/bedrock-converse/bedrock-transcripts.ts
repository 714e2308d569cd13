import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import type { WireMessage } from './bedrock-event-stream';

// partstream's own Bedrock ConverseStream transcripts: the messages of each (written to binary by
// `encodeBedrockStream`, which pads every event payload with `p` as Bedrock does) and what the
// final message must be, derived by hand from the messages as literals.

/** What a transcript must end in. */
export interface BedrockExpected {
  readonly parts: readonly unknown[];
  readonly text?: string | null;
  readonly thinking?: string | null;
  readonly finishReason?: FinishReason | null;
  readonly providerFinishReason?: string | null;
  readonly tokenUsage?: TokenUsage | null;
  readonly providerMetadata?: Readonly<Record<string, unknown>> | null;
  /** For a stream that fails: its error's kind, code and message. */
  readonly error?: { readonly kind: string; readonly code: string | undefined; readonly message: string };
}

/** One transcript. */
export interface BedrockTranscript {
  readonly name: string;
  readonly messages: readonly WireMessage[];
  readonly expected: BedrockExpected;
}

export const start: WireMessage = { event: 'messageStart', payload: { role: 'assistant' } };
export function delta(index: number, value: Record<string, unknown>): WireMessage {
  return { event: 'contentBlockDelta', payload: { contentBlockIndex: index, delta: value } };
}
export function blockStart(index: number, value: Record<string, unknown>): WireMessage {
  return { event: 'contentBlockStart', payload: { contentBlockIndex: index, start: value } };
}
export function blockStop(index: number): WireMessage {
  return { event: 'contentBlockStop', payload: { contentBlockIndex: index } };
}
export function text(index: number, value: string): WireMessage {
  return delta(index, { text: value });
}
export function input(index: number, value: string): WireMessage {
  return delta(index, { toolUse: { input: value } });
}
export function reasoning(index: number, value: Record<string, unknown>): WireMessage {
  return delta(index, { reasoningContent: value });
}
export function stop(stopReason: string, extra: Record<string, unknown> = {}): WireMessage {
  return { event: 'messageStop', payload: { stopReason, ...extra } };
}
export function metadata(usage: Record<string, unknown>, latencyMs = 321): WireMessage {
  return { event: 'metadata', payload: { usage, metrics: { latencyMs } } };
}

const USAGE = { inputTokens: 12, outputTokens: 4, totalTokens: 16 };
/** `USAGE` as `TokenUsage`: no cached tokens reported, so those details are null. */
const TOKEN_USAGE: TokenUsage = { inputTokenCount: 12, outputTokenCount: 4, totalTokenCount: 16, cacheReadInputTokenCount: null, cacheWriteInputTokenCount: null, reasoningTokenCount: null };

const none = { payload: null, attributes: {} };
export function textJson(value: string, payload: unknown = null): unknown {
  return { type: 'text', text: value, payload, attributes: {} };
}
export function reasoningJson(value: string | null, payload: unknown = null): unknown {
  return { type: 'reasoning', text: value, summary: null, payload, attributes: {} };
}
export function toolJson(id: string | null, name: string | null, args: string, attributes: Record<string, string> = {}): unknown {
  return { type: 'tool_call', toolCall: { id, type: 'function', name, arguments: args }, payload: null, attributes };
}
export function unknownJson(kind: string, rawJson: string): unknown {
  return { type: 'unknown', provider: 'bedrock', kind, rawJson, ...none };
}

/** The long base64 of a redacted reasoning block (Bedrock's base64 of Anthropic's own base64 data). */
const REDACTED_1 = 'RXRrRUNrZ0lCeEFCR0FJcVFK';
const REDACTED_2 = 'RXFBRENrZ0lCeEFCR0FJcVFC';

export const TRANSCRIPTS: readonly BedrockTranscript[] = [
  {
    name: 'text',
    messages: [start, text(0, 'Hello'), text(0, ', world'), blockStop(0), stop('end_turn'), metadata(USAGE)],
    expected: {
      parts: [textJson('Hello, world')],
      text: 'Hello, world',
      thinking: null,
      finishReason: 'STOP',
      providerFinishReason: 'end_turn',
      tokenUsage: TOKEN_USAGE,
      providerMetadata: { metrics: { latencyMs: 321 } },
    },
  },
  {
    name: 'tool use with its input streamed in three pieces, after text',
    messages: [
      start,
      text(0, 'Checking.'),
      blockStop(0),
      blockStart(1, { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } }),
      input(1, '{"city"'),
      input(1, ':"Par'),
      input(1, 'is"}'),
      blockStop(1),
      stop('tool_use'),
      metadata(USAGE),
    ],
    expected: {
      parts: [textJson('Checking.'), toolJson('tooluse_1', 'get_weather', '{"city":"Paris"}')],
      text: 'Checking.',
      finishReason: 'TOOL_EXECUTION',
      providerFinishReason: 'tool_use',
      tokenUsage: TOKEN_USAGE,
    },
  },
  {
    name: 'two tool calls, one without input, numbered 0 and 1',
    messages: [
      start,
      blockStart(0, { toolUse: { toolUseId: 'a', name: 'now' } }),
      blockStop(0),
      blockStart(1, { toolUse: { toolUseId: 'b', name: 'add' } }),
      input(1, '{"x":1,"y":2}'),
      blockStop(1),
      stop('tool_use'),
      metadata(USAGE),
    ],
    expected: {
      parts: [toolJson('a', 'now', '{}'), toolJson('b', 'add', '{"x":1,"y":2}')],
      text: null,
      finishReason: 'TOOL_EXECUTION',
    },
  },
  {
    name: 'reasoning with its signature, then text; cache reads and writes counted as input',
    messages: [
      start,
      reasoning(0, { text: 'The user' }),
      reasoning(0, { text: ' greets.' }),
      reasoning(0, { signature: 'EqQBCkYIBxgCKkDsig==' }),
      blockStop(0),
      text(1, 'Hi!'),
      blockStop(1),
      stop('end_turn'),
      metadata({ inputTokens: 10, outputTokens: 30, totalTokens: 160, cacheReadInputTokens: 100, cacheWriteInputTokens: 20 }),
    ],
    expected: {
      parts: [reasoningJson('The user greets.', { provider: 'bedrock', kind: 'signature', data: 'EqQBCkYIBxgCKkDsig==' }), textJson('Hi!')],
      text: 'Hi!',
      thinking: 'The user greets.',
      finishReason: 'STOP',
      // input = 10 + 100 + 20; total as sent.
      tokenUsage: { inputTokenCount: 130, outputTokenCount: 30, totalTokenCount: 160, cacheReadInputTokenCount: 100, cacheWriteInputTokenCount: 20, reasoningTokenCount: null },
    },
  },
  {
    name: 'two redacted reasoning blocks, each its own part with its base64 content, then text',
    messages: [
      start,
      reasoning(0, { redactedContent: REDACTED_1 }),
      blockStop(0),
      reasoning(1, { redactedContent: REDACTED_2 }),
      blockStop(1),
      text(2, 'Sure.'),
      blockStop(2),
      stop('end_turn'),
      metadata(USAGE),
    ],
    expected: {
      parts: [
        // A reasoning part that streamed no text has text null (SPEC §3).
        reasoningJson(null, { provider: 'bedrock', kind: 'redacted_content', data: REDACTED_1 }),
        reasoningJson(null, { provider: 'bedrock', kind: 'redacted_content', data: REDACTED_2 }),
        textJson('Sure.'),
      ],
      text: 'Sure.',
      finishReason: 'STOP',
    },
  },
  {
    name: 'a citation that arrives before the text of its block rides on the text part',
    messages: [
      start,
      delta(0, { citation: { title: 'Doc 1', sourceContent: [{ text: 'Thirty days.' }], location: { documentChar: { documentIndex: 0, start: 0, end: 12 } } } }),
      text(0, 'Returns: '),
      text(0, 'thirty days.'),
      blockStop(0),
      stop('end_turn'),
      metadata(USAGE),
    ],
    expected: {
      parts: [
        textJson('Returns: thirty days.', {
          provider: 'bedrock',
          kind: 'citations',
          data: '[{"title":"Doc 1","sourceContent":[{"text":"Thirty days."}],"location":{"documentChar":{"documentIndex":0,"start":0,"end":12}}}]',
        }),
      ],
      text: 'Returns: thirty days.',
      finishReason: 'STOP',
    },
  },
  {
    name: 'a server tool use, its result block and an unknown block kind are kept as unknown parts in stream order',
    messages: [
      start,
      blockStart(0, { toolUse: { toolUseId: 'srv_1', name: 'nova_code_interpreter', type: 'server_tool_use' } }),
      input(0, '{"snippet":'),
      input(0, '"6*7"}'),
      blockStop(0),
      blockStart(1, { toolResult: { toolUseId: 'srv_1', status: 'success', type: 'nova_code_interpreter_result' } }),
      delta(1, { toolResult: [{ json: { stdOut: '42' } }] }),
      delta(1, { toolResult: [{ text: 'done' }] }),
      blockStop(1),
      delta(2, { futureKind: { note: 'a', n: 1 } }),
      delta(2, { futureKind: { note: 'b', n: 2 } }),
      blockStop(2),
      text(3, '42'),
      blockStop(3),
      stop('end_turn'),
      metadata(USAGE),
    ],
    expected: {
      parts: [
        unknownJson('toolUse', '{"toolUse":{"toolUseId":"srv_1","name":"nova_code_interpreter","type":"server_tool_use","input":{"snippet":"6*7"}}}'),
        unknownJson('toolResult', '{"toolResult":{"toolUseId":"srv_1","status":"success","type":"nova_code_interpreter_result","content":[{"json":{"stdOut":"42"}},{"text":"done"}]}}'),
        unknownJson('futureKind', '{"futureKind":{"note":"ab","n":2}}'),
        textJson('42'),
      ],
      text: '42',
      // No client tool call: a plain stop.
      finishReason: 'STOP',
    },
  },
  {
    name: 'additionalModelResponseFields of messageStop and the metrics of metadata are provider metadata',
    messages: [start, text(0, 'ok'), blockStop(0), stop('end_turn', { additionalModelResponseFields: { stop_sequence: null } }), metadata(USAGE, 77)],
    expected: {
      parts: [textJson('ok')],
      providerMetadata: { additionalModelResponseFields: { stop_sequence: null }, metrics: { latencyMs: 77 } },
    },
  },
  {
    name: 'messageStop without metadata: complete, without usage',
    messages: [start, text(0, 'ok'), blockStop(0), stop('end_turn')],
    expected: { parts: [textJson('ok')], finishReason: 'STOP', providerFinishReason: 'end_turn', tokenUsage: null, providerMetadata: null },
  },
  {
    name: 'a stream that ends before messageStop is truncated',
    messages: [start, text(0, 'Hal'), text(0, 'f')],
    expected: { parts: [textJson('Half')], error: { kind: 'truncated', code: undefined, message: 'The stream ended before messageStop' } },
  },
  {
    name: 'max_tokens with a tool call still open: LENGTH, the call kept incomplete',
    messages: [start, text(0, 'Let me'), blockStop(0), blockStart(1, { toolUse: { toolUseId: 'cut', name: 'search' } }), input(1, '{"q":"par'), stop('max_tokens'), metadata(USAGE)],
    expected: {
      parts: [textJson('Let me'), toolJson('cut', 'search', '{"q":"par', { incomplete: 'true' })],
      finishReason: 'LENGTH',
      providerFinishReason: 'max_tokens',
    },
  },
  ...(
    [
      ['end_turn', 'STOP'],
      ['stop_sequence', 'STOP'],
      ['max_tokens', 'LENGTH'],
      ['model_context_window_exceeded', 'LENGTH'],
      ['guardrail_intervened', 'CONTENT_FILTER'],
      ['content_filtered', 'CONTENT_FILTER'],
      ['malformed_model_output', 'OTHER'],
      ['malformed_tool_use', 'OTHER'],
      // A tool-use stop without a completed call has no call to run.
      ['tool_use', 'OTHER'],
    ] as const
  ).map(([reason, finishReason]): BedrockTranscript => ({
    name: `stop reason ${reason}`,
    messages: [start, text(0, 'x'), blockStop(0), stop(reason), metadata(USAGE)],
    expected: { parts: [textJson('x')], finishReason, providerFinishReason: reason },
  })),
  ...(
    [
      ['throttlingException', 'Too many requests, please wait before trying again.'],
      ['modelStreamErrorException', 'The model stream failed.'],
      ['validationException', 'The input is invalid.'],
      ['serviceUnavailableException', 'The service is unavailable.'],
      ['internalServerException', 'An internal error occurred.'],
    ] as const
  ).map(([type, message]): BedrockTranscript => ({
    name: `exception ${type} after some text`,
    messages: [start, text(0, 'partial'), { exception: type, payload: { message } }],
    expected: { parts: [textJson('partial')], error: { kind: 'provider', code: type, message } },
  })),
  {
    name: 'an error message (:message-type error) is a provider error with its :error-code',
    messages: [start, { error: 'InternalFailure', message: 'Something broke.' }],
    expected: { parts: [], error: { kind: 'provider', code: 'InternalFailure', message: 'Something broke.' } },
  },
];
