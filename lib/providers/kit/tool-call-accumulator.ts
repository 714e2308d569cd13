import type { FinishReason, PartialToolCall } from '../../handler/types';
import { completeToolCall, partialToolCall } from '../../handler/values';
import type { OpaquePayload, PartAttributes } from '../../parts/types';
import type { MapperTarget } from '../stream-mapper';
import { resolveFinishReason } from './resolve-finish-reason';

/** One tool call of the response. */
interface Call {
  readonly index: number;
  id: string | null;
  name: string;
  /** Argument fragments in arrival order, joined once when the call ends (then dropped). */
  fragments: string[];
  open: boolean;
}

/** How a call is completed: the arguments the wire sent whole (else the fragments joined) and a payload. */
export interface ToolCallCompletion {
  /** The full argument text, when the wire sends it whole (replaces the streamed fragments). */
  readonly arguments?: string | undefined;
  /** Provider data to replay, e.g. Gemini's thought signature on a function call. */
  readonly payload?: OpaquePayload | undefined;
  /**
   * Attributes of the call's part (e.g. the Responses item id), set through
   * `target.completeBlock` right after the call ended, whether it completed or was kept incomplete.
   */
  readonly attributes?: PartAttributes | undefined;
}

function isBlank(name: string): boolean {
  return name.trim().length === 0;
}

/**
 * Collects the streamed argument fragments of one response's tool calls, delivers them as
 * `PartialToolCall` / `CompleteToolCall` values, and holds the one rule for how calls end and
 * count. Calls are keyed by whatever the wire uses (a choice's `tool_calls[].index`, an Anthropic
 * content-block index, a Responses `item_id`) and numbered 0, 1, 2 … in the order they are
 * started; that number is the handler's `index`.
 *
 * A call ends once: it *completes* (`onCompleteToolCall`, counted in `completedCount`), or it is
 * *incomplete* — it never got a name, or the stream stopped for length while it was open — and
 * is then handed to `target.keepIncompleteToolCall` (counted in `incompleteCount`, no callback),
 * so that nothing it streamed is lost. A nameless call that streamed no arguments carries nothing
 * and is dropped uncounted. Only completed calls count as tool calls: `finishReason` resolves the
 * response's finish reason from them.
 *
 * Fragments are kept as a list and joined once when the call ends, so a long argument stream
 * costs no per-delta copies. A call whose name is still unknown yields no partials (its
 * fragments are kept for its end).
 */
export class ToolCallAccumulator<K = string | number> {
  /** The calls started, by key; made at the first (most responses have no tool call). */
  private calls: Map<K, Call> | null = null;
  private opened = 0;
  private completed = 0;
  private incomplete = 0;

  /** How many calls were started in this response (ended or not). */
  get callCount(): number {
    return this.calls === null ? 0 : this.calls.size;
  }

  /** How many started calls have not ended yet. */
  get openCount(): number {
    return this.opened;
  }

  /** How many calls completed (were reported through `onCompleteToolCall`). */
  get completedCount(): number {
    return this.completed;
  }

  /** How many calls ended incomplete and were kept as such. */
  get incompleteCount(): number {
    return this.incomplete;
  }

  /** True when a call was started under `key` (whether or not it has ended). */
  has(key: K): boolean {
    return this.calls !== null && this.calls.has(key);
  }

  /** True while the call under `key` is started and has not ended. */
  isOpen(key: K): boolean {
    return this.calls?.get(key)?.open === true;
  }

  /** The id of the call under `key` (null when the provider sent none), or undefined when none was started. */
  idOf(key: K): string | null | undefined {
    return this.calls?.get(key)?.id;
  }

  /**
   * Starts a call under `key` and returns its index (the number of calls started before it).
   * Throws a `TypeError` when a call was already started under `key`: keys are never reused.
   */
  start(key: K, id: string | null, name: string): number {
    const calls = (this.calls ??= new Map<K, Call>());
    if (calls.has(key)) {
      throw new TypeError(`Expected a tool call key not used before, got ${String(key)}`);
    }
    const index = calls.size;
    calls.set(key, { index, id, name, fragments: [], open: true });
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
   * Ends the open call under `key` as complete: delivers its `CompleteToolCall` (the completion's
   * arguments, else the fragments joined; empty arguments become `"{}"`) and returns true. A call
   * that never got a name cannot complete: it is kept incomplete instead (false). False, and
   * nothing delivered, when no call is open under `key`.
   */
  complete(key: K, target: MapperTarget, completion: ToolCallCompletion = {}): boolean {
    const call = this.openCall(key);
    if (call === undefined) return false;
    const args = this.close(call, completion);
    if (isBlank(call.name)) {
      this.keepIncomplete(call, args, target, completion);
      return false;
    }
    this.completed++;
    target.handler.onCompleteToolCall?.(completeToolCall(call.index, { id: call.id, name: call.name, arguments: args }, completion.payload));
    if (completion.attributes !== undefined) target.completeBlock?.(null, completion.attributes);
    return true;
  }

  /**
   * Ends the open call under `key` as incomplete (its arguments were cut off): it is handed to
   * `target.keepIncompleteToolCall` with the arguments received so far (or the completion's), and
   * `onCompleteToolCall` is not called. Nothing happens when no call is open under `key`.
   */
  abandon(key: K, target: MapperTarget, completion: ToolCallCompletion = {}): void {
    const call = this.openCall(key);
    if (call === undefined) return;
    this.keepIncomplete(call, this.close(call, completion), target, completion);
  }

  /**
   * Ends every open call, in the order they were started, once the response is over: each
   * completes — unless the provider's reason, as mapped, is `LENGTH`: a call still open when the
   * stream stopped for length was cut off, so each is abandoned instead. `completionOf` may supply
   * a call's completion (whole arguments, payload) by key.
   */
  endAll(target: MapperTarget, mappedReason: FinishReason | null, completionOf?: (key: K) => ToolCallCompletion | undefined): void {
    if (this.opened === 0) return;
    const cut = mappedReason === 'LENGTH';
    for (const [key, call] of this.calls ?? []) {
      if (!call.open) continue;
      if (cut) this.abandon(key, target, completionOf?.(key));
      else this.complete(key, target, completionOf?.(key));
    }
  }

  /** The response's finish reason from the provider's reason as mapped and the calls that completed (`resolveFinishReason`). */
  finishReason(mappedReason: FinishReason | null): FinishReason | null {
    return resolveFinishReason(mappedReason, this.completed);
  }

  private openCall(key: K): Call | undefined {
    const call = this.calls?.get(key);
    return call !== undefined && call.open ? call : undefined;
  }

  /** Marks `call` ended and returns its arguments (joined once; the fragments are dropped). */
  private close(call: Call, completion: ToolCallCompletion): string {
    call.open = false;
    this.opened--;
    const args = completion.arguments ?? call.fragments.join('');
    call.fragments = [];
    return args;
  }

  private keepIncomplete(call: Call, args: string, target: MapperTarget, completion: ToolCallCompletion): void {
    const named = !isBlank(call.name);
    const payload = completion.payload;
    // A nameless call that streamed nothing carries nothing to keep.
    if (!named && args.length === 0 && payload === undefined) return;
    this.incomplete++;
    const name = named ? call.name : null;
    target.keepIncompleteToolCall?.(payload === undefined ? { index: call.index, id: call.id, name, arguments: args } : { index: call.index, id: call.id, name, arguments: args, payload });
    if (completion.attributes !== undefined) target.completeBlock?.(null, completion.attributes);
  }
}
