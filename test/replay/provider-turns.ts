import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { referenceSseFrames } from '../providers/shared/fixture-support';

// The provider's own representation of a streamed assistant turn, read straight from the wire
// (eventsource-parser for SSE, one JSON per line for NDJSON; nothing of partstream's), and the
// same skeleton read from a replay request: blocks or items in order, payloads as sent, arguments
// as JSON values. Text is compared run by run where the provider streams it in pieces.

type Json = Record<string, unknown>;
/** One block or item of a turn: its kind first, then what identifies it. */
export type Entry = readonly unknown[];

const parseArgs = (text: string): unknown => (text.trim() === '' ? {} : JSON.parse(text));
const events = (bytes: Uint8Array): Json[] =>
  referenceSseFrames(bytes)
    .filter((f) => f.data !== '[DONE]' && f.data.trim().startsWith('{'))
    .map((f) => JSON.parse(f.data) as Json);

// ── Anthropic: content blocks rebuilt from their start, deltas and stop ─────────────────────────

function anthropicWire(bytes: Uint8Array): Entry[] {
  const open = new Map<number, { block: Json; json: string }>();
  const done: Json[] = [];
  for (const e of events(bytes)) {
    const index = e.index as number;
    if (e.type === 'content_block_start') open.set(index, { block: { ...(e.content_block as Json) }, json: '' });
    const slot = open.get(index);
    if (e.type === 'content_block_delta' && slot !== undefined) {
      const d = e.delta as Json;
      if (d.type === 'text_delta') slot.block.text = String(slot.block.text ?? '') + String(d.text);
      if (d.type === 'thinking_delta') slot.block.thinking = String(slot.block.thinking ?? '') + String(d.thinking);
      if (d.type === 'signature_delta') slot.block.signature = d.signature;
      if (d.type === 'input_json_delta') slot.json += String(d.partial_json);
      if (d.type === 'compaction_delta') slot.block.content = String(slot.block.content ?? '') + String(d.content);
      if (d.type === 'citations_delta') slot.block.citations = [...((slot.block.citations as unknown[] | null) ?? []), d.citation];
    }
    if (e.type === 'content_block_stop' && slot !== undefined) {
      if (slot.json !== '' || slot.block.type === 'tool_use') slot.block.input = parseArgs(slot.json);
      done.push(slot.block);
      open.delete(index);
    }
  }
  return done.flatMap(anthropicEntry);
}

function anthropicEntry(b: Json): Entry[] {
  switch (b.type) {
    case 'thinking':
      return [['thinking', b.thinking, b.signature]];
    case 'redacted_thinking':
      return [['redacted_thinking', b.data]];
    case 'text': {
      const citations = (b.citations as unknown[] | null | undefined) ?? [];
      return b.text === '' ? [] : [['text', b.text, citations]];
    }
    case 'tool_use':
      return [['tool_use', b.id, b.name, b.input]];
    default:
      // Sent back as it came: compared whole (the wire's block with its streamed input).
      return [['block', b]];
  }
}

// ── OpenAI Responses: the items of output_item.done, in order ──────────────────────────────────

function responsesEntry(item: Json): Entry[] {
  switch (item.type) {
    case 'reasoning': {
      const summary = ((item.summary as Json[] | undefined) ?? []).map((s) => s.text).join('');
      const encrypted = typeof item.encrypted_content === 'string' && item.encrypted_content !== '' ? item.encrypted_content : null;
      // Every reasoning item goes back, an empty one too (by its id): the calls after it need it.
      return [['reasoning', item.id, summary, encrypted]];
    }
    case 'message': {
      const text = ((item.content as Json[] | undefined) ?? []).map((c) => (typeof c.text === 'string' ? c.text : '')).join('');
      return text === '' ? [] : [['message', item.id, text]];
    }
    case 'function_call':
      return [['function_call', item.call_id, item.name, item.arguments]];
    case 'custom_tool_call':
      return [['custom_tool_call', item.call_id, item.name, item.input]];
    case 'image_generation_call':
      return []; // a media part: no input item carries it back
    default:
      return [['item', item]];
  }
}

/**
 * The output items in the order they were added, each replaced by its `output_item.done` when
 * one came; an item never done is rebuilt from its deltas (text, summary, arguments).
 */
