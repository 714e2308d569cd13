import { HandlerCallbackError } from '../../../lib/handler/handler-callback-error';
import { StreamError } from '../../../lib/handler/stream-error';

/** What a throwing handler may throw: errors of every kind and values that are not errors. */
export function ordinaryThrows(): unknown[] {
  return [
    new Error('boom'),
    new TypeError('bad type'),
    new StreamError('network', 'a StreamError thrown by the handler'),
    new HandlerCallbackError('onPartialResponse', 'a HandlerCallbackError thrown by the handler'),
    'a string',
    undefined,
    null,
    42,
    { weird: true },
    Object.create(null),
    {
      toString() {
        throw new Error('toString throws');
      },
    },
  ];
}

/** Thrown values that break a naive description of what was thrown (named; each has a regression test). */
export const HOSTILE_THROWS: ReadonlyArray<readonly [string, () => unknown]> = [
  [
    'a revoked Proxy',
    () => {
      const revocable = Proxy.revocable({}, {});
      revocable.revoke();
      return revocable.proxy;
    },
  ],
  [
    'an Error whose message getter throws',
    () => {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', {
        get() {
          throw new Error('message getter throws');
        },
      });
      return error;
    },
  ],
];
