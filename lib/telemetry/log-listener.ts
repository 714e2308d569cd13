import { describeError } from '../handler/describe-error';
import type { ChatModelEndContext, ChatModelListener, ChatModelRequestContext } from './chat-model-listener';

/** The levels of `PARTSTREAM_LOG`, quietest last. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Where partstream's log lines go (`console` by default): one method per level, a message and plain fields. */
export interface Logger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** The logging options of `consumeStream` and every HTTP client. */
export interface LoggingOptions {
  /** Where log lines go; with it, the level is `PARTSTREAM_LOG`'s, else `info`. */
  readonly logger?: Logger | undefined;
  /** The level, overriding `PARTSTREAM_LOG`. */
  readonly logLevel?: LogLevel | undefined;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/** `PARTSTREAM_LOG`, read once (through `?.`: there is no `process` in a browser). */
let envLevel: LogLevel | null | undefined;

function levelFromEnv(): LogLevel | null {
  if (envLevel !== undefined) return envLevel;
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.PARTSTREAM_LOG;
  } catch {
    value = undefined;
  }
  const normal = typeof value === 'string' ? value.trim().toLowerCase() : '';
  envLevel = Object.prototype.hasOwnProperty.call(RANK, normal) ? (normal as LogLevel) : null;
  return envLevel;
}

/** Control characters a server may send, shown escaped: no escape sequence reaches a terminal (SPEC §11). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function clean(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function requestFields(context: ChatModelRequestContext): Record<string, unknown> {
  return {
    streamId: context.streamId,
    provider: context.provider,
    model: context.requestModel,
    server: context.server === null ? null : `${context.server.address}:${context.server.port}`,
  };
}

function endFields(context: ChatModelEndContext): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    ...requestFields(context),
    outcome: context.outcome.status,
    durationMs: Math.round(context.timings.durationMs),
  };
  if (context.http !== null) {
    fields.status = context.http.status;
    if (context.http.requestId !== null) fields.requestId = clean(context.http.requestId);
  }
  if (context.retries > 0) fields.retries = context.retries;
  if (context.handlerErrors > 0) fields.handlerErrors = context.handlerErrors;
  return fields;
}

/**
 * The listener that logs a stream (requests and each retry at `debug`; the response status, retries and a
 * completed or cancelled outcome at `info`; a failure at `error`), or null when logging is off:
 * `logLevel`, else `PARTSTREAM_LOG` (`debug`, `info`, `warn`, `error`, `off`), else `info` with a
 * `logger` and off without. Nothing secret is logged: no request body, no header; an error's
 * message is the stream's, already free of the API key (SPEC §11).
 */
export function logListener(options: LoggingOptions): ChatModelListener | null {
  const level = options.logLevel ?? levelFromEnv() ?? (options.logger !== undefined ? 'info' : 'off');
  const rank = RANK[level] ?? RANK.off;
  if (rank >= RANK.off) return null;
  const logger: Logger = options.logger ?? console;
  return {
    onRequest(context) {
      if (rank <= RANK.debug) logger.debug(`partstream: request to ${context.provider}`, requestFields(context));
    },
    onRetry(context) {
      if (rank > RANK.debug) return;
      const fields: Record<string, unknown> = { ...requestFields(context), retry: context.retry, errorType: clean(context.errorType), delayMs: Math.round(context.delayMs) };
      if (context.status !== null) fields.status = context.status;
      logger.debug(`partstream: retrying the request to ${context.provider} in ${Math.round(context.delayMs)} ms (${clean(context.errorType)})`, fields);
    },
    onResponse(context) {
      if (rank <= RANK.info) logger.info(`partstream: ${context.provider} stream completed`, endFields(context));
    },
    onCancel(context) {
      if (rank <= RANK.info) logger.info(`partstream: ${context.provider} stream cancelled`, endFields(context));
    },
    onError(context) {
      if (rank <= RANK.error) logger.error(`partstream: ${context.provider} stream failed: ${clean(describeError(context.error))}`, endFields(context));
    },
  };
}

/** Forgets the `PARTSTREAM_LOG` read (for tests that set it). */
export function rereadLogLevel(): void {
  envLevel = undefined;
}
