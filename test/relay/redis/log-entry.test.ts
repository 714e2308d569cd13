import { expect } from 'chai';
import { batchFromEntry, logEntryFields } from '../../../lib/relay/redis/log-entry';
import { compareStreamIds } from '../../../lib/relay/redis/stream-ids';
import { stopCommandFields, stopCommandFrom, stopFromJson, stopToJson } from '../../../lib/relay/redis/stop-codec';
import { trimBatch } from '../../../lib/relay/redis/trim-batch';
import { RelayError } from '../../../lib/relay/response-store';
import { batchOf, eventsText } from '../support/store-conformance';

function storeErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return RelayError.isInstance(error) ? `${error.kind}: ${error.message}` : `not a RelayError: ${String(error)}`;
  }
  return 'no error';
}

describe('Redis log entries', () => {
  it('stores a batch as id 0-<first> with fields l, t, w and reads it back', () => {
    const batch = batchOf(4, 6, true);
    expect(logEntryFields(batch)).to.deep.equal(['l', '6', 't', '1', 'w', batch.text]);
    expect(batchFromEntry('log', { id: '0-4', fields: logEntryFields(batch) as string[] })).to.deep.equal(batch);
  });

  it('turns every malformed entry into RelayError store', () => {
    const good = ['l', '2', 't', '0', 'w', 'x'];
    const cases: [string, string[]][] = [
      ['1-1', good],
      ['0-0', good],
      ['0-99999999999999999', good],
      ['0-3', good],
      ['0-1', ['t', '0', 'w', 'x']],
      ['0-1', ['l', '2.5', 't', '0', 'w', 'x']],
      ['0-1', ['l', '2', 't', 'yes', 'w', 'x']],
      ['0-1', ['l', '2', 't', '0']],
    ];
    for (const [id, fields] of cases)
      expect(
        storeErrorOf(() => batchFromEntry('log', { id, fields })),
        `${id} ${fields.join(' ')}`,
      ).to.match(/^store: Malformed entry/);
  });

  it('cuts a batch at an event and only there', () => {
    const batch = batchOf(10, 13);
    expect(trimBatch(batch, 10)).to.equal(batch);
    expect(trimBatch(batch, 12)).to.deep.equal({ first: 12, last: 13, terminal: false, text: eventsText(12, 13) });
    expect(trimBatch(batchOf(1, 12), 2).text).to.equal(eventsText(2, 12));
    expect(storeErrorOf(() => trimBatch({ first: 1, last: 3, terminal: false, text: 'garbage' }, 2))).to.match(/^store: .*holds no event 2/);
  });

  it('compares stream ids as unsigned 64-bit pairs, exactly', () => {
    expect(compareStreamIds('0-9', '0-10')).to.be.lessThan(0);
    expect(compareStreamIds('1-0', '0-18446744073709551615')).to.be.greaterThan(0);
    expect(compareStreamIds('0-18446744073709551614', '0-18446744073709551615')).to.be.lessThan(0);
    expect(compareStreamIds('0-007', '0-7')).to.equal(0);
  });
});

describe('Redis stop requests', () => {
  const request = { stopId: 's1', by: 'stop', reason: null, at: '2026-01-02T03:04:05.000Z' };

  it('round-trips through the meta hash and the control stream', () => {
    expect(stopFromJson(stopToJson(request))).to.deep.equal(request);
    expect(stopCommandFrom(stopCommandFields('r1', request))).to.deep.equal({ responseId: 'r1', request });
    expect(stopCommandFrom(stopCommandFields('r1', { ...request, reason: 'why' }))?.request.reason).to.equal('why');
  });

  it('reads hostile stored values as no stop, touching no prototype', () => {
    for (const json of ['{', '[]', 'null', '{"stopId":1,"by":"b","at":"t"}', '{"__proto__":{"polluted":1},"stopId":"s","by":"b","at":"t","reason":5}']) {
      expect(stopFromJson(json), json).to.equal(null);
    }
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(stopCommandFrom(['cmd', 'stop', 'r', 'bad id', 'stopId', 's', 'by', 'b', 'at', 't'])).to.equal(null);
    expect(stopCommandFrom(['cmd', 'other', 'r', 'r1', 'stopId', 's', 'by', 'b', 'at', 't'])).to.equal(null);
  });
});
