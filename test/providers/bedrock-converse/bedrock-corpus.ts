import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteSkipped } from '../../support/skips';

/** The recorded Bedrock ConverseStream bodies, beside the repository (read in place, never copied into it). */
export const BEDROCK_CORPUS_DIR = path.resolve(__dirname, '../../..', '../shared/corpus/bedrock');
const MANIFEST = path.join(BEDROCK_CORPUS_DIR, 'manifest.json');

/** One block of a manifest entry's expected message. */
export interface CorpusBlock {
  readonly index: number;
  readonly type: string;
  readonly text?: string | null;
  readonly signature?: string | null;
  readonly redactedContent?: string;
  readonly citations?: readonly unknown[];
  readonly toolUseId?: string;
  readonly name?: string;
  readonly toolUseType?: string;
  readonly input?: unknown;
}

/** One manifest entry, as far as the tests read it. */
export interface CorpusEntry {
  readonly name: string;
  readonly file: string;
  readonly http: { readonly status: number; readonly contentType: string };
  readonly frames: number;
  readonly events: ReadonlyArray<{ readonly type: string; readonly messageType: string; readonly payload: unknown }>;
  readonly expected: {
    readonly blocks: readonly CorpusBlock[];
    readonly text: string | null;
    readonly reasoning: string | null;
    readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
    readonly serverToolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>;
    readonly providerFinishReason: string | null;
    readonly finishReason: string | null;
    readonly usage: Record<string, unknown> | null;
    readonly tokenUsage: Record<string, number | null> | null;
    readonly metrics: Record<string, unknown> | null;
    readonly error: { readonly message: string; readonly httpStatus: number } | null;
  };
}

/**
 * The manifest's entries; none (with a note in the run's skip summary) when the corpus is absent
 * outside CI. Under `CI=true` an absent corpus throws: it is required there.
 */
export function bedrockCorpus(suite: string): CorpusEntry[] {
  if (!fs.existsSync(MANIFEST)) {
    if (process.env.CI === 'true') throw new Error(`Expected the Bedrock corpus at ${BEDROCK_CORPUS_DIR} (CI=true requires it)`);
    noteSkipped(`no Bedrock corpus at ${BEDROCK_CORPUS_DIR} (CI=true makes that a failure)`, suite);
    return [];
  }
  return (JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { streams: CorpusEntry[] }).streams;
}

/** The body of an entry, as served. */
export function corpusBody(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(BEDROCK_CORPUS_DIR, 'streams', entry.file)));
}
