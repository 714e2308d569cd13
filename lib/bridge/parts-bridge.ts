import type { CoreRecorder } from '../core/core-recorder';
import { ResponseCore } from '../core/response-core';
import { ResponseGate, type RunGate } from '../core/response-gate';
import { checkPart } from '../core/validate-input';
import { HandlerCallbackError } from '../handler/handler-callback-error';
import { StreamError } from '../handler/stream-error';
import type {
  ChatResponse,
  CompleteToolCall,
  PartialResponse,
  PartialResponseContext,
  PartialThinking,
  PartialThinkingContext,
  PartialToolCall,
  PartialToolCallContext,
  StreamingChatResponseHandler,
  StreamingHandle,
} from '../handler/types';
import { validateAttributes } from '../parts/validate';
import type { MessagePart, OpaquePayload } from '../parts/types';
import { adapterResponse, completeToolCallProblem, fragmentProblem, incompleteToolCallProblem, isFragment, isToolCallDelta, toolCallDeltaProblem } from './adapter-output';

/**
 * A tool call that will never complete, handed over whole by the provider adapter so that the
 * final message keeps it (marked `incomplete: "true"`): its arguments were still streaming when
 * the stream stopped for length, or it never got a name. `index` is the call's handler index
 * (the one its partial tool calls carried, if any); `name` is null when the call never got one.
 */
export interface IncompleteToolCall {
  readonly index: number;
  readonly id: string | null;
  readonly name: string | null;
  readonly arguments: string;
  /** Provider data to replay with the call (e.g. Gemini's thought signature), if any. */
  readonly payload?: OpaquePayload | undefined;
}

/**
 * Sits between the provider adapter and the user's handler: forwards every callback at once and
 * turns it into an indexed message part (partial response → text delta, partial thinking →
 * reasoning delta with its payload, partial tool call → argument delta, complete tool call →
 * complete part), merged into one response. An adapter tells it where a provider block
 * ends, hands over the blocks no callback models and sets attributes on a block's part (e.g. the
 * provider's item id) through `completeBlock`. Tool calls are told
 * apart by their handler index, never by the provider's id (which may repeat): every complete call
 * has a part of its own. A call whose deltas never led to a complete call (the stream stopped, or
 * the adapter gave it up through `keepIncompleteToolCall`) stays a tool-call part marked
 * `incomplete: "true"`. The provider's `onCompleteResponse` reaches the
 * wrapped handler as the final response: the aggregated parts in the order the model produced
 * them (plus `text`, `thinking` and `toolExecutionRequests` derived from them), the provider
 * message's attributes (e.g. `refusal`) and the provider's metadata.
 *
 * What the adapter reports is checked as it enters (cheap typeof checks per delta): a value that
 * breaks the handler API's contract — a text that is not a string, a tool-call index that is not
 * an integer ≥ 0, a complete call without a name, a payload that is not `{provider, kind, data}`,
 * a response that is no `ChatResponse` — is never forwarded nor aggregated; it fails the stream
 * with one `malformed` `StreamError` that names the callback and the field.
 *
 * Safe on its own, however it is driven: the wrapped handler gets exactly one terminal callback
 * (a second `onCompleteResponse` or stream `onError` is dropped; a `HandlerCallbackError` passed
 * to `onError` is forwarded and ends nothing), and nothing at all once the stream is cancelled —
 * through the handle bound with `bindStreamingHandle`, else the one in the callbacks' contexts
 * (known from the first callback that carries a context), asked once per callback. A part is aggregated before its callback is forwarded, so a callback
 * that cancels still finds its own fragment in `partialResponse()`; once the stream is
 * cancelled, ended or failed, nothing more is aggregated. Raw events are forwarded and not
 * aggregated. Inside a driven stream the bridge keeps no record of its own: it consults the
 * driver's run state, which the safe handler it forwards to ends.
 */
export class PartsBridge implements StreamingChatResponseHandler {
  private readonly core: ResponseCore;

  /**
   * `handler`: the handler to forward to. `run`: the gate of the run, when the caller keeps the
   * run's one record (a driver passes its run state, which its safe handler ends); by default a
   * fresh `ResponseGate` of the bridge's own, which it ends just before it forwards the terminal
   * callback.
   */
  constructor(
    private readonly handler: StreamingChatResponseHandler,
    run: RunGate = new ResponseGate(),
  ) {
    if (handler === null || typeof handler !== 'object' || typeof handler.onCompleteResponse !== 'function' || typeof handler.onError !== 'function') {
      throw new TypeError(`Expected a handler with onCompleteResponse and onError methods, got ${handler === null ? 'null' : typeof handler}`);
    }
    this.core = new ResponseCore(run);
  }

  /** Takes `handle` as the stream's handle for good (a cancel through it stops everything) and forwards it while the stream is open. */
  bindStreamingHandle(handle: StreamingHandle): void {
    this.core.run.bind(handle);
    if (this.core.run.admits()) this.handler.bindStreamingHandle?.(handle);
  }

