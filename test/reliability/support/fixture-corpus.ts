import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TextWireFormat as WireFormat } from '../../support/transcripts';
import { OWN_TRANSCRIPTS } from '../../support/own-transcripts';
import { FIXTURES_DIR, FIXTURES_MANIFEST, recordedSkipNote } from '../../support/recorded-fixtures';

export { FIXTURES_DIR };

/** One body the reliability suite replays: a hand-written transcript or a recorded fixture. */
export interface CorpusEntry {
  /** `own/<format>/<name>` for a hand-written transcript, else the path inside the fixtures folder, e.g. `anthropic/json-tool.sse`. */
  readonly file: string;
  readonly format: WireFormat;
  readonly bytes: Uint8Array;
}

interface ManifestEntry {
  readonly file: string;
  readonly format: WireFormat;
}

let cached: readonly CorpusEntry[] | null = null;

/**
 * The suffix of a fuzz suite's title: empty when the recorded fixtures are present, else a note
 * (also printed) that the suite runs over the hand-written transcripts only.
 */
export function corpusNote(suite: string): string {
  return recordedSkipNote(suite);
}

/**
 * Every hand-written transcript (always), then every recorded fixture in manifest order (when
 * the fixtures folder is present), each with its bytes.
 */
export function corpus(): readonly CorpusEntry[] {
  if (cached !== null) return cached;
  const own: CorpusEntry[] = OWN_TRANSCRIPTS.map(({ file, format, bytes }) => ({ file, format, bytes }));
  if (!fs.existsSync(FIXTURES_MANIFEST)) return (cached = own);
  const entries = JSON.parse(fs.readFileSync(FIXTURES_MANIFEST, 'utf8')) as ManifestEntry[];
  const recorded = entries.map((entry) => ({
    file: entry.file,
    format: entry.format,
    bytes: new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, entry.file))),
  }));
  return (cached = [...own, ...recorded]);
}
