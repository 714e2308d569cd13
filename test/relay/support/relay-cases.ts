import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES_DIR, FIXTURES_MANIFEST, recordedFixturesPresent } from '../../support/recorded-fixtures';
import { OWN_TRANSCRIPTS } from '../../support/own-transcripts';
import type { WireFormat } from '../../../lib/providers/registry';

/** A provider stream to relay: a hand-written transcript, or a recorded fixture when ../shared is there. */
export interface RelayCase {
  readonly name: string;
  readonly format: WireFormat;
  readonly bytes: Uint8Array;
}

/** Every own transcript (all five formats), then every recorded fixture (none when absent; under CI=true absence is a failure elsewhere). */
export function relayCases(): RelayCase[] {
  const cases: RelayCase[] = OWN_TRANSCRIPTS.map((t) => ({ name: t.file, format: t.format, bytes: t.bytes }));
  if (recordedFixturesPresent()) {
    const manifest = JSON.parse(fs.readFileSync(FIXTURES_MANIFEST, 'utf8')) as { file: string; format: WireFormat }[];
    for (const entry of manifest) {
      cases.push({ name: entry.file, format: entry.format, bytes: fs.readFileSync(path.join(FIXTURES_DIR, entry.file)) });
    }
  }
  return cases;
}

/** The type of each event of a `partstream` body, in sequence order (read by hand from the `event:` lines). */
export function eventTypes(events: readonly string[]): string[] {
  return events.map((text) => /^id: \d+\nevent: ([^\n]+)\n/.exec(text)?.[1] ?? '?');
}

/**
 * How many non-terminal callbacks the events up to sequence `k` give a viewer (SPEC §13 table):
 * one per `delta`, `tool-delta`, `raw` and complete `tool-call`; none for `start`, `meta`, `block`
 * or an incomplete call.
 */
export function callbacksUpTo(events: readonly string[], k: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(k, events.length); i++) {
    const text = events[i] as string;
    const type = eventTypes([text])[0];
    if (type === 'delta' || type === 'tool-delta' || type === 'raw') count++;
    else if (type === 'tool-call' && !text.includes('"incomplete":true')) count++;
  }
  return count;
}
