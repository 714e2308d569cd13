import { mediaPart, unknownPart } from '../../parts/factories';
import type { MessagePart, OpaquePayload } from '../../parts/types';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import { stringifyJson } from '../../wire/stringify-json';

const PROVIDER = 'google';

/** Part fields that qualify the part's data rather than being it. */
const QUALIFIERS: ReadonlySet<string> = new Set(['thought', 'thoughtSignature', 'partMetadata', 'videoMetadata', 'mediaResolution']);

/**
 * A Gemini content part that is neither text, thought text nor a function call, as a whole part:
 * `inlineData` {mimeType, data} as a `media` part (the base64 data as a string, `displayName` as
 * its name, the part's thought signature as its payload); anything else (`toolCall`,
 * `toolResponse`, `executableCode`, `codeExecutionResult`, `functionResponse`, `fileData`, a
 * thought signature alone …) as an `unknown` part whose kind is the part's data field
 * (`thoughtSignature` for a signature alone) and whose rawJson is the whole part, signature
 * included, as the API takes it back. Null for a part that holds nothing (`{}`, `{thought: true}`).
 * A thought image (`thought: true`) stays an `unknown` part: it is not answer content.
 */
export function geminiPartOf(part: JsonObject, signature: OpaquePayload | undefined): MessagePart | null {
  const inline = part.inlineData;
  if (isJsonObject(inline) && part.thought !== true && typeof inline.mimeType === 'string' && typeof inline.data === 'string') {
    const name = typeof inline.displayName === 'string' ? inline.displayName : null;
    return mediaPart({ id: null, mimeType: inline.mimeType, name, dataKind: 'string', data: inline.data }, { payload: signature ?? null });
  }
  let kind: string | null = null;
  for (const key of Object.keys(part)) {
    if (!QUALIFIERS.has(key) && part[key] !== null && part[key] !== undefined) {
      kind = key;
      break;
    }
  }
  if (kind === null) {
    if (signature === undefined) return null;
    kind = 'thoughtSignature';
  }
  return unknownPart(PROVIDER, kind, stringifyJson(part) ?? '{}');
}
