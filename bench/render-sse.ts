import type { Content } from './transcript-content';

/** Collects rendered frames into a few large Buffers (no single giant string). */
export class ByteSink {
  private readonly buffers: Buffer[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  frames = 0;

  /** Adds one frame's text. */
  frame(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    this.frames++;
    if (this.pendingLength > 1 << 20) this.flushPending();
  }

  private flushPending(): void {
    this.buffers.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingLength = 0;
  }

  /** The UTF-8 bytes of every frame so far. */
  bytes(): Buffer {
    this.flushPending();
    return Buffer.concat(this.buffers);
  }
}

/** Renders content as an OpenAI Chat Completions SSE body (DeepSeek-style `reasoning_content`, usage chunk, `[DONE]`). */
export function renderOpenAiChat(content: Content, random: () => number, sink: ByteSink): void {
  const { expected } = content;
  const created = 1764664568;
  const head = `data: {"id":${JSON.stringify(expected.id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(expected.model)},"system_fingerprint":"fp_eaab8d114b_prod0820_fp8_kvcache","choices":[{"index":0,"delta":`;
  const tail = ',"logprobs":null,"finish_reason":null}],"usage":null}\n\n';
  sink.frame(`${head}{"role":"assistant","content":null,"reasoning_content":""}${tail}`);
  let toolIndex = -1;
  for (const step of content.steps) {
    switch (step.type) {
      case 'thinking':
        sink.frame(`${head}{"content":null,"reasoning_content":${JSON.stringify(step.text)}}${tail}`);
        break;
      case 'text':
        sink.frame(`${head}{"content":${JSON.stringify(step.text)},"reasoning_content":null}${tail}`);
        break;
      case 'tool-delta':
        // The first fragment of a call carries its id and name, as OpenAI sends them.
        if (toolIndex !== step.index) {
          toolIndex = step.index;
          sink.frame(`${head}{"tool_calls":[{"index":${step.index},"id":${JSON.stringify(step.id)},"type":"function","function":{"name":${JSON.stringify(step.name)},"arguments":""}}]}${tail}`);
        }
        sink.frame(`${head}{"tool_calls":[{"index":${step.index},"function":{"arguments":${JSON.stringify(step.partialArguments)}}}]}${tail}`);
        break;
      case 'signature':
      case 'tool-complete':
        break;
    }
  }
  const reasoningTokens = content.steps.filter((s) => s.type === 'thinking').length;
  sink.frame(`${head}{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}\n\n`);
  const usage = {
    prompt_tokens: expected.inputTokens,
    completion_tokens: expected.outputTokens,
    total_tokens: expected.inputTokens + expected.outputTokens,
    prompt_tokens_details: { cached_tokens: Math.floor(random() * 256) },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
  sink.frame(
    `data: {"id":${JSON.stringify(expected.id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(expected.model)},"system_fingerprint":"fp_eaab8d114b_prod0820_fp8_kvcache","choices":[],"usage":${JSON.stringify(usage)}}\n\n`,
  );
  sink.frame('data: [DONE]\n\n');
}

/** Renders content as an Anthropic Messages SSE body (thinking block with signature, text, tool_use blocks, pings, usage). */
export function renderAnthropic(content: Content, random: () => number, sink: ByteSink): void {
  const { expected } = content;
  const event = (type: string, data: string): void => sink.frame(`event: ${type}\ndata: ${data}\n\n`);
  const maybePing = (): void => {
    if (random() < 0.01) event('ping', '{"type":"ping"}');
  };
  event(
    'message_start',
    JSON.stringify({
      type: 'message_start',
      message: {
        model: expected.model,
        id: expected.id,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: expected.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: 2,
          service_tier: 'standard',
        },
      },
    }),
  );
  let block = -1;
  let open: string | null = null;
  const start = (kind: string, contentBlock: string): void => {
    if (open !== null) event('content_block_stop', `{"type":"content_block_stop","index":${block}}`);
    block++;
    open = kind;
    event('content_block_start', `{"type":"content_block_start","index":${block},"content_block":${contentBlock}}`);
    event('ping', '{"type":"ping"}');
  };
  const delta = (body: string): void => {
    event('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":${body}}`);
    maybePing();
  };
  let toolIndex = -1;
  for (const step of content.steps) {
    switch (step.type) {
      case 'thinking':
        if (open !== 'thinking') start('thinking', '{"type":"thinking","thinking":"","signature":""}');
        delta(`{"type":"thinking_delta","thinking":${JSON.stringify(step.text)}}`);
        break;
      case 'signature':
        delta(`{"type":"signature_delta","signature":${JSON.stringify(step.signature)}}`);
        break;
      case 'text':
        if (open !== 'text') start('text', '{"type":"text","text":""}');
        delta(`{"type":"text_delta","text":${JSON.stringify(step.text)}}`);
        break;
      case 'tool-delta':
        if (toolIndex !== step.index) {
          toolIndex = step.index;
          start('tool', `{"type":"tool_use","id":${JSON.stringify(step.id)},"name":${JSON.stringify(step.name)},"input":{}}`);
          delta('{"type":"input_json_delta","partial_json":""}');
        }
        delta(`{"type":"input_json_delta","partial_json":${JSON.stringify(step.partialArguments)}}`);
        break;
      case 'tool-complete':
        break;
    }
  }
  event('content_block_stop', `{"type":"content_block_stop","index":${block}}`);
  event(
    'message_delta',
    JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: expected.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: expected.outputTokens },
    }),
  );
  event('message_stop', '{"type":"message_stop"}');
}

