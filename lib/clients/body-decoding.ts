import type { ChunkReader } from '../transport/byte-source';
import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import { MAX_CAUSE_DEPTH } from './secrets';

/** zlib's codes (`Z_DATA_ERROR`, `Z_BUF_ERROR` …) and brotli's (`ERR__ERROR_FORMAT_PADDING_1` …). */
const DECODER_CODE = /^(Z_[A-Z_]+|ERR__ERROR_[A-Z0-9_]+|ERR_BROTLI_[A-Z_]+)$/;

/**
 * The decompressor's own error in a failed read's cause chain (fetch reports a corrupt gzip or
 * brotli body as `terminated`, caused by zlib's error), or null when the read failed otherwise.
 */
export function decodingFailure(error: unknown): Error | null {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    try {
      const code: unknown = (current as { code?: unknown }).code;
      if (typeof code === 'string' && DECODER_CODE.test(code)) return current;
      current = current.cause;
    } catch {
      return null;
    }
  }
  return null;
}

/** A response's `content-encoding`, shown safely in a message (the server chose it: printable and short). */
export function describeEncoding(response: Response): string {
  const encoding = response.headers.get('content-encoding') ?? 'none';
  const printable = encoding.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

/**
 * A reader on a response body that turns a read failing because the body cannot be decompressed
 * into a `network` StreamError saying so, with the decompressor's error as `cause` (a corrupt gzip
 * body is not a dropped connection). The reader is returned as is for a body without
 * `content-encoding`, so an ordinary stream pays nothing per chunk.
 */
export function reportDecodingErrors(reader: ChunkReader, response: Response, provider: string): ChunkReader {
  if (response.headers.get('content-encoding') === null) return reader;
  const encoding = describeEncoding(response);
  const onError = (error: unknown): never => {
    const failure = decodingFailure(error);
    if (failure === null) throw error;
    throw new StreamError('network', `The response body from ${provider} could not be decoded (content-encoding ${encoding}): ${describeError(failure)}`, {
      cause: failure,
    });
  };
  return {
    read: () => reader.read().then(undefined, onError),
    cancel: (reason) => reader.cancel(reason),
  };
}
