import { expect } from 'chai';
import { PartialArgsAssembler } from '../../../lib/providers/gemini/partial-args-assembler';

/**
 * Applies the args in order and returns the fragments (closing one included), the assembled JSON
 * and the positions of the args that were refused.
 */
function assemble(args: Array<Record<string, unknown>>): { fragments: string[]; json: string; refused: number[] } {
  const assembler = new PartialArgsAssembler();
  const fragments: string[] = [];
  const refused: number[] = [];
  args.forEach((arg, position) => {
    const fragment = assembler.apply(arg);
    if (fragment === null) refused.push(position);
    else if (fragment !== '') fragments.push(fragment);
  });
  const closing = assembler.close();
  if (closing !== '') fragments.push(closing);
  return { fragments, json: assembler.toJson(), refused };
}

describe('PartialArgsAssembler', () => {
  it('appends string pieces per path and closes the string at the piece without willContinue', () => {
    const { fragments, json } = assemble([
      { jsonPath: '$.purpose', stringValue: 'to know', willContinue: true },
      { jsonPath: '$.purpose', stringValue: ' what to wear', willContinue: true },
      { jsonPath: '$.purpose', stringValue: '' },
    ]);
    expect(fragments).to.deep.equal(['{"purpose":"to know', ' what to wear', '"', '}']);
    expect(json).to.equal('{"purpose":"to know what to wear"}');
  });

  it('builds nested objects and arrays from their paths, in arrival order', () => {
    const { fragments, json } = assemble([
      { jsonPath: '$.recipe.ingredients[0].amount', stringValue: '16 oz' },
      { jsonPath: '$.recipe.ingredients[0].name', stringValue: 'Noodles' },
      { jsonPath: '$.recipe.ingredients[1].amount', stringValue: '1 lb' },
      { jsonPath: '$.recipe.name', stringValue: 'Lasagna' },
      { jsonPath: '$.recipe.steps[0]', stringValue: 'Preheat.' },
      { jsonPath: '$.recipe.steps[1]', stringValue: 'Bake.' },
    ]);
    const expected = '{"recipe":{"ingredients":[{"amount":"16 oz","name":"Noodles"},{"amount":"1 lb"}],"name":"Lasagna","steps":["Preheat.","Bake."]}}';
    expect(json).to.equal(expected);
    expect(fragments.join('')).to.equal(expected);
  });

  it('writes numbers, booleans and nulls as JSON literals', () => {
    const { fragments, json } = assemble([
      { jsonPath: '$.price', numberValue: 0.5 },
      { jsonPath: '$.ok', boolValue: false },
      { jsonPath: '$.none', nullValue: 'NULL_VALUE' },
    ]);
    expect(json).to.equal('{"price":0.5,"ok":false,"none":null}');
    expect(fragments.join('')).to.equal(json);
  });

  it('escapes string pieces as JSON', () => {
    const { fragments, json } = assemble([
      { jsonPath: '$.q', stringValue: 'say "hi"\n', willContinue: true },
      { jsonPath: '$.q', stringValue: '' },
    ]);
    expect(json).to.equal('{"q":"say \\"hi\\"\\n"}');
    expect(fragments.join('')).to.equal(json);
  });

  it('refuses an index that skips ahead of its array, and places nothing for it', () => {
    const { fragments, json, refused } = assemble([
      { jsonPath: '$.a[0]', numberValue: 0 },
      { jsonPath: '$.a[2]', numberValue: 2 },
      { jsonPath: '$.b[1].c', numberValue: 1 },
      { jsonPath: '$.a[1]', numberValue: 1 },
    ]);
    expect({ fragments, json, refused }).to.deep.equal({ fragments: ['{"a":[0', ',1', ']}'], json: '{"a":[0,1]}', refused: [1, 2] });
  });

  it('stops writing fragments when a path goes back to a closed container, and still assembles the arguments exactly', () => {
    const { fragments, json, refused } = assemble([
      { jsonPath: '$.a[0]', numberValue: 0 },
      { jsonPath: '$.b', numberValue: 1 },
      { jsonPath: '$.a[1]', numberValue: 2 },
    ]);
    expect({ fragments, json, refused }).to.deep.equal({ fragments: ['{"a":[0', '],"b":1'], json: '{"a":[0,2],"b":1}', refused: [] });
  });

  it('refuses a second value for a member that has one, unless it continues a string', () => {
    const { fragments, json, refused } = assemble([
      { jsonPath: '$.n', numberValue: 1 },
      { jsonPath: '$.n', numberValue: 2 },
      { jsonPath: '$.s', stringValue: 'a' },
      { jsonPath: '$.s', stringValue: 'b' },
      { jsonPath: '$.n.x', stringValue: 'c' },
    ]);
    expect({ json, refused }).to.deep.equal({ json: '{"n":1,"s":"ab"}', refused: [1, 4] });
    expect(fragments).to.deep.equal(['{"n":1', ',"s":"a"']);
  });

  it('keeps `__proto__` an ordinary key', () => {
    const { json } = assemble([{ jsonPath: '$.__proto__.x', stringValue: 'y' }]);
    expect(json).to.equal('{"__proto__":{"x":"y"}}');
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
  });

  it('refuses values without a readable path or value', () => {
    const { fragments, json, refused } = assemble([{ jsonPath: 'city', stringValue: 'x' }, { jsonPath: '$.city' }, { stringValue: 'x' }, { jsonPath: '$[0]', stringValue: 'x' }]);
    expect({ fragments, json, refused }).to.deep.equal({ fragments: [], json: '{}', refused: [0, 1, 2, 3] });
  });

  it('gives "{}" and no fragment when nothing arrived', () => {
    expect(assemble([])).to.deep.equal({ fragments: [], json: '{}', refused: [] });
  });

  it('starts from whole arguments given up front, without fragments for them', () => {
    const assembler = new PartialArgsAssembler();
    assembler.seed({ a: 1 });
    expect([assembler.apply({ jsonPath: '$.b', stringValue: 'x' }), assembler.close(), assembler.toJson()]).to.deep.equal(['', '', '{"a":1,"b":"x"}']);
  });
});
