import { expect } from 'chai';
import { replyInteger, replyStreamEntries, replyStreamReads, replyString, replyStringPairs } from '../../../lib/relay/redis/reply-shapes';

describe('Redis reply shapes', () => {
  const entries = [
    ['0-1', ['l', '1', 't', '0', 'w', 'a']],
    ['0-2', ['l', '3', 't', '1', 'w', 'b']],
  ];
  const expected = [
    { id: '0-1', fields: ['l', '1', 't', '0', 'w', 'a'] },
    { id: '0-2', fields: ['l', '3', 't', '1', 'w', 'b'] },
  ];

  it('reads an XREAD reply as RESP2 pairs, a RESP3 map as a flat array, a Map and a plain object alike', () => {
    const want = [
      { key: 'k1', entries: expected },
      { key: 'k2', entries: [] },
    ];
    expect(
      replyStreamReads([
        ['k1', entries],
        ['k2', []],
      ]),
    ).to.deep.equal(want);
    expect(replyStreamReads(['k1', entries, 'k2', []])).to.deep.equal(want);
    expect(
      replyStreamReads(
        new Map<string, unknown>([
          ['k1', entries],
          ['k2', []],
        ]),
      ),
    ).to.deep.equal(want);
    expect(replyStreamReads({ k1: entries, k2: [] })).to.deep.equal(want);
    expect(replyStreamReads(null)).to.equal(null);
  });

  it('reads stream entries whose fields come as a flat array, a Map or an object, and Buffers as UTF-8', () => {
    expect(replyStreamEntries(entries)).to.deep.equal(expected);
    expect(
      replyStreamEntries([
        [
          '0-1',
          new Map([
            ['l', '1'],
            ['w', 'é'],
          ]),
        ],
      ]),
    ).to.deep.equal([{ id: '0-1', fields: ['l', '1', 'w', 'é'] }]);
    expect(replyStreamEntries([[Buffer.from('0-1'), { l: Buffer.from('1') }]])).to.deep.equal([{ id: '0-1', fields: ['l', '1'] }]);
    expect(replyStreamEntries(null)).to.deep.equal([]);
  });

  it('keeps a __proto__ field as data and writes to no prototype', () => {
    const pairs = replyStringPairs(['__proto__', '{"polluted":true}', 'owner', 'p']);
    expect(pairs).to.deep.equal(['__proto__', '{"polluted":true}', 'owner', 'p']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('rejects shapes that are not what the command answers', () => {
    expect(() => replyStreamEntries('x')).to.throw(Error, /Expected a list of stream entries/);
    expect(() => replyStreamEntries([['0-1']])).to.throw(Error, /stream entry/);
    expect(() => replyStreamEntries([['0-1', ['l']]])).to.throw(Error, /even number/);
    expect(() => replyStreamReads(['k1'])).to.throw(Error, /even number/);
    expect(() => replyString({})).to.throw(Error, /Expected a string/);
    expect(() => replyInteger('1e3')).to.throw(Error, /Expected an integer/);
    expect(replyInteger(1)).to.equal(1);
    expect(replyInteger('7')).to.equal(7);
  });
});
