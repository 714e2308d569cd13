import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WireFormat } from '../../../lib/providers/types';

/** The recorded provider streams beside the repository (read in place, never copied). */
export const FIXTURES_DIR = path.resolve(__dirname, '../../..', '../shared/fixtures');

/** One recorded body the reliability suite replays. */
export interface CorpusEntry {
  /** Path inside the fixtures folder, e.g. `anthropic/json-tool.sse`. */
  readonly file: string;
  readonly format: WireFormat;
  readonly bytes: Uint8Array;
}

interface ManifestEntry {
  readonly file: string;
  readonly format: WireFormat;
}

let cached: readonly CorpusEntry[] | null = null;

/** True when the recorded fixtures are present; otherwise warns (once per caller) so the skip is visible. */
export function corpusAvailable(suite: string): boolean {
  if (fs.existsSync(path.join(FIXTURES_DIR, 'manifest.json'))) return true;
  console.warn(`${suite}: skipped, no recorded fixtures at ${FIXTURES_DIR}`);
  return false;
}

/** Every fixture in the manifest with its bytes, in manifest order (empty when the fixtures are absent). */
export function corpus(): readonly CorpusEntry[] {
  if (cached !== null) return cached;
  const manifest = path.join(FIXTURES_DIR, 'manifest.json');
  if (!fs.existsSync(manifest)) return (cached = []);
  const entries = JSON.parse(fs.readFileSync(manifest, 'utf8')) as ManifestEntry[];
  cached = entries.map((entry) => ({
    file: entry.file,
    format: entry.format,
    bytes: new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, entry.file))),
  }));
  return cached;
}
