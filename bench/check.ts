import type { ChatResponse } from '../lib/handler/types';
import type { Extracted } from './floors';
import { sha256, type ExpectedHashes, type ExpectedToolCall, type Transcript } from './generate-transcript';

/** Thrown when what a contender produced differs from what the generator expects. */
export class BenchCorrectnessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchCorrectnessError';
  }
}

/** What a result is checked against: the generator's hashes and tool calls, without the text itself. */
export interface Expectation {
  readonly hashes: ExpectedHashes;
  readonly toolCalls: readonly ExpectedToolCall[];
}

/** The expectation of a transcript (holds no reference to its bytes, steps or text). */
export function expectationOf(transcript: Transcript): Expectation {
  return { hashes: transcript.hashes, toolCalls: transcript.expected.toolCalls };
}

function compare(where: string, field: string, actual: string | null | undefined, expectedHash: string): void {
  const actualHash = typeof actual === 'string' ? sha256(actual) : String(actual);
  if (actualHash !== expectedHash) {
    throw new BenchCorrectnessError(`${where}: ${field} does not match the generator (sha256 ${actualHash.slice(0, 16)}…, expected ${expectedHash.slice(0, 16)}…)`);
  }
}

/**
 * Checks a final response against the generator: text, reasoning and every tool call's arguments
 * hash to the expected SHA-256 digests; tool call ids and names match. Throws otherwise.
 */
export function checkResponse(where: string, response: ChatResponse, expectation: Expectation): void {
  const message = response.aiMessage;
  compare(where, 'text', message.text, expectation.hashes.text);
  compare(where, 'reasoning', message.thinking, expectation.hashes.reasoning);
  const calls = message.toolExecutionRequests;
  const expected = expectation.toolCalls;
  if (calls.length !== expected.length) {
    throw new BenchCorrectnessError(`${where}: ${calls.length} tool calls, expected ${expected.length}`);
  }
  calls.forEach((call, i) => {
    compare(where, `tool call ${i} arguments`, call.arguments, expectation.hashes.arguments[i]);
    if (call.id !== expected[i].id || call.name !== expected[i].name) {
      throw new BenchCorrectnessError(`${where}: tool call ${i} is ${call.id}/${call.name}, expected ${expected[i].id}/${expected[i].name}`);
    }
  });
}

/** Checks the strings a floor extracted against the generator; throws otherwise. */
export function checkExtracted(where: string, extracted: Extracted, expectation: Expectation): void {
  compare(where, 'text', extracted.text, expectation.hashes.text);
  compare(where, 'reasoning', extracted.reasoning, expectation.hashes.reasoning);
  if (extracted.arguments.length !== expectation.hashes.arguments.length) {
    throw new BenchCorrectnessError(`${where}: ${extracted.arguments.length} tool calls, expected ${expectation.hashes.arguments.length}`);
  }
  extracted.arguments.forEach((args, i) => compare(where, `tool call ${i} arguments`, args, expectation.hashes.arguments[i]));
}
