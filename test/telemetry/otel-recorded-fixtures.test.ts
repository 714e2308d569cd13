import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { consumeStream } from '../../lib/driver/consume-stream';
import { openTelemetryListener } from '../../lib/otel';
import type { WireFormat } from '../../lib/providers/registry';
import { FIXTURES_DIR, FIXTURES_MANIFEST, recordedFixturesPresent, recordedSkipNote } from '../support/recorded-fixtures';
import { registerSdk } from './otel-harness';

interface Entry {
  readonly file: string;
  readonly format: WireFormat;
  readonly expected: {
    readonly id?: string | null;
    readonly model?: string | null;
    readonly error?: unknown;
    readonly normalized?: { readonly providerFinishReason: string | null; readonly tokenUsage: Record<string, number | null> | null };
  };
}

/** The usage attribute of each TokenUsage field (SPEC §1 counts, semconv v1.41 names). */
const USAGE_ATTRIBUTES: Readonly<Record<string, string>> = {
  inputTokenCount: 'gen_ai.usage.input_tokens',
  outputTokenCount: 'gen_ai.usage.output_tokens',
  cacheReadInputTokenCount: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteInputTokenCount: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokenCount: 'gen_ai.usage.reasoning.output_tokens',
};

const entries: readonly Entry[] = recordedFixturesPresent() ? (JSON.parse(readFileSync(FIXTURES_MANIFEST, 'utf8')) as Entry[]) : [];

describe(`openTelemetryListener on the recorded provider streams${recordedSkipNote('openTelemetryListener on the recorded provider streams')}`, () => {
  for (const entry of entries) {
    it(`${entry.file}: one span with the manifest's response id, model, finish reason and usage`, async () => {
      const sdk = registerSdk();
      try {
        const body = readFileSync(path.join(FIXTURES_DIR, entry.file));
        const outcome = await consumeStream(new Response(body), { onCompleteResponse: () => undefined, onError: () => undefined }, { format: entry.format, listeners: [openTelemetryListener()] });
        const spans = sdk.finished();
        expect(spans).to.have.length(1);
        const attributes = spans[0]!.attributes;
        const normalized = entry.expected.normalized;
        if (outcome.status === 'completed' && normalized !== undefined) {
          const reason = normalized.providerFinishReason;
          expect(attributes['gen_ai.response.finish_reasons']).to.deep.equal(reason === null ? undefined : [reason]);
          const usage: Record<string, unknown> = {};
          for (const [field, name] of Object.entries(USAGE_ATTRIBUTES)) {
            const value = normalized.tokenUsage?.[field];
            if (value !== null && value !== undefined) usage[name] = value;
          }
          expect(Object.fromEntries(Object.entries(attributes).filter(([name]) => name.startsWith('gen_ai.usage.')))).to.deep.equal(usage);
          expect(attributes['error.type']).to.equal(undefined);
        } else {
          expect(attributes['gen_ai.response.finish_reasons']).to.deep.equal(['error']);
          expect(attributes['error.type']).to.be.a('string');
        }
        if (typeof entry.expected.id === 'string') expect(attributes['gen_ai.response.id']).to.equal(entry.expected.id);
        if (typeof entry.expected.model === 'string') expect(attributes['gen_ai.response.model']).to.equal(entry.expected.model);
      } finally {
        await sdk.shutdown();
      }
    });
  }
});