/**
 * Renders content as a Gemini `streamGenerateContent?alt=sse` body: one chunk per delta, thought
 * parts (`thought: true`) then text parts, the thought signature on the first text part and on the
 * first functionCall, the three functionCalls (with ids and whole `args`) in one chunk, usageMetadata
 * on every chunk, and finishReason STOP with the final counts.
 */
export function renderGemini(content: Content, _random: () => number, sink: ByteSink): void {
  const { expected } = content;
  const tail = `,"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":${expected.inputTokens},"totalTokenCount":${expected.inputTokens},"promptTokensDetails":[{"modality":"TEXT","tokenCount":${expected.inputTokens}}]},"modelVersion":${JSON.stringify(expected.model)},"responseId":${JSON.stringify(expected.id)}}\n\n`;
  const chunk = (parts: string): void => sink.frame(`data: {"candidates":[{"content":{"parts":[${parts}]${tail}`);
  const signature = JSON.stringify(expected.signature ?? '');
  let signed = false;
  const calls: string[] = [];
  for (const step of content.steps) {
    switch (step.type) {
      case 'thinking':
        chunk(`{"text":${JSON.stringify(step.text)},"thought":true}`);
        break;
      case 'text':
        if (!signed) {
          signed = true;
          chunk(`{"text":${JSON.stringify(step.text)},"thoughtSignature":${signature}}`);
        } else chunk(`{"text":${JSON.stringify(step.text)}}`);
        break;
      case 'tool-delta':
        calls.push(
          `{"functionCall":{"id":${JSON.stringify(step.id)},"name":${JSON.stringify(step.name)},"args":${step.partialArguments}}${calls.length === 0 ? `,"thoughtSignature":${signature}` : ''}}`,
        );
        break;
      case 'signature':
      case 'tool-complete':
        break;
    }
  }
  chunk(calls.join(','));
  const thoughts = content.steps.filter((s) => s.type === 'thinking').length;
  const usage = JSON.stringify({
    promptTokenCount: expected.inputTokens,
    candidatesTokenCount: expected.outputTokens - thoughts,
    totalTokenCount: expected.inputTokens + expected.outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: expected.inputTokens }],
    thoughtsTokenCount: thoughts,
  });
  sink.frame(
    `data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":${usage},"modelVersion":${JSON.stringify(expected.model)},"responseId":${JSON.stringify(expected.id)}}\n\n`,
  );
}

/**
 * Renders content as an Ollama `/api/chat` NDJSON body: a line per delta (`message.thinking`, then
 * `message.content`), one line with the three `tool_calls` (ids, whole `arguments` objects), and
 * the done line with its durations and token counts.
 */
export function renderOllama(content: Content, random: () => number, sink: ByteSink): void {
  const { expected } = content;
  const model = JSON.stringify(expected.model);
  let micros = 0;
  // created_at moves a few hundred microseconds a line, as a local model's tokens do.
  const line = (message: string, rest = '"done":false'): void => {
    micros += 200 + Math.floor(random() * 800);
    const seconds = 19 + Math.floor(micros / 1e6);
    const created = `2025-07-07T20:22:${String(seconds % 60).padStart(2, '0')}.${String(micros % 1e6).padStart(6, '0')}Z`;
    sink.frame(`{"model":${model},"created_at":"${created}","message":{"role":"assistant",${message}},${rest}}\n`);
  };
  const calls: string[] = [];
  for (const step of content.steps) {
    switch (step.type) {
      case 'thinking':
        line(`"content":"","thinking":${JSON.stringify(step.text)}`);
        break;
      case 'text':
        line(`"content":${JSON.stringify(step.text)}`);
        break;
      case 'tool-delta':
        calls.push(`{"id":${JSON.stringify(step.id)},"function":{"index":${step.index},"name":${JSON.stringify(step.name)},"arguments":${step.partialArguments}}}`);
        break;
      case 'signature':
      case 'tool-complete':
        break;
    }
  }
  line(`"content":"","tool_calls":[${calls.join(',')}]`);
  const evalDuration = 10_000_000 + Math.floor(random() * 1e9);
  line(
    '"content":""',
    `"done_reason":"stop","done":true,"total_duration":${evalDuration + 60_000_000},"load_duration":41295167,"prompt_eval_count":${expected.inputTokens},"prompt_eval_duration":24573166,"eval_count":${expected.outputTokens},"eval_duration":${evalDuration}`,
  );
}
