import { expect } from 'chai';

/**
 * Calls `run` and returns what its promise rejects with. Fails the test when `run` throws
 * synchronously (a usage error must come through the promise, where `.catch()` sees it), when it
 * returns something other than a promise, or when the promise resolves.
 */
export async function rejectionOf(run: () => unknown): Promise<unknown> {
  let returned: unknown;
  try {
    returned = run();
  } catch (error) {
    expect.fail(`Expected a rejected promise, got a synchronous throw: ${String(error)}`);
  }
  expect(returned).to.be.instanceOf(Promise);
  return (returned as Promise<unknown>).then(
    (value) => expect.fail(`Expected a rejected promise, got one resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

/** Expects `run` to return a promise rejected with a `type` whose message includes `message` (as chai's `to.throw(type, message)`). */
export async function expectRejection(run: () => unknown, type: new (...args: never[]) => Error, message?: string): Promise<void> {
  const error = await rejectionOf(run);
  expect(error).to.be.instanceOf(type);
  if (message !== undefined) expect((error as Error).message).to.include(message);
}
