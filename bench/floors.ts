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

/** Collects the delta strings of one format's parsed frames into arrays; `result` joins them once. */
class DeltaCollector {
  private readonly text: string[] = [];
  private readonly reasoning: string[] = [];
  private readonly args: string[][] = [];
  /** Anthropic: the tool call number of each tool_use content block index. */
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

  result(): Extracted {
    return { text: this.text.join(''), reasoning: this.reasoning.join(''), arguments: this.args.map((pieces) => pieces.join('')) };
  }
}

/**
 * The parse floor: streaming `TextDecoder` + an SSE parser + `JSON.parse` of every frame + the
 * delta strings pushed into arrays and joined once at the end.
 */
export async function parseFloor(format: BenchFormat, source: AsyncIterable<Uint8Array>): Promise<Extracted> {
  const collector = new DeltaCollector();
  const parser = sseParser(format === 'openai-chat' ? (data) => collector.chat(data) : (data) => collector.anthropic(data));
  const decoder = new TextDecoder();
  for await (const chunk of source) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return collector.result();
}

/** The bytes-only floor: streaming `TextDecoder` + eventsource-parser, no `JSON.parse`. Returns the total data length. */
export async function bytesOnlyFloor(source: AsyncIterable<Uint8Array>): Promise<number> {
  let length = 0;
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
