import type { ChatResponse, TokenUsage } from '../handler/types';
import { isIncompleteToolCall } from '../parts/incomplete-tool-call';
import type { MessagePart, OpaquePayload } from '../parts/types';
import { escapeControlLine } from './escape-control';
import { oneLine, truncate } from './one-line';
import type { Refusal } from './refusal';

/** How much of a refusal's text the summary shows: all of any real one, not megabytes of a hostile one. */
const REFUSAL_SHOWN = 1000;

/**
 * Describes a response in short lines for the human view: its parts in order (one line each,
 * cut to `width`; a tool call cut off before it completed is marked `INCOMPLETE (cut off)`), usage (with the cache and reasoning counts the provider reported), finish
 * reason, the `refusal` if one is given (its text, or that none came), id and model. Each line
 * has its control and bidi characters escaped
 * (`escapeControlLine`), so none of it can drive a terminal.
 */
export function describeResponse(response: ChatResponse, width: number, refusal: Refusal | null = null): string[] {
  const { aiMessage, metadata } = response;
  const lines = [`parts (${aiMessage.parts.length}):`];
  aiMessage.parts.forEach((part, position) => {
    // Escaped before the cut, so the line keeps to the width; a cut escape is still only printable characters.
    const line = `  ${position + 1}. ${part.type.padEnd(11)}${payloadNote(part.payload)} ${describePart(part, width)}`;
    lines.push(truncate(escapeControlLine(line), width));
  });
  if (aiMessage.parts.length === 0) lines.push('  (none)');
  lines.push(`usage: ${describeUsage(metadata.tokenUsage)}`);
  lines.push(escapeControlLine(`finish reason: ${metadata.finishReason ?? '(none)'}`));
  if (refusal !== null) lines.push(escapeControlLine(`refusal: ${describeRefusal(refusal.text)}`));
  lines.push(escapeControlLine(`id: ${metadata.id ?? '(none)'}   model: ${metadata.modelName ?? '(none)'}`));
  return lines;
}

/** One part's content on one line (its leading characters only for long texts). */
function describePart(part: MessagePart, width: number): string {
  switch (part.type) {
    case 'text':
      return quote(part.text, width);
    case 'reasoning': {
      const summary = part.summary === null ? '' : ` summary ${quote(part.summary, width)}`;
      const text = part.text === null ? '' : quote(part.text, width);
      return `${text}${summary}`.trim();
    }
    case 'tool_call': {
      const call = part.toolCall;
      const id = call.id === null ? '' : ` ${call.id}`;
      // First, so that the cut to the width never hides it: this call is no request to execute.
      const cut = isIncompleteToolCall(part) ? 'INCOMPLETE (cut off) ' : '';
      return `${cut}${call.name ?? '(no name)'}${id} ${oneLine((call.arguments ?? '').slice(0, width))}`;
    }
    case 'tool_result':
      return `${part.name ?? '(no name)'} ${part.id ?? ''} ${part.isError ? 'error, ' : ''}${part.content.length} part(s)`;
    case 'media':
      return `${part.media.mimeType} (${part.media.dataKind})`;
    case 'unknown':
      return `${part.provider}/${part.kind} ${oneLine(part.rawJson.slice(0, width))}`;
    default:
      return assertNever(part);
  }
}

function describeRefusal(text: string | null): string {
  if (text === null) return '(no text given)';
  const more = text.length > REFUSAL_SHOWN ? `… (${text.length} characters)` : '';
  return `${quote(text, REFUSAL_SHOWN)}${more}`;
}

/** In double quotes, with `"`, backslash, newline and tab written as in JSON; other controls are left to the line's escaping. */
function quote(text: string, width: number): string {
  const cut = text.length > width ? text.slice(0, width) : text;
  return `"${cut.replace(/["\\\n\t]/g, quoteEscape)}"`;
}

function quoteEscape(char: string): string {
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  return `\\${char}`;
}

function payloadNote(payload: OpaquePayload | null): string {
  return payload === null ? '' : ` [${payload.provider} ${payload.kind}]`;
}

function describeUsage(usage: TokenUsage | null): string {
  if (usage === null) return '(not reported)';
  const count = (value: number | null): string => (value === null ? '?' : String(value));
  const counts = `${count(usage.inputTokenCount)} input, ${count(usage.outputTokenCount)} output, ${count(usage.totalTokenCount)} total tokens`;
  // Only the details the provider reported (0 included); a detail it did not report is left out.
  const details: string[] = [];
  if (isCount(usage.cacheReadInputTokenCount)) details.push(`cache read ${usage.cacheReadInputTokenCount}`);
  if (isCount(usage.cacheWriteInputTokenCount)) details.push(`cache write ${usage.cacheWriteInputTokenCount}`);
  if (isCount(usage.reasoningTokenCount)) details.push(`reasoning ${usage.reasoningTokenCount}`);
  return details.length === 0 ? counts : `${counts} (${details.join(', ')})`;
}

function isCount(value: number | null | undefined): value is number {
  return typeof value === 'number';
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a known part type, got ${JSON.stringify(value)}`);
}
