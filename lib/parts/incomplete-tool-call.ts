import type { MessagePart, PartAttributes } from './types';

/**
 * The attribute that marks a tool-call part whose call never completed — its arguments were
 * still streaming when the stream stopped (for length, or because it failed), or the call never
 * got a name: `incomplete: "true"`. Such a call is no request to execute.
 */
export const INCOMPLETE_ATTRIBUTE = 'incomplete';

/** The attributes of an incomplete tool-call part (shared and frozen: no allocation per delta). */
export const INCOMPLETE_ATTRIBUTES: PartAttributes = Object.freeze({ [INCOMPLETE_ATTRIBUTE]: 'true' });

/** True for a tool-call part marked `incomplete: "true"`. */
export function isIncompleteToolCall(part: MessagePart): boolean {
  return part.type === 'tool_call' && part.attributes[INCOMPLETE_ATTRIBUTE] === 'true';
}