function responsesItems(bytes: Uint8Array): Json[] {
  const order: string[] = [];
  const items = new Map<string, Json>();
  const text = (id: string, field: 'text' | 'summary', delta: unknown): void => {
    const item = items.get(id);
    if (item === undefined) return;
    const list = field === 'text' ? 'content' : 'summary';
    const entries = ((item[list] as Json[] | undefined) ?? []).slice();
    if (entries.length === 0) entries.push({ text: '' });
    entries[entries.length - 1] = { ...entries[entries.length - 1], text: String(entries[entries.length - 1]!.text ?? '') + String(delta) };
    items.set(id, { ...item, [list]: entries });
  };
  for (const e of events(bytes)) {
    const item = e.item as Json | undefined;
    if (e.type === 'response.output_item.added' && item !== undefined) {
      order.push(item.id as string);
      items.set(item.id as string, { ...item });
    }
    if (e.type === 'response.output_item.done' && item !== undefined) {
      if (!items.has(item.id as string)) order.push(item.id as string);
      items.set(item.id as string, item);
    }
    const id = e.item_id as string;
    if (e.type === 'response.output_text.delta') text(id, 'text', e.delta);
    if (e.type === 'response.reasoning_summary_text.delta') text(id, 'summary', e.delta);
    if (e.type === 'response.function_call_arguments.done' && items.has(id)) items.set(id, { ...items.get(id), arguments: e.arguments });
  }
  return order.map((id) => items.get(id)!);
}

// ── Gemini: every part of every chunk; text and thought runs joined, signatures kept in order ──

// A function call streamed in pieces (Gemini 3 `partialArgs`): its first part has the name, the
// next ones none; its arguments are the ones the manifest (or our transcript) states, in order.
function geminiEntries(parts: readonly Json[], statedArgs: readonly string[] | null): Entry[] {
  const out: Array<unknown[]> = [];
  let calls = 0;
  for (const p of parts) {
    const signature = typeof p.thoughtSignature === 'string' ? p.thoughtSignature : null;
    if (p.text === '' && signature === null) continue;
    if (typeof p.text === 'string') {
      const kind = p.thought === true ? 'thought' : 'text';
      const last = out[out.length - 1];
      if (last !== undefined && last[0] === kind) {
        last[1] = String(last[1]) + p.text;
        if (signature !== null) (last[2] as string[]).push(signature);
      } else out.push([kind, p.text, signature === null ? [] : [signature]]);
    } else if (p.functionCall !== undefined) {
      const call = p.functionCall as Json;
      const last = out[out.length - 1];
      if (typeof call.name !== 'string' || call.name === '') {
        if (last !== undefined && last[0] === 'call' && last[3] === null) last[3] = signature;
        continue;
      }
      const args = statedArgs === null ? (call.args ?? {}) : parseArgs(statedArgs[calls] ?? '');
      calls += 1;
      out.push(['call', call.name, args, signature]);
    } else if (p.inlineData !== undefined) {
      out.push(['inline', (p.inlineData as Json).mimeType, signature]);
    } else out.push(['part', p]);
  }
  return out;
}

function geminiWire(bytes: Uint8Array, statedArgs: readonly string[]): Entry[] {
  const parts: Json[] = [];
  for (const e of events(bytes)) {
    const candidate = ((e.candidates as Json[] | undefined) ?? [])[0];
    parts.push(...((((candidate?.content as Json | undefined)?.parts as Json[] | undefined) ?? []) as Json[]));
  }
  return withoutUnsignedThoughts(geminiEntries(parts, statedArgs));
}

// What goes back to Gemini leaves out a run of thoughts that carried no thought signature (SPEC
// §12: reasoning without a Gemini payload is not sent); the runs around it then meet, as in the request.
function withoutUnsignedThoughts(entries: Entry[]): Entry[] {
  const out: Array<unknown[]> = [];
  for (const entry of entries) {
    if (entry[0] === 'thought' && (entry[2] as string[]).length === 0) continue;
    const last = out[out.length - 1];
    if (last !== undefined && (entry[0] === 'text' || entry[0] === 'thought') && last[0] === entry[0]) {
      last[1] = String(last[1]) + String(entry[1]);
      (last[2] as string[]).push(...(entry[2] as string[]));
    } else out.push(entry[0] === 'text' || entry[0] === 'thought' ? [entry[0], entry[1], [...(entry[2] as string[])]] : [...entry]);
  }
  return out;
}