  onPartialResponse(partial: PartialResponse, context: PartialResponseContext): void {
    if (!isFragment(partial, context)) this.refuse(fragmentProblem('onPartialResponse', partial, context));
    else if (this.core.delta('text', partial.text, partial.payload ?? null, context.streamingHandle)) this.handler.onPartialResponse?.(partial, context);
  }

  onPartialThinking(partial: PartialThinking, context: PartialThinkingContext): void {
    if (!isFragment(partial, context)) this.refuse(fragmentProblem('onPartialThinking', partial, context));
    else if (this.core.delta('reasoning', partial.text, partial.payload ?? null, context.streamingHandle)) this.handler.onPartialThinking?.(partial, context);
  }

  onPartialToolCall(partial: PartialToolCall, context: PartialToolCallContext): void {
    if (!isToolCallDelta(partial, context)) this.refuse(toolCallDeltaProblem(partial, context));
    else if (this.core.toolCallDelta(partial.index, partial.id, partial.name, partial.partialArguments, context.streamingHandle)) {
      this.handler.onPartialToolCall?.(partial, context);
    }
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    const problem = completeToolCallProblem(complete);
    if (problem !== null) {
      this.refuse(problem);
      return;
    }
    const request = complete.toolExecutionRequest;
    const call = { id: request.id, name: request.name, arguments: request.arguments, payload: complete.payload };
    if (this.core.completeToolCall(complete.index, call)) this.handler.onCompleteToolCall?.(complete);
  }

  /**
   * Adapter-side, never forwarded to the wrapped handler (the driver exposes it as
   * `MapperTarget.completeBlock`): the provider block being streamed is complete.
   *
   * - No part: the current run of text or reasoning deltas ends, so the next block's deltas make
   *   a part of their own even when they are of the same type.
   * - A text or reasoning part: what the block adds at its end (e.g. a text block's citations as
   *   its payload). It joins the block's part when that part is of its type and carries no
   *   payload yet, else it is a part of its own; then the run ends.
   * - Any other part (an `unknown` or `media` part): a whole block that no callback models; it
   *   takes the next index, so it keeps its place in stream order.
   *
   * `attributes` (strings) are merged into the block's part, over the attributes it has — e.g.
   * the provider's id of the block (`itemId` on OpenAI Responses parts), which replay needs. The
   * block's part is the one the block produced since the previous `completeBlock`: the part given
   * (or the run it joined), else the last run of text or reasoning deltas, or the last tool call
   * completed or kept incomplete; when the block produced none, the attributes go nowhere. They
   * survive into the final message (only `partIndex` and `partial` are stripped there). Once per
   * block: the deltas pay nothing for them.
   *
   * A value that is not a part, or attributes that are not an object of strings, throw a
   * `TypeError` naming the bad field. Once the stream ended or was cancelled, nothing is
   * aggregated.
   */
  completeBlock(part?: MessagePart | null, attributes?: Readonly<Record<string, string>> | null): void {
    if (part !== undefined && part !== null) checkPart(part, 'part');
    const extra = attributes === undefined || attributes === null ? null : validateAttributes(attributes);
    this.core.completeBlock(part ?? null, extra);
  }

  /**
   * Keeps a tool call that will never complete in the final message, marked `incomplete: "true"`,
   * in the place of its argument deltas (or, without any, at the next index). No callback is
   * forwarded: the handler API reports complete calls only.
   */
  keepIncompleteToolCall(call: IncompleteToolCall): void {
    const problem = incompleteToolCallProblem(call);
    if (problem !== null) this.refuse(problem);
    else this.core.incompleteToolCall(call.index, call);
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    if (this.core.raw(rawEvent)) this.handler.onUnmappedRawEvent?.(rawEvent);
  }

  /** Tells `recorder` every input the bridge's core takes from now on (the relay's one hook into the chain). */
  record(recorder: CoreRecorder): void {
    this.core.record(recorder);
  }

  /**
   * Replaces the provider's response by the aggregated one, keeping the provider's metadata; the
   * first terminal callback only. A value that is no `ChatResponse` fails the stream instead.
   */
  onCompleteResponse(response: ChatResponse): void {
    let checked: ChatResponse;
    try {
      checked = adapterResponse(response);
    } catch (error) {
      this.refuse((error as Error).message);
      return;
    }
    const final = this.core.complete(checked);
    if (final !== null) this.handler.onCompleteResponse(final);
  }

  /** Forwards the stream's error, the first terminal callback only; a `HandlerCallbackError` ends nothing. */
  onError(error: Error): void {
    const run = this.core.run;
    if (HandlerCallbackError.isInstance(error) ? run.admits() : run.passTerminal('failed')) this.handler.onError(error);
  }

  /** Fails the stream (while it is open) for adapter output that breaks the handler API's contract. */
  private refuse(problem: string | null): void {
    this.onError(new StreamError('malformed', problem ?? "The adapter's output breaks the handler API"));
  }

  /**
   * What has been aggregated so far, at any time — also after an error or a cancel. Once the
   * response completed, the final response; before, its metadata is all null (the provider's id
   * is only known at completion).
   */
  partialResponse(): ChatResponse {
    return this.core.response();
  }
}
