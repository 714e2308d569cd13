import fc from 'fast-check';
import { mediaPart, reasoningPart, textPart, toolCallPart, toolResultPart, unknownPart } from '../../lib/parts/factories';
import type { MessagePart, OpaquePayload } from '../../lib/parts/types';

const key = fc.string().filter((k) => k !== '__proto__');
const nullableString = fc.option(fc.string(), { nil: null });

/** Any payload, or null. */
export const payloadArb: fc.Arbitrary<OpaquePayload | null> = fc.option(fc.record({ provider: fc.string(), kind: fc.string(), data: fc.string() }), { nil: null });

/** Any attributes (plain objects of strings). */
export const attributesArb: fc.Arbitrary<Record<string, string>> = fc.dictionary(key, fc.string(), {
  noNullPrototype: true,
  maxKeys: 4,
});

const options = fc.record({ payload: payloadArb, attributes: attributesArb });

/** Any valid part of the five leaf kinds (no tool results). */
export const leafPartArb: fc.Arbitrary<MessagePart> = fc.oneof(
  fc.tuple(fc.string(), options).map(([text, o]) => textPart(text, o)),
  fc.tuple(nullableString, nullableString, options).map(([text, summary, o]) => reasoningPart(text, { ...o, summary })),
  fc.tuple(fc.record({ id: nullableString, type: nullableString, name: nullableString, arguments: nullableString }), options).map(([call, o]) => toolCallPart(call, o)),
  fc
    .tuple(nullableString, fc.string(), nullableString, fc.uint8Array({ maxLength: 16 }), options)
    .map(([id, mimeType, name, data, o]) => mediaPart({ id, mimeType, name, dataKind: 'bytes', data }, o)),
  fc
    .tuple(nullableString, fc.string(), nullableString, fc.constantFrom('string' as const, 'url' as const), fc.string(), options)
    .map(([id, mimeType, name, dataKind, data, o]) => mediaPart({ id, mimeType, name, dataKind, data }, o)),
  fc.tuple(fc.string(), fc.string(), fc.json(), options).map(([p, k, raw, o]) => unknownPart(p, k, raw, o)),
);

/** Any valid part, tool results included (their content one level deep). */
export const partArb: fc.Arbitrary<MessagePart> = fc.oneof(
  { weight: 5, arbitrary: leafPartArb },
  {
    weight: 1,
    arbitrary: fc
      .tuple(nullableString, nullableString, fc.array(leafPartArb, { maxLength: 3 }), fc.boolean(), options)
      .map(([id, name, content, isError, o]) => toolResultPart({ id, name, content, isError }, o)),
  },
);