// ── OpenAI Chat: the assistant message the deltas of choice 0 add up to ─────────────────────────

function chatWire(bytes: Uint8Array): Entry[] {
  let content = '';
  const details: unknown[] = [];
  const calls = new Map<number, { id: unknown; name: string; args: string }>();
  for (const e of events(bytes)) {
    const choice = ((e.choices as Json[] | undefined) ?? []).find((c) => c.index === 0);
    const delta = choice?.delta as Json | undefined;
    if (delta === undefined) continue;
    if (typeof delta.content === 'string') content += delta.content;
    if (Array.isArray(delta.reasoning_details)) details.push(...delta.reasoning_details);
    for (const tc of (delta.tool_calls as Json[] | undefined) ?? []) {
      const slot = calls.get(tc.index as number) ?? { id: null, name: '', args: '' };
      const fn = (tc.function as Json | undefined) ?? {};
      calls.set(tc.index as number, { id: slot.id ?? tc.id ?? null, name: slot.name + String(fn.name ?? ''), args: slot.args + String(fn.arguments ?? '') });
    }
  }
  const toolCalls = [...calls.values()].map((c) => [c.id, c.name, parseArgs(c.args)]);
  return [['assistant', content === '' ? null : content, toolCalls, details]];
}

// ── Ollama: the message the lines add up to ─────────────────────────────────────────────────────

function ollamaWire(bytes: Uint8Array): Entry[] {
  let content = '';
  let thinking = '';
  const calls: unknown[] = [];
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    if (line.trim() === '') continue;
    const message = (JSON.parse(line) as Json).message as Json | undefined;
    if (message === undefined) continue;
    content += typeof message.content === 'string' ? message.content : '';
    thinking += typeof message.thinking === 'string' ? message.thinking : '';
    for (const tc of (message.tool_calls as Json[] | undefined) ?? []) calls.push([(tc.function as Json).name, (tc.function as Json).arguments ?? {}]);
  }
  return [['assistant', content, thinking === '' ? null : thinking, calls]];
}

/**
 * The provider's own representation of the turn a stream carried; `statedArgs`, the arguments of
 * its tool calls as the manifest or transcript states them, for Gemini's streamed `partialArgs`.
 */
export function wireTurn(format: WireFormat, bytes: Uint8Array, statedArgs: readonly string[]): Entry[] {
  switch (format) {
    case 'anthropic':
      return anthropicWire(bytes);
    case 'openai-responses':
      return responsesItems(bytes).flatMap(responsesEntry);
    case 'gemini':
      return geminiWire(bytes, statedArgs);
    case 'openai-chat':
      return chatWire(bytes);
    case 'ollama':
      return ollamaWire(bytes);
  }
}

/** The same skeleton, read from the assistant turn of a replay request (`turn`: blocks, items, parts or one message). */
export function requestTurn(format: WireFormat, turn: readonly Json[]): Entry[] {
  switch (format) {
    case 'anthropic':
      return turn.flatMap(anthropicEntry);
    case 'openai-responses':
      return turn.flatMap((item) => {
        if (item.type === 'message') return [['message', item.id, (item.content as Json[]).map((c) => c.text).join('')]];
        if (item.type === 'reasoning') return [['reasoning', item.id, (item.summary as Json[]).map((s) => s.text).join(''), item.encrypted_content ?? null]];
        return responsesEntry(item);
      });
    case 'gemini':
      return geminiEntries(turn, null);
    case 'openai-chat': {
      const m = turn[0]!;
      const calls = ((m.tool_calls as Json[] | undefined) ?? []).map((c) => [c.id, (c.function as Json).name, parseArgs((c.function as Json).arguments as string)]);
      return [['assistant', m.content === '' ? null : m.content, calls, (m.reasoning_details as unknown[] | undefined) ?? []]];
    }
    case 'ollama': {
      const m = turn[0]!;
      const calls = ((m.tool_calls as Json[] | undefined) ?? []).map((c) => [(c.function as Json).name, (c.function as Json).arguments]);
      return [['assistant', m.content, m.thinking ?? null, calls]];
    }
  }
}
