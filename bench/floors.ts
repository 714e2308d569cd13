import { createParser } from 'eventsource-parser';
import type { BenchFormat } from './generate-transcript';

/** The strings a floor pulls out of a stream: what the final message's views must equal. */
export interface Extracted {
  readonly text: string;
  readonly reasoning: string;
  readonly arguments: readonly string[];
}

interface SseParser {
  feed(chunk: string): void;
}

function sseParser(onData: (data: string) => void): SseParser {
  return createParser({ onEvent: (message) => onData(message.data) });
}

// Only the fields the floors read; the frames hold many more.
interface ChatChunk {
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      readonly reasoning_content?: string | null;
      readonly tool_calls?: readonly { readonly index: number; readonly function?: { readonly arguments?: string } }[];
    };
  }[];
}

interface AnthropicEvent {
  readonly type: string;
  readonly index?: number;
  readonly content_block?: { readonly type: string };
  readonly delta?: { readonly type: string; readonly text?: string; readonly thinking?: string; readonly partial_json?: string };
}

interface ResponsesEvent {
  readonly type: string;
  readonly output_index?: number;
  readonly delta?: string;
  readonly item?: { readonly type: string };
}

interface GeminiChunk {
  readonly candidates?: readonly {
    readonly content?: {
      readonly parts?: readonly { readonly text?: string; readonly thought?: boolean; readonly functionCall?: { readonly args?: unknown } }[];
    };
  }[];
}

interface OllamaLine {
  readonly message?: {
    readonly content?: string;
    readonly thinking?: string;
    readonly tool_calls?: readonly { readonly function?: { readonly arguments?: unknown } }[];
  };
}

/** Collects the delta strings of one format's parsed frames into arrays; `result` joins them once. */
class DeltaCollector {
  private readonly text: string[] = [];
  private readonly reasoning: string[] = [];
  private readonly args: string[][] = [];
  /** Anthropic: the tool call number of each tool_use content block index (Responses: of each output index). */
  private readonly toolOfBlock: number[] = [];

  chat(data: string): void {
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data) as ChatChunk;
    const delta = chunk.choices?.[0]?.delta;
    if (delta === undefined) return;
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') this.reasoning.push(delta.reasoning_content);
    if (typeof delta.content === 'string' && delta.content !== '') this.text.push(delta.content);
    const calls = delta.tool_calls;
    if (calls !== undefined) {
      for (const call of calls) {
        const fragment = call.function?.arguments;
        if (typeof fragment === 'string' && fragment !== '') (this.args[call.index] ??= []).push(fragment);
      }
    }
  }

  anthropic(data: string): void {
    const event = JSON.parse(data) as AnthropicEvent;
    if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
      this.toolOfBlock[event.index ?? 0] = this.args.length;
      this.args.push([]);
      return;
    }
    if (event.type !== 'content_block_delta' || event.delta === undefined) return;
    const delta = event.delta;
    switch (delta.type) {
      case 'text_delta':
        if (delta.text) this.text.push(delta.text);
        break;
      case 'thinking_delta':
        if (delta.thinking) this.reasoning.push(delta.thinking);
        break;
      case 'input_json_delta':
        if (delta.partial_json) this.args[this.toolOfBlock[event.index ?? 0]].push(delta.partial_json);
        break;
      default:
        break;
    }
  }

  responses(data: string): void {
    const event = JSON.parse(data) as ResponsesEvent;
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item?.type === 'function_call') {
          this.toolOfBlock[event.output_index ?? 0] = this.args.length;
          this.args.push([]);
        }
        break;
      case 'response.reasoning_summary_text.delta':
        if (event.delta) this.reasoning.push(event.delta);
        break;
      case 'response.output_text.delta':
        if (event.delta) this.text.push(event.delta);
        break;
      case 'response.function_call_arguments.delta':
        if (event.delta) this.args[this.toolOfBlock[event.output_index ?? 0]].push(event.delta);
        break;
      default:
        break;
    }
  }

  gemini(data: string): void {
    const chunk = JSON.parse(data) as GeminiChunk;
    const parts = chunk.candidates?.[0]?.content?.parts;
    if (parts === undefined) return;
    for (const part of parts) {
      if (part.functionCall !== undefined) {
        // Arguments arrive as an object: the one serialization any consumer needs to hand them on.
        this.args.push([JSON.stringify(part.functionCall.args ?? {})]);
      } else if (part.text) {
        (part.thought === true ? this.reasoning : this.text).push(part.text);
      }
    }
  }

  ollama(line: string): void {
    const message = (JSON.parse(line) as OllamaLine).message;
    if (message === undefined) return;
    if (message.thinking) this.reasoning.push(message.thinking);
    if (message.content) this.text.push(message.content);
    const calls = message.tool_calls;
    if (calls !== undefined) for (const call of calls) this.args.push([JSON.stringify(call.function?.arguments ?? {})]);
  }

  result(): Extracted {
    return { text: this.text.join(''), reasoning: this.reasoning.join(''), arguments: this.args.map((pieces) => pieces.join('')) };
  }

  /** Every delta string collected so far (text, reasoning, then each call's fragments). */
  deltas(): string[] {
    return [...this.text, ...this.reasoning, ...this.args.flat()];
  }
}

