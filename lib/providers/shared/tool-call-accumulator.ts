import { completeToolCall, partialToolCall } from '../../handler/values';
import type { CompleteToolCall, PartialToolCall } from '../../handler/types';
import type { OpaquePayload } from '../../parts/types';

/** One tool call of the response. */
interface Call {
  readonly index: number;
  id: string | null;
  name: string;
  /** Argument fragments in arrival order, joined once when the call completes (then dropped). */
  fragments: string[];
  open: boolean;
}

/** How a call is completed: the arguments the wire sent whole (else the fragments joined) and a payload. */
export interface ToolCallCompletion {
  /** The full argument text, when the wire sends it whole (replaces the streamed fragments). */
  readonly arguments?: string | undefined;
  /** Provider data to replay, e.g. Gemini's thought signature on a function call. */
  readonly payload?: OpaquePayload | undefined;
}

function isBlank(name: string): boolean {
  return name.trim().length === 0;
}

/**
 * Collects the streamed argument fragments of one response's tool calls and turns them into
 * `PartialToolCall` / `CompleteToolCall` values. Calls are keyed by whatever the wire uses
 * (a choice's `tool_calls[].index`, an Anthropic content-block index, a Responses `item_id`) and
 * numbered 0, 1, 2 … in the order they are started; that number is the handler's `index`.
 *
 * It only builds values; the mapper delivers them. Fragments are kept as a list and joined once
 * at completion, so a long argument stream costs no per-delta copies.
 *
 * A call whose name is still unknown (blank) yields no partials — its fragments are kept for the
 * completion — and a call that completes without a name yields no `CompleteToolCall` (the handler
 * API cannot express it; its wire events surface raw instead).
 */
export class ToolCallAccumulator<K = string | number> {
  private readonly calls = new Map<K, Call>();
  private opened = 0;

  /** How many calls were started in this response (completed or not). */
  get callCount(): number {
    return this.calls.size;
  }

  /** How many started calls have not completed yet. */
  get openCount(): number {
    return this.opened;
  }

  /** True when a call was started under `key` (whether or not it has completed). */
  has(key: K): boolean {
    return this.calls.has(key);
  }

  /** True while the call under `key` is started and not completed. */
  isOpen(key: K): boolean {
    return this.calls.get(key)?.open === true;
  }

  /** The id of the call under `key` (null when the provider sent none), or undefined when none was started. */
  idOf(key: K): string | null | undefined {
    return this.calls.get(key)?.id;
  }

  /**
   * Starts a call under `key` and returns its index (the number of calls started before it).
   * Throws a `TypeError` when a call was already started under `key`: keys are never reused.
   */
  start(key: K, id: string | null, name: string): number {
    if (this.calls.has(key)) {
      throw new TypeError(`Expected a tool call key not used before, got ${String(key)}`);
    }
    const index = this.calls.size;
    this.calls.set(key, { index, id, name, fragments: [], open: true });
    this.opened++;
    return index;
  }

  /** Fills in an id or name that a later delta of an open call carries (blank values are ignored). */
  identify(key: K, id: string | null, name: string | null): void {
    const call = this.openCall(key);
    if (call === undefined) return;
    if (id !== null && id.length > 0 && call.id === null) call.id = id;
    if (name !== null && !isBlank(name) && isBlank(call.name)) call.name = name;
  }

  /**
   * Appends an argument fragment to the open call under `key` and returns the `PartialToolCall`
   * to deliver; null when the fragment is empty, the name is still unknown, or no call is open
   * under `key` (then the fragment is not kept).
   */
  append(key: K, fragment: string): PartialToolCall | null {
    const call = this.openCall(key);
    if (call === undefined || fragment.length === 0) return null;
    call.fragments.push(fragment);
    if (isBlank(call.name)) return null;
    return partialToolCall(call.index, call.id, call.name, fragment);
  }

  /** The arguments received so far for the open call under `key` ('' when none or not open). */
  argumentsOf(key: K): string {
    const call = this.openCall(key);
    return call === undefined ? '' : call.fragments.join('');
  }

  /**
   * Completes the call under `key` and returns its `CompleteToolCall` (empty arguments become
   * `"{}"`); null when no call is open under `key` or the call never got a name.
   */
  complete(key: K, completion: ToolCallCompletion = {}): CompleteToolCall | null {
    const call = this.openCall(key);
    if (call === undefined) return null;
    call.open = false;
    this.opened--;
    const args = completion.arguments ?? call.fragments.join('');
    call.fragments = [];
    if (isBlank(call.name)) return null;
    return completeToolCall(call.index, { id: call.id, name: call.name, arguments: args }, completion.payload);
  }

  /**
   * Completes every open call, in the order they were started; `completionOf` may supply a
   * call's completion (whole arguments, payload) by key.
   */
  completeAll(completionOf?: (key: K) => ToolCallCompletion | undefined): CompleteToolCall[] {
    const completed: CompleteToolCall[] = [];
    if (this.opened === 0) return completed;
    for (const [key, call] of this.calls) {
      if (!call.open) continue;
      const value = this.complete(key, completionOf?.(key));
      if (value !== null) completed.push(value);
    }
    return completed;
  }

  private openCall(key: K): Call | undefined {
    const call = this.calls.get(key);
    return call !== undefined && call.open ? call : undefined;
  }
}
