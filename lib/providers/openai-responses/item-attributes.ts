import type { PartAttributes } from '../../parts/types';

/** Whether an output item's `type` is a call the client runs (a function or a custom tool). */
export function isClientToolCall(type: unknown): boolean {
  return type === 'function_call' || type === 'custom_tool_call';
}

/** The attributes of the part of output item `id`: `itemId`, which replay needs; none without an id. */
export function itemAttributes(id: string | null): PartAttributes | undefined {
  return id === null ? undefined : Object.freeze({ itemId: id });
}

/** The attributes of a custom tool call's part: `itemType` tells replay to send a `custom_tool_call` back. */
export function customCallAttributes(id: string): PartAttributes {
  return Object.freeze({ itemId: id, itemType: 'custom_tool_call' });
}