function sseHandler(format: Exclude<BenchFormat, 'ollama'>, collector: DeltaCollector): (data: string) => void {
  switch (format) {
    case 'openai-chat':
      return (data) => collector.chat(data);
    case 'anthropic':
      return (data) => collector.anthropic(data);
    case 'openai-responses':
      return (data) => collector.responses(data);
    case 'gemini':
      return (data) => collector.gemini(data);
  }
}

/**
 * Calls `onLine` with each newline-terminated line of a streamed body (and a final unterminated
 * one), decoding UTF-8 in streaming mode; only the unfinished line is carried to the next chunk.
 */
async function forEachLine(source: AsyncIterable<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let carry = '';
  const feed = (text: string): void => {
    const lines = (carry + text).split('\n');
    carry = lines.pop() ?? '';
    for (const line of lines) if (line !== '') onLine(line);
  };
  for await (const chunk of source) feed(decoder.decode(chunk, { stream: true }));
  feed(decoder.decode());
  if (carry !== '') onLine(carry);
}

/**
 * The parse floor (Ollama: NDJSON lines instead of SSE): streaming `TextDecoder` + an SSE parser + `JSON.parse` of every frame + the
 * delta strings pushed into arrays and joined once at the end.
 */
export async function parseFloor(format: BenchFormat, source: AsyncIterable<Uint8Array>): Promise<Extracted> {
  return (await collect(format, source)).result();
}

async function collect(format: BenchFormat, source: AsyncIterable<Uint8Array>): Promise<DeltaCollector> {
  const collector = new DeltaCollector();
  if (format === 'ollama') {
    await forEachLine(source, (line) => collector.ollama(line));
    return collector;
  }
  const parser = sseParser(sseHandler(format, collector));
  const decoder = new TextDecoder();
  for await (const chunk of source) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return collector;
}

/** The delta strings the parse floor pulls out of `bytes` (a whole stream or a prefix of one ending at a frame's end). */
export async function floorDeltas(format: BenchFormat, bytes: Uint8Array): Promise<string[]> {
  const source = {
    [Symbol.asyncIterator]: async function* () {
      yield bytes;
    },
  };
  return (await collect(format, source)).deltas();
}

/**
 * The bytes-only floor: streaming `TextDecoder` + eventsource-parser (Ollama: the newline split),
 * no `JSON.parse`. Returns the total data length.
 */
export async function bytesOnlyFloor(source: AsyncIterable<Uint8Array>, format?: BenchFormat): Promise<number> {
  let length = 0;
  if (format === 'ollama') {
    await forEachLine(source, (line) => {
      length += line.length;
    });
    return length;
  }
  const parser = createParser({
    onEvent: (message) => {
      length += message.data.length;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of source) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return length;
}
