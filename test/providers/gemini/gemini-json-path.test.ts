import { expect } from 'chai';
import { parseJsonPath } from '../../../lib/providers/gemini/gemini-json-path';

describe('parseJsonPath', () => {
  const table: Array<[string, Array<string | number> | null]> = [
    ['$', []],
    ['$.country', ['country']],
    ['$.recipe.ingredients[0].amount', ['recipe', 'ingredients', 0, 'amount']],
    ['$.operations[12]', ['operations', 12]],
    ["$['key.with dots']", ['key.with dots']],
    ['$["quoted"][3]', ['quoted', 3]],
    ["$['it\\'s']", ["it's"]],
    ['country', null],
    ['$.', null],
    ['$..a', null],
    ['$[x]', null],
    ['$[1', null],
    ["$['open", null],
  ];
  for (const [path, expected] of table) {
    it(`parses ${JSON.stringify(path)} to ${JSON.stringify(expected)}`, () => {
      expect(parseJsonPath(path)).to.deep.equal(expected);
    });
  }
});
