/**
 * The JSON text of `value`, exactly as `JSON.stringify(value)` writes it. The common string (no
 * quote, backslash, control character or lone surrogate) is only wrapped in quotes, without the
 * call into the engine's serializer; any other goes to `JSON.stringify` itself.
 */
export function jsonString(value: string): string {
  for (let at = 0; at < value.length; at++) {
    const code = value.charCodeAt(at);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return JSON.stringify(value);
    if (code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair passes as it is; a lone surrogate is escaped (well-formed JSON.stringify).
      const next = value.charCodeAt(at + 1);
      if (code >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) return JSON.stringify(value);
      at++;
    }
  }
  return `"${value}"`;
}
