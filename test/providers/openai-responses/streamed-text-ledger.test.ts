import { expect } from 'chai';
import { StreamedTextLedger } from '../../../lib/providers/openai-responses/streamed-text-ledger';

describe('StreamedTextLedger#settle', () => {
  it('returns an empty tail when the deltas carried the whole text', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('a', 'Hel');
    ledger.record('a', 'lo');
    expect(ledger.settle('a', 'Hello')).to.equal('');
  });

  it('returns the tail the deltas did not carry', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('a', 'Got');
    expect(ledger.settle('a', 'Got it')).to.equal(' it');
  });

  it('returns the whole text when no delta was recorded', () => {
    expect(new StreamedTextLedger().settle('a', 'All')).to.equal('All');
  });

  it('returns null when the deltas are not a prefix of the text', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('a', 'Hel');
    ledger.record('a', 'p');
    expect(ledger.settle('a', 'Hello')).to.equal(null);
  });

  it('keeps keys apart and forgets a key once settled', () => {
    const ledger = new StreamedTextLedger();
    ledger.record('a', 'x');
    ledger.record('b', 'y');
    expect([ledger.settle('a', 'x'), ledger.settle('b', 'yz'), ledger.settle('a', 'x')]).to.deep.equal(['', 'z', 'x']);
  });
});
