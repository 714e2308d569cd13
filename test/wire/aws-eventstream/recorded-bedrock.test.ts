import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mulberry32 } from '../../../bench/transcript-content';
import { createEventStreamDecoder, eventStreamPreludeVerdict, type EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import { splitAt } from '../../support/chunk-sources';
import { noteSkipped } from '../../support/skips';
import { awsDecodeAll, expectedFrame, plainFrame, type ExpectedFrame } from './support/aws-codec';

/** The recorded Amazon Bedrock bodies, beside the repository (read in place, never copied into it). */
const CORPUS_DIR = path.resolve(__dirname, '../../..', '../shared/corpus/bedrock');
const MANIFEST = path.join(CORPUS_DIR, 'manifest.json');
const ABSENT = `no recorded Bedrock corpus at ${CORPUS_DIR} (CI=true makes that a failure)`;

interface ManifestStream {
  readonly file: string;
  readonly http: { readonly contentType: string };
  readonly frames: number;
  readonly events: readonly { readonly type: string; readonly messageType: string; readonly payload: unknown }[];
}

function streams(): readonly ManifestStream[] {
  if (!fs.existsSync(MANIFEST)) return [];
  return (JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { streams: ManifestStream[] }).streams;
}

function read(stream: ManifestStream): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(CORPUS_DIR, 'streams', stream.file)));
}

function decodeAll(chunks: readonly Uint8Array[]): { frames: ExpectedFrame[]; failure: Error | null; truncatedFrame: boolean } {
  const decoder = createEventStreamDecoder(64 * 2 ** 20);
  const frames: EventStreamFrame[] = [];
  for (const chunk of chunks) frames.push(...decoder.feed(chunk));
  const end = decoder.flush();
  return { frames: [...frames, ...end.frames].map(plainFrame), failure: decoder.failure, truncatedFrame: end.truncatedFrame };
}

const ALL = streams();
const BINARY = ALL.filter((s) => s.http.contentType === 'application/vnd.amazon.eventstream');

describe(`recorded Amazon Bedrock bodies (../shared/corpus/bedrock)${ALL.length === 0 ? ' (skipped: absent)' : ''}`, () => {
  before(function () {
    if (ALL.length > 0) return;
    if (process.env.CI === 'true') throw new Error(`Expected the recorded Bedrock corpus at ${MANIFEST}: CI=true requires it.`);
    noteSkipped(ABSENT, 'recorded Amazon Bedrock bodies');
    this.skip();
  });

  it('holds binary event-stream bodies', () => {
    expect(BINARY.length).to.be.greaterThan(20);
  });

  for (const stream of BINARY) {
    it(`${stream.file}: decodes without failure to the manifest's events and the AWS codec's frames, whole and split (seed 31)`, () => {
      const bytes = read(stream);
      const expected = awsDecodeAll(bytes).map(expectedFrame);
      const whole = decodeAll([bytes]);
      expect(whole.failure).to.equal(null);
      expect(whole.truncatedFrame).to.equal(false);
      expect(whole.frames).to.have.length(stream.frames);
      expect(whole.frames.map((f) => [f.messageType, f.eventType])).to.deep.equal(stream.events.map((e) => [e.messageType, e.type]));
      expect(whole.frames.map((f) => (f.payload.ok ? f.payload.value : f.payload.text))).to.deep.equal(stream.events.map((e) => e.payload));
      expect(whole.frames).to.deep.equal(expected);
      const random = mulberry32(31);
      for (let round = 0; round < 5; round++) {
        const cuts = Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * bytes.length));
        expect(decodeAll(splitAt(bytes, cuts)).frames, `round ${round}`).to.deep.equal(expected);
      }
    });
  }

  it('recognises every binary body by its prelude, and neither JSON error body', () => {
    for (const stream of ALL) {
      const verdict = eventStreamPreludeVerdict(read(stream).subarray(0, 12));
      expect(verdict, stream.file).to.equal(stream.http.contentType === 'application/vnd.amazon.eventstream' ? 'eventstream' : 'not');
    }
  });
});
