import type { ChatModelHttpAttemptContext, ChatModelListener, HttpAttemptResult, HttpAttemptScope } from './chat-model-listener';
import { warnListener } from './isolated-call';

/**
 * How an HTTP client tells its stream's listeners of the requests it sends (SPEC §14): the driver
 * gives one to the client's `open` when the stream has listeners, null otherwise.
 */
export interface AttemptObserver {
  /**
   * Sends one request through `send` (its `fetch`), inside the scopes the listeners' `onHttpAttempt`
   * returned, and ends them with its result; resolves or rejects as `send` does.
   */
  attempt<R extends { readonly status: number }>(method: string, url: string, send: () => Promise<R>): Promise<R>;
  /** A failed request (`status`, else null after a connection error) is sent again after `delayMs`. */
  retry(status: number | null, errorType: string, delayMs: number): void;
}

const TOKEN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A failure without a response as a low-cardinality `errorType`: the error's `code` or its cause's
 * (`ECONNREFUSED`, `UND_ERR_SOCKET`), else its name (`TypeError`, `AbortError`), else `_OTHER`.
 */
export function attemptErrorType(error: unknown): string {
  try {
    for (let at: unknown = error, depth = 0; at !== null && typeof at === 'object' && depth < 3; at = (at as { cause?: unknown }).cause, depth++) {
      const code: unknown = (at as { code?: unknown }).code;
      if (typeof code === 'string' && TOKEN.test(code)) return code;
    }
    const name: unknown = error !== null && typeof error === 'object' ? (error as { name?: unknown }).name : undefined;
    return typeof name === 'string' && TOKEN.test(name) ? name : '_OTHER';
  } catch {
    // A hostile getter classifies as nothing in particular.
    return '_OTHER';
  }
}

/** The result of a response: `errorType` is its status from 400 on. */
export function responseResult(status: number): HttpAttemptResult {
  return Object.freeze({ status, errorType: status >= 400 ? String(status) : null });
}

interface OpenScope {
  readonly listener: ChatModelListener;
  readonly scope: HttpAttemptScope;
}

/**
 * The scopes of one attempt: made by the listeners' `onHttpAttempt`, each wrapping the send (which
 * runs exactly once whatever they do) and ended exactly once. Every listener call is isolated.
 */
export class AttemptScopes {
  private ended = false;

  private constructor(private readonly scopes: readonly OpenScope[]) {}

  /** The scopes the listeners open for `context`, or null when none does. */
  static open(listeners: readonly ChatModelListener[], context: ChatModelHttpAttemptContext): AttemptScopes | null {
    let scopes: OpenScope[] | null = null;
    for (const listener of listeners) {
      try {
        const hook = listener.onHttpAttempt;
        if (typeof hook !== 'function') continue;
        const scope: unknown = hook.call(listener, context);
        if (scope !== null && typeof scope === 'object') (scopes ??= []).push({ listener, scope: scope as HttpAttemptScope });
      } catch (error) {
        warnListener(listener, 'onHttpAttempt', error);
      }
    }
    return scopes === null ? null : new AttemptScopes(scopes);
  }

  /** Runs `send` once, inside every scope's `wrap` (the first listener's outermost). */
  send<R>(send: () => Promise<R>): Promise<R> {
    let inner = send;
    for (let index = this.scopes.length - 1; index >= 0; index--) inner = wrapped(this.scopes[index] as OpenScope, inner);
    return inner();
  }

  /** Ends every scope, once. */
  end(result: HttpAttemptResult): void {
    if (this.ended) return;
    this.ended = true;
    for (const { listener, scope } of this.scopes) {
      try {
        const end = scope.end;
        if (typeof end === 'function') end.call(scope, result);
      } catch (error) {
        warnListener(listener, 'onHttpAttempt', error);
      }
    }
  }
}

/** `inner` inside `open.scope.wrap`: sent once even when the wrap throws, never calls it or calls it twice. */
function wrapped<R>(open: OpenScope, inner: () => Promise<R>): () => Promise<R> {
  return () => {
    let sent: Promise<R> | undefined;
    const once = (): Promise<R> => (sent ??= inner());
    try {
      const wrap = open.scope.wrap;
      if (typeof wrap === 'function') wrap.call(open.scope, once);
    } catch (error) {
      warnListener(open.listener, 'onHttpAttempt', error);
    }
    return sent ?? once();
  };
}
