import { chooseFormat } from '../../lib/driver/format-choice';
import { textDecoderOf } from '../../lib/driver/wire-plan';
import { bodyFormatNamed } from '../../lib/providers/registry';
import type { AnyProviderDescriptor } from '../../lib/providers/provider-descriptor';
import { expect } from 'chai';
import fc from 'fast-check';
import type { FrameDecoder } from '../../lib/wire/frame-decoder';
import type { FormatOption } from '../../lib/driver/format-choice';
import { createWireDecoder, type WireFrame } from '../../lib/wire/wire-decoder';

// The driver reads a body through the wire decoder until the format is known, then calls the
// format's own decoder (`inner`) directly. Whatever the body and however it is split, that must
// decode exactly as feeding every piece through the wire decoder does.

interface Decoded {
  readonly frames: unknown[];
  readonly truncatedFrame: boolean;
  readonly ended: boolean;
  readonly failure: string | null;
  readonly format: string | null;
}

/** Frames as plain data (an SSE frame's fields, or an NDJSON line's), comparable with deep equality. */
function plain(frame: WireFrame): unknown {
  if ('data' in frame) return { event: frame.event, data: frame.data };
  return frame.ok ? { ok: true, value: frame.value } : { ok: false, text: frame.text };
}

/** The wire decoder the driver makes for `format`. */
function wireDecoder(format: FormatOption, max: number): ReturnType<typeof createWireDecoder> {
  const choice = chooseFormat(format, undefined);
  return createWireDecoder({ expected: choice.expected, candidates: choice.candidates }, max, (name) => textDecoderOf(bodyFormatNamed(name) as AnyProviderDescriptor, max));
}

/** Feeds every piece through the wire decoder (the public path). */
function throughWrapper(format: FormatOption, max: number, pieces: readonly string[]): Decoded {
  const decoder = wireDecoder(format, max);
  const frames: unknown[] = [];
  for (const piece of pieces) frames.push(...decoder.feed(piece).map(plain));
  const end = decoder.flush();
  frames.push(...end.frames.map(plain));
  return { frames, truncatedFrame: end.truncatedFrame, ended: decoder.ended, failure: decoder.failure?.message ?? null, format: decoder.format };
}

/** Feeds through the wire decoder until its format is known, then through `inner` (the driver's path). */
function switchingToInner(format: FormatOption, max: number, pieces: readonly string[]): Decoded {
  const wire = wireDecoder(format, max);
  let decoder: FrameDecoder<WireFrame> = wire;
  const frames: unknown[] = [];
  for (const piece of pieces) {
    frames.push(...decoder.feed(piece).map(plain));
    if (decoder === wire && wire.inner !== null) decoder = wire.inner;
  }
  const end = decoder.flush();
  frames.push(...end.frames.map(plain));
  return { frames, truncatedFrame: end.truncatedFrame, ended: decoder.ended, failure: decoder.failure?.message ?? null, format: wire.format };
}

/** Pieces of bodies in every format, damaged ones and stray text among them. */
const fragment = fc.oneof(
  fc.constantFrom(
    'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}\n\n',
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"y"}\n\n',
    'data: {"candidates":[{"content":{"parts":[{"text":"z"}]}}]}\r\n\r\n',
    '{"model":"m","message":{"role":"assistant","content":"o"},"done":false}\n',
    '{"model":"m","done":true,"done_reason":"stop"}\r\n',
    'data: [DONE]\n\n',
    ': keep-alive\n\n',
    'id: 7\nretry: 10\n',
    'data:',
    '\r',
    '\n',
    '{',
    'data: {"a":',
    '\uFEFF',
    '<html>',
  ),
  fc.string({ maxLength: 12 }),
);

describe('wire decoder: reading through inner once the format is known', () => {
  it('decodes every body, however split, exactly as the wire decoder does', () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 8 }),
        fc.constantFrom<FormatOption>('auto', 'openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama'),
        fc.constantFrom(Infinity, 16, 64, 200),
        (parts, cuts, format, max) => {
          const body = parts.join('');
          const offsets = [...new Set(cuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let at = 0;
          for (const offset of [...offsets, body.length]) {
            pieces.push(body.slice(at, offset));
            at = offset;
          }
          expect(switchingToInner(format, max, pieces)).to.deep.equal(throughWrapper(format, max, pieces));
        },
      ),
      { numRuns: 2000, seed: 0x17 },
    );
  });

  it('has an inner decoder once, and only once, the format is known', () => {
    const decoder = wireDecoder('auto', Infinity);
    expect(decoder.inner).to.equal(null);
    decoder.feed('data: {"choices":[{"delta":{"content":"hi"}}]}\n\n');
    expect(decoder.format).to.equal('openai-chat');
    expect(decoder.inner).to.not.equal(null);
  });
});
