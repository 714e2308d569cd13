import { expect } from 'chai';
import type { CompleteToolCall, PartialThinking, PartialResponse, PartialToolCall, ToolExecutionRequest } from '../../../lib/handler/types';
import { StreamError, type StreamErrorKind } from '../../../lib/handler/stream-error';
import type { Call, ErrorSummary, Replay } from './replay';

const KINDS: readonly StreamErrorKind[] = ['http', 'provider', 'truncated', 'malformed', 'format', 'timeout', 'network'];

/** True for the call that ends a stream: `onCompleteResponse` or a stream error (not a callback error). */
export function isTerminal(call: Call): boolean {
  return call.on === 'onCompleteResponse' || (call.on === 'onError' && (call.value as ErrorSummary).callbackName === undefined);
}

/**
 * Exactly one terminal callback, last of all (or followed only by the callback error of a throwing
 * `onCompleteResponse` when `completeMayThrow`), agreeing with the outcome; a failure is a
 * `StreamError` of a known kind with a message.
 */
export function expectOneTerminal(run: Replay, completeMayThrow = false): void {
  const terminals = run.calls.flatMap((call, index) => (isTerminal(call) ? [index] : []));
  expect(terminals, 'terminal callbacks').to.have.lengthOf(1);
  const at = terminals[0] as number;
  const after = run.calls.slice(at + 1);
  if (completeMayThrow && run.calls[at]?.on === 'onCompleteResponse' && after.length === 1) {
    expect(after[0]?.value, 'the one callback allowed after the terminal one').to.include({ callbackName: 'onCompleteResponse' });
  } else {
    expect(after, 'callbacks after the terminal one').to.deep.equal([]);
  }
  const terminal = run.calls[at] as Call;
  if (terminal.on === 'onCompleteResponse') {
    expect(run.outcome.status).to.equal('completed');
    if (run.outcome.status === 'completed') expect(run.outcome.response).to.equal(terminal.value);
  } else {
    expect(run.outcome.status).to.equal('failed');
    if (run.outcome.status !== 'failed') return;
    const error = run.outcome.error;
    expect(
      run.errors.filter((seen) => seen === error),
      'the outcome error went to onError once',
    ).to.have.lengthOf(1);
    expect(StreamError.isInstance(error), `a StreamError, got ${error.name}: ${error.message}`).to.equal(true);
    expect(KINDS).to.include((error as StreamError).kind);
    expect(error.message.trim()).to.not.equal('');
  }
}

/** The texts delivered through one partial callback, joined. */
export function delivered(calls: readonly Call[], on: 'onPartialResponse' | 'onPartialThinking'): string {
  let text = '';
  for (const call of calls) if (call.on === on) text += (call.value as PartialResponse | PartialThinking).text;
  return text;
}

/**
 * True when each of `items` matches its own element of `within` (a sub-multiset: order aside, as
 * parallel calls may complete in another order than they started, e.g. when a damaged stream
 * loses one call's end and it completes only at the end of the response).
 */
function isContained<T>(items: readonly T[], within: readonly T[], same: (a: T, b: T) => boolean): boolean {
  const used = new Set<number>();
  return items.every((item) => {
    const at = within.findIndex((candidate, index) => !used.has(index) && same(item, candidate));
    if (at < 0) return false;
    used.add(at);
    return true;
  });
}

function sameRequest(a: ToolExecutionRequest, b: ToolExecutionRequest): boolean {
  return a.id === b.id && a.name === b.name && a.arguments === b.arguments;
}

/**
 * Nothing delivered is missing from the outcome's message (final or partial): its text and
 * reasoning are exactly what the partial callbacks delivered, its tool-call requests are exactly
 * the completed tool calls (each its own; a call never completed is no request), and a call that
 * only streamed argument deltas kept them all in its tool-call part (whitespace-only arguments may
 * read back as `"{}"`, as empty ones do).
 */
export function expectNothingLost(run: Replay): void {
  const message = run.message.aiMessage;
  expect(message.text ?? '', 'aggregated text vs delivered text').to.equal(delivered(run.calls, 'onPartialResponse'));
  expect(message.thinking ?? '', 'aggregated reasoning vs delivered reasoning').to.equal(delivered(run.calls, 'onPartialThinking'));
  const completed = run.calls.filter((call) => call.on === 'onCompleteToolCall').map((call) => (call.value as CompleteToolCall).toolExecutionRequest);
  const requests = message.toolExecutionRequests;
  expect(isContained(completed, requests, sameRequest), `completed tool calls ${JSON.stringify(completed)} within ${JSON.stringify(requests)}`).to.equal(true);
  expect(requests.length, `tool-call requests ${JSON.stringify(requests)} vs completed calls ${JSON.stringify(completed)}`).to.equal(completed.length);
  const completedIndexes = new Set(run.calls.filter((call) => call.on === 'onCompleteToolCall').map((call) => (call.value as CompleteToolCall).index));
  const streamed = new Map<number, string>();
  for (const call of run.calls) {
    if (call.on !== 'onPartialToolCall') continue;
    const delta = call.value as PartialToolCall;
    streamed.set(delta.index, (streamed.get(delta.index) ?? '') + delta.partialArguments);
  }
  const kept = message.parts.flatMap((part) => (part.type === 'tool_call' ? [part.toolCall.arguments ?? ''] : []));
  for (const [index, args] of streamed) {
    if (completedIndexes.has(index)) continue;
    // Arguments that are only whitespace say nothing: like empty ones, they may read back as "{}".
    const readBack = (partArgs: string): boolean => partArgs === args || (args.trim() === '' && (partArgs === '{}' || partArgs.trim() === ''));
    expect(kept.some(readBack), `the streamed arguments of unfinished call ${index} (${JSON.stringify(args)}) within the tool-call parts ${JSON.stringify(kept)}`).to.equal(true);
  }
}

/** The partial callbacks of a run (text, reasoning, tool-call deltas), in order. */
export function partials(calls: readonly Call[]): Call[] {
  return calls.filter((call) => call.on === 'onPartialResponse' || call.on === 'onPartialThinking' || call.on === 'onPartialToolCall');
}
