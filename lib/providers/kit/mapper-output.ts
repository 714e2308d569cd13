import type { ChatResponseMetadata, FinishReason, PartialResponseContext, PartialToolCall, StreamingHandle, TokenUsage } from '../../handler/types';
import { aiMessage, chatResponse, responseMetadata } from '../../handler/values';
import { nonBlankString, type JsonObject } from '../../wire/read-json';
import type { SseFrame } from '../../wire/types';
import type { MapperTarget } from '../stream-mapper';
import { providerStreamError } from './provider-stream-error';
import { truncatedStreamError } from './truncated-stream-error';

/** Usage as a response reports it: the counts and the provider's usage object as sent. */
export interface UsageFields {
  readonly tokenUsage?: TokenUsage | null | undefined;
  readonly providerUsage?: JsonObject | null | undefined;
}

/** The metadata fields a mapper gives beside what `MapperOutput` noted (the usage, when given, replaces the noted one). */
export interface MetadataFields extends UsageFields {
  readonly providerMetadata: JsonObject | null;
  readonly finishReason?: FinishReason | null | undefined;
  readonly providerFinishReason?: string | null | undefined;
}

/** What a mapper knows at the end of a response, beside what `MapperOutput` noted. */
export interface ResponseEnding extends MetadataFields {
  readonly finishReason: FinishReason | null;
  readonly providerFinishReason: string | null;
  /** The final message's attributes (e.g. a refusal). */
  readonly attributes?: Readonly<Record<string, string>> | undefined;
}

/**
 * The housekeeping every mapper shares, one per stream: it holds the one frozen context object
 * of the stream's partials (rebuilt only when the handle changes; a mapper delivers its text and
 * thinking partials itself, on its hottest path, with `contextOf`), delivers tool-call
 * fragments, keeps what the response said
 * about itself so far (the last non-blank id and model, the last usage that reports a count,
 * `countedUsage`), and ends the stream with its one terminal callback — the complete response, a
 * provider error (`providerStreamError`) or a truncation (`truncatedStreamError`). The driver
 * calls nothing after a terminal callback, so no "ended" state is kept here or in a mapper.
 */
export class MapperOutput {
  private context: PartialResponseContext | null = null;
  private contextHandle: StreamingHandle | null = null;
  private id: string | null = null;
  private model: string | null = null;
  private usage: TokenUsage | null = null;
  private usageSent: JsonObject | null = null;

  /** The response id seen last: a blank or non-string value keeps the one before. */
  noteId(value: unknown): void {
    // Every chunk may repeat it: only a changed value needs a look.
    if (value !== this.id) this.id = nonBlankString(value) ?? this.id;
  }

  /** The model seen last: a blank or non-string value keeps the one before. */
  noteModel(value: unknown): void {
    if (value !== this.model) this.model = nonBlankString(value) ?? this.model;
  }

  /** A usage the stream sent (`usage` null when it reports no count: it keeps the one before) and the object it was read from. */
  noteUsage(usage: TokenUsage | null, sent: JsonObject | null): void {
    if (usage === null) return;
    this.usage = usage;
    this.usageSent = sent;
  }

  /** The one context object of the stream's partials. */
  contextOf(target: MapperTarget): PartialResponseContext {
    // The handle is kept beside the context, so that a partial reads no field of the context itself.
    const handle = target.handle;
    if (handle !== this.contextHandle || this.context === null) {
      this.context = Object.freeze({ streamingHandle: handle });
      this.contextHandle = handle;
    }
    return this.context;
  }

  /** Delivers a tool-call fragment; nothing for null (the accumulator had nothing to deliver). */
  toolCall(target: MapperTarget, partial: PartialToolCall | null): void {
    if (partial !== null) target.handler.onPartialToolCall?.(partial, this.contextOf(target));
  }

  /** The metadata so far: the noted id, model and usage (unless `fields` gives the usage) with the given fields. */
  metadata(fields: MetadataFields): ChatResponseMetadata {
    return responseMetadata({
      id: this.id,
      modelName: this.model,
      tokenUsage: fields.tokenUsage === undefined ? this.usage : fields.tokenUsage,
      finishReason: fields.finishReason ?? null,
      providerFinishReason: fields.providerFinishReason ?? null,
      providerUsage: fields.providerUsage === undefined ? this.usageSent : fields.providerUsage,
      providerMetadata: fields.providerMetadata,
    });
  }

  /** Ends the stream with the complete response (its parts come from the chain; the message here carries the attributes). */
  complete(target: MapperTarget, ending: ResponseEnding): void {
    target.handler.onCompleteResponse(chatResponse(aiMessage([], ending.attributes), this.metadata(ending)));
  }

  /** Ends the stream with the provider's error: `event` is or holds it (see `providerStreamError`). */
  fail(target: MapperTarget, event: unknown, frame?: string, fallbackMessage?: string): void {
    target.handler.onError(providerStreamError(event, frame, fallbackMessage));
  }

  /**
   * An SSE frame whose data is not a JSON object: an `event: error` frame ends the stream with a
   * provider error whose message is its text (true: reading stops); any other surfaces raw (false).
   */
  unreadable(target: MapperTarget, frame: SseFrame): boolean {
    if (frame.event !== 'error') return false;
    this.fail(target, frame.data, frame.data);
    return true;
  }

  /** Ends a stream that stopped before its format's terminal event (`terminal` names it) or mid-frame. */
  truncated(target: MapperTarget, terminal: string, truncatedFrame: boolean): void {
    target.handler.onError(truncatedStreamError(terminal, truncatedFrame));
  }
}
