import { expect } from 'chai';
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const PROVIDERS = join(__dirname, '../../../lib/providers');

/** The chunk readers: each provider's `parse-*.ts`. */
function readerFiles(): string[] {
  const files: string[] = [];
  for (const provider of readdirSync(PROVIDERS, { withFileTypes: true })) {
    if (!provider.isDirectory()) continue;
    for (const name of readdirSync(join(PROVIDERS, provider.name))) if (/^parse-.*\.ts$/.test(name)) files.push(join(provider.name, name));
  }
  return files;
}

describe('Chunk readers', () => {
  it('are found: one per provider whose fast path beats JSON.parse on the recorded streams (npm run bench:scanners)', () => {
    expect(readerFiles().sort()).to.deep.equal(['ollama/parse-ollama-line.ts', 'openai-chat/parse-openai-chat-chunk.ts', 'openai-responses/parse-openai-responses-event.ts']);
  });

  for (const file of readerFiles()) {
    it(`${file} keeps no module-level mutable state (a reader's state is per stream)`, () => {
      const source = readFileSync(join(PROVIDERS, file), 'utf8');
      expect(source.match(/^(?:export\s+)?(?:let|var)\s+\w+/gm) ?? [], file).to.deep.equal([]);
    });
  }
});
