import { expect } from 'chai';
import { JSON_ESCAPE_CASES } from './support/json-escape-cases';
import { jsonString } from '../../lib/relay/json-string';
import { mulberry32 } from '../../bench/transcript-content';

/** Code units a string may hold, weighted towards the ones JSON escapes and the surrogates. */
const UNITS = [0x41, 0x7a, 0x20, 0x7e, 0x7f, 0xe9, 0x4e2d, 0x2028, 0x2029, 0xfeff, 0x22, 0x5c, 0x2f, 0x00, 0x0a, 0x1f, 0xd83e, 0xdd80, 0xd800, 0xdbff, 0xdc00, 0xdfff];

describe('jsonString', () => {
  it('writes what JSON.stringify writes for plain, escaped and surrogate strings (named cases)', () => {
    const cases = JSON_ESCAPE_CASES;
    for (const value of cases) expect(jsonString(value), JSON.stringify(value)).to.equal(JSON.stringify(value));
  });

  it('writes what JSON.stringify writes for 20,000 random strings (seed 0x7e57)', () => {
    const next = mulberry32(0x7e57);
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(next() * 12);
      let value = '';
      for (let k = 0; k < length; k++) value += String.fromCharCode(UNITS[Math.floor(next() * UNITS.length)] as number);
      expect(jsonString(value), JSON.stringify(value)).to.equal(JSON.stringify(value));
    }
  });
});
