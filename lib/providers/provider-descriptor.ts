import type { ChatMessage } from '../replay/chat-message';
import type { FinishReason } from '../handler/types';
import type { ByteFrameDecoder, FrameDecoder } from '../wire/frame-decoder';
import type { NdjsonLineParser } from '../wire/ndjson-decoder';
import type { BodyFraming, SniffRule } from '../wire/sniff-rule';
import type { StreamMapper } from './stream-mapper';

export type { BodyFraming, SniffRule } from '../wire/sniff-rule';

/** How a provider takes its API key: in this header, after this prefix (`Bearer ` or nothing). */
export interface AuthHeader {
  readonly header: string;
  readonly prefix: string;
}

/** Where one provider's API lives, and how its options and environment name that place. */
export interface EndpointRule {
  /** The option's name as the provider's SDK spells it. */
  readonly option: 'baseURL' | 'host';
  /** The environment variable read when the option is not given (null: none). */
  readonly env: string | null;
  /**
   * The provider's own base URL or host; a function when it depends on the environment (Bedrock's
   * region): it returns the URL, or throws a `TypeError` saying which variable or option is missing.
   */
  readonly defaultBase: string | (() => string);
  /** Turns the option's (or variable's) value into a base URL (Ollama's `host` may lack a scheme or a port). */
  readonly normalize?: ((value: string) => string) | undefined;
  /**
   * The API version's path segment that `baseURL` leaves out but the deprecated `baseUrl`
   * included (`v1` for Anthropic, `v1beta` for Gemini), or '' when both mean the same.
   */
  readonly version: string;
}

/**
 * What a provider's HTTP client is made of: plain facts, plus how its request becomes a path and a
 * body. The machinery (retries, redirects, limits, secrets, `outcome.http`) is the same for all.
 */
export interface ProviderClientSpec<R extends object> {
  /** The provider's name, for error messages ("OpenAI Chat Completions"). */
  readonly provider: string;
  /** The request's name in the `TypeError` for one without a model (`an Anthropic` …). */
  readonly requestName: string;
  /** The request field that names the model (`model`; Bedrock's `modelId`). */
  readonly modelField: string;
  /** Where the API lives. */
  readonly endpoint: EndpointRule;
  /** The endpoint's path under the API version; Gemini's and Bedrock's name the model. Called once the request was checked. */
  readonly path: string | ((request: R) => string);
  /** The environment variables the key is read from, in order (none: only `apiKey`). */
  readonly apiKeyEnv: readonly string[];
  /** How the API key is sent. */
  readonly auth: AuthHeader;
  /** True when a request may go without a key (a local server, or a `sign` hook that signs it). */
  readonly keyOptional?: boolean | undefined;
  /** The provider's own headers besides the key (`anthropic-version`); `options.headers` override them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body for a (checked) request: its fields, `extraBody`'s, then the client's own (`stream: true`). */
  readonly body: (request: R) => Readonly<Record<string, unknown>>;
}

/** An OpenTelemetry attribute value, as the GenAI conventions use them. */
export type TelemetryValue = string | number | boolean | readonly string[];

/** What observability needs to know of a provider (SPEC §14); built per stream, never per token. */
export interface ProviderTelemetry {
  /** `gen_ai.provider.name` (`openai`, `gcp.gemini`, `aws.bedrock` …). */
  readonly providerName: string;
  /** `gen_ai.operation.name` (`chat`, `generate_content`). */
  readonly operationName: string;
  /** The `gen_ai.request.*` attributes of a request body as sent (temperature, max tokens …). */
  readonly requestAttributes?: ((body: Readonly<Record<string, unknown>>) => Readonly<Record<string, TelemetryValue>>) | undefined;
  /** The request body's history (entries with `role` or `type` and `content`) and its system instructions' content, for opt-in content capture. */
  readonly requestMessages?: ((body: Readonly<Record<string, unknown>>) => RequestMessages) | undefined;
}

/** A request body's history as content capture reads it: its entries as sent (`{ role, content }` or typed items), and the system instructions' content (a string or blocks with `text`). */
export interface RequestMessages {
  readonly messages: readonly unknown[];
  readonly system: unknown;
}

/**
 * Everything partstream knows about one provider (SPEC §15): its wire format's name and framing,
 * how `auto` recognises it, the mapper that reads its events, its finish reasons, its HTTP client,
 * its conversation replay and its telemetry facts. partstream's own six are in the registry; a
 * custom provider is a descriptor too, and gets `consumeStream` (`{ format: descriptor }`),
 * sniffing (`{ providers: [descriptor] }`), the HTTP client machinery (`streamProvider` in
 * `partstream/http`) and replay (`descriptor.replay`) from it.
 *
 * `E` is the event the mapper takes (`SseFrame`, a parsed NDJSON value …), `R` the request type of
 * its client, `M` what its replay returns.
 */
export interface ProviderDescriptor<F extends string = string, E = unknown, R extends object = never, M = unknown> {
  /** The wire format's name, as `format` takes it; unique in a registry. */
  readonly format: F;
  /** The provider as people name it ("Anthropic Messages"), for messages. */
  readonly name: string;
  /** What a failure says was expected ("an Anthropic Messages stream (Server-Sent Events)"). */
  readonly expected: string;
  /** How the body frames events. */
  readonly framing: BodyFraming;
  /** The `accept` header its HTTP client sends. */
  readonly contentType: string;
  /** How `format: 'auto'` recognises it; null: only when named. */
  readonly sniff: SniffRule | null;
  /** A new mapper for one stream. */
  readonly createMapper: () => StreamMapper<E>;
  /** NDJSON framing only: how a line is read (`JSON.parse` by default). */
  readonly parseLine?: NdjsonLineParser | undefined;
  /** A text decoder of its own instead of the framing's (the relay's SSE with ids). */
  readonly createDecoder?: ((maxFrameBytes: number) => FrameDecoder<E>) | undefined;
  /** The `aws-eventstream` framing's decoder: binary frames of at most `maxFrameBytes` bytes. Required for that framing. */
  readonly createByteDecoder?: ((maxFrameBytes: number) => ByteFrameDecoder<E>) | undefined;
  /** Reads one already-decoded event object (an SDK's parsed stream) into the event the mapper takes; absent: objects are refused. */
  readonly readObject?: ((chunk: object) => E) | undefined;
  /** The provider's own finish reason (as `providerFinishReason` reports it) in partstream's terms; null when it sent none. */
  readonly finishReason: (reason: string | null) => FinishReason | null;
  /** Its HTTP client; null when partstream has none. */
  readonly client: ProviderClientSpec<R> | null;
  /** Its conversation replay (SPEC §12): a history of final messages as its request's messages; null when none. */
  readonly replay: ((history: readonly ChatMessage[]) => M) | null;
  /** Its telemetry facts. */
  readonly telemetry: ProviderTelemetry;
}

/** A descriptor of any provider, as lists and lookups hold them (any event, request and replay type). */
export type AnyProviderDescriptor = ProviderDescriptor<string, unknown, never, unknown>;
