import { expect } from 'chai';
import { PartialArgsAssembler } from '../../../lib/providers/gemini/partial-args-assembler';

/** Applies the args in order and returns the fragments (closing one included) and the assembled JSON. */
function assemble(args: Array<Record<string, unknown>>): { fragments: string[]; json: string } {
  const assembler = new PartialArgsAssembler();
  const fragments = args.map((arg) => assembler.apply(arg)).filter((fragment) => fragment !== '');
  const closing = assembler.close();
  if (closing !== '') fragments.push(closing);
  return { fragments, json: assembler.toJson() };
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
    const { fragments, json } = assemble([{ jsonPath: '$.q', stringValue: 'say "hi"\n', willContinue: true }, { jsonPath: '$.q', stringValue: '' }]);
    expect(json).to.equal('{"q":"say \\"hi\\"\\n"}');
    expect(fragments.join('')).to.equal(json);
  });

  it('fills skipped array indexes with null', () => {
    const { fragments, json } = assemble([{ jsonPath: '$.a[1]', numberValue: 7 }]);
    expect([json, fragments.join('')]).to.deep.equal(['{"a":[null,7]}', '{"a":[null,7]}']);
  });

  it('stops writing fragments when a path goes back in document order, and still assembles the arguments exactly', () => {
    const { fragments, json } = assemble([
      { jsonPath: '$.a[1]', numberValue: 1 },
      { jsonPath: '$.a[0]', numberValue: 0 },
    ]);
    expect(json).to.equal('{"a":[0,1]}');
    expect(fragments).to.deep.equal(['{"a":[null,1']);
  });

  it('keeps `__proto__` an ordinary key', () => {
    const { json } = assemble([{ jsonPath: '$.__proto__.x', stringValue: 'y' }]);
    expect(json).to.equal('{"__proto__":{"x":"y"}}');
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
  });

  it('ignores values without a readable path or value', () => {
    const { fragments, json } = assemble([{ jsonPath: 'city', stringValue: 'x' }, { jsonPath: '$.city' }, { stringValue: 'x' }, { jsonPath: '$[0]', stringValue: 'x' }]);
    expect([fragments, json]).to.deep.equal([[], '{}']);
  });

  it('gives "{}" and no fragment when nothing arrived', () => {
    expect(assemble([])).to.deep.equal({ fragments: [], json: '{}' });
  });

  it('starts from whole arguments given up front, without fragments for them', () => {
    const assembler = new PartialArgsAssembler();
    assembler.seed({ a: 1 });
    expect([assembler.apply({ jsonPath: '$.b', stringValue: 'x' }), assembler.close(), assembler.toJson()]).to.deep.equal(['', '', '{"a":1,"b":"x"}']);
  });
});
