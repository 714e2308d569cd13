import { expect } from 'chai';
import { StreamedTextLedger } from '../../../lib/providers/openai-responses/streamed-text-ledger';

describe('StreamedTextLedger#settle', () => {
  it('returns an empty tail when the deltas carried the whole text', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'Hel');
    ledger.record('t', 'a', 0, 'lo');
    expect(ledger.settle('t', 'a', 0, 'Hello')).to.equal('');
  });

  it('returns the tail the deltas did not carry', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'Got');
    expect(ledger.settle('t', 'a', 0, 'Got it')).to.equal(' it');
  });

  it('returns the whole text when no delta was recorded', () => {
    expect(new StreamedTextLedger().settle('t', 'a', 0, 'All')).to.equal('All');
  });

  it('returns null when the deltas are not a prefix of the text', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'Hel');
    ledger.record('t', 'a', 0, 'p');
    expect(ledger.settle('t', 'a', 0, 'Hello')).to.equal(null);
  });

  it('keeps keys apart and forgets a key once settled', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'x');
    ledger.record('t', 'b', 0, 'y');
    expect([ledger.settle('t', 'a', 0, 'x'), ledger.settle('t', 'b', 0, 'yz'), ledger.settle('t', 'a', 0, 'x')]).to.deep.equal(['', 'z', 'x']);
  });

  it('starts a new run for a part recorded again after it was settled', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'old');
    expect(ledger.settle('t', 'a', 0, 'old')).to.equal('');
    ledger.record('t', 'a', 0, 'q');
    expect(ledger.settle('t', 'a', 0, 'q')).to.equal('');
  });

  it('keeps parts apart by kind, item and index, also between consecutive deltas', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('t', 'a', 0, 'x');
    ledger.record('s', 'a', 0, 'y');
    ledger.record('s', 'a', 1, 'z');
    ledger.record('s', 'b', 1, 'w');
    ledger.record('t', 'a', 0, 'x');
    const settled = [ledger.settle('t', 'a', 0, 'xx!'), ledger.settle('s', 'a', 0, 'y'), ledger.settle('s', 'a', 1, 'z'), ledger.settle('s', 'b', 1, 'w.')];
    expect(settled).to.deep.equal(['!', '', '', '.']);
  });

  it('settles as a plain map of concatenated deltas would, for any sequence of records and settles', () => {
    // The model: each part's deltas joined; settle returns the tail when they are a prefix of the text.
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const kinds = ['t', 's'];
    const items: unknown[] = ['a', 'b', 1, '1'];
    const indexes: unknown[] = [0, 1, '0'];
    for (let round = 0; round < 200; round++) {
      const ledger = new StreamedTextLedger();
      const model = new Map<string, string>();
      for (let step = 0; step < 30; step++) {
        const kind = kinds[Math.floor(random() * kinds.length)];
        const item = items[Math.floor(random() * items.length)];
        const index = indexes[Math.floor(random() * indexes.length)];
        const key = `${kind}|${String(item)}|${String(index)}`;
        if (random() < 0.75) {
          const delta = 'xy'[Math.floor(random() * 2)];
          ledger.record(kind, item, index, delta);
          model.set(key, (model.get(key) ?? '') + delta);
        } else {
          const streamed = model.get(key) ?? '';
          const full = random() < 0.5 ? `${streamed}z` : `y${streamed}`;
          model.delete(key);
          const expected = full.startsWith(streamed) ? full.slice(streamed.length) : null;
          expect(ledger.settle(kind, item, index, full), `round ${round} step ${step}`).to.equal(expected);
        }
      }
    }
  });
});
