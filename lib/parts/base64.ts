/**
 * Base64 for byte arrays on every runtime (browsers, workers, Deno, Bun, Node) through the WHATWG
 * `btoa` / `atob` globals, since Node's `Buffer` exists only on Node.
 */

/**
 * Bytes per `String.fromCharCode` call: small enough to stay far below any engine's argument
 * limit, large enough that the pieces are few. Building the binary string piecewise and joining
 * once keeps the encoding linear in the number of bytes.
 */
const CHUNK = 0x8000;

/** The standard base64 (RFC 4648 §4, `+/`, `=` padding) of `bytes`; `""` for no bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    pieces.push(String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK) as unknown as number[]));
  }
  return btoa(pieces.join(''));
}

/**
 * The bytes that the standard base64 `text` encodes. The caller checks the text's shape first
 * (`atob` also accepts spaces and missing padding); text that is not base64 at all throws the
 * `DOMException` `atob` throws.
 */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
