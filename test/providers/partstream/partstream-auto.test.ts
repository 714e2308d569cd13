import { expect } from 'chai';
import { consumeStream } from '../../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../../lib/driver/stream-options';
import { loggingHandler } from '../../relay/support/callback-log';

// `format: 'auto'` recognises a relay body by its `x-partstream-wire: 1` header as well as by a
// first `event: start` (SPEC §13). A body whose first event is not `start` tells the two apart:
// read as partstream it is a relay stream broken at its first event (`malformed`); sniffed, it is
// no format at all (`format`).

const NOT_START_FIRST = 'id: 1\nevent: meta\ndata: {"id":"m1"}\n\n';

function response(body: string, headers: Record<string, string>): Response {
  return new Response(body, { headers: { 'content-type': 'text/event-stream', ...headers } });
}

function failureKind(outcome: StreamOutcome): string | undefined {
  expect(outcome.status).to.equal('failed');
  return ((outcome as Extract<StreamOutcome, { status: 'failed' }>).error as Error & { kind?: string }).kind;
}

describe("consumeStream format 'auto': a relay response's header", () => {
  it('reads a Response with x-partstream-wire: 1 as the partstream format, before any byte', async () => {
    const outcome = await consumeStream(response(NOT_START_FIRST, { 'x-partstream-wire': '1' }), loggingHandler());
    expect(failureKind(outcome)).to.equal('malformed');
  });

  it('sniffs as before without the header, or with another version', async () => {
    expect(failureKind(await consumeStream(response(NOT_START_FIRST, {}), loggingHandler()))).to.equal('format');
    expect(failureKind(await consumeStream(response(NOT_START_FIRST, { 'x-partstream-wire': '2' }), loggingHandler()))).to.equal('format');
  });

  it('leaves a named format alone', async () => {
    const outcome = await consumeStream(response(NOT_START_FIRST, { 'x-partstream-wire': '1' }), loggingHandler(), { format: 'anthropic' });
    expect(failureKind(outcome)).to.not.equal('malformed');
  });
});
