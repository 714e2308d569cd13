import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SkipNotes } from './skips';

const repo = path.resolve(__dirname, '../..');

describe("the run's one-line skip summary (test/support/skips.ts, skip-summary.ts)", function () {
  this.timeout(60_000);

  it('is nothing when nothing was skipped, and otherwise one line: each reason and what it covered', () => {
    const notes = new SkipNotes();
    const empty = notes.summary();
    notes.note('no fixtures', 'suite A');
    notes.note('no fixtures', 'suite B');
    notes.note('no fixtures', 'suite A');
    notes.note('no browser', 'the browser test');
    for (const name of ['C', 'D', 'E']) notes.note('no fixtures', `suite ${name}`);
    expect({ empty, line: notes.summary() }).to.deep.equal({
      empty: null,
      line: 'Skipped because: no fixtures — suite A, suite B, suite C and 2 more; no browser — the browser test.',
    });
  });

  it("is printed once, after the reporter's own summary, by a mocha run that loads the plugin", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'partstream-skips-'));
    try {
      const skips = JSON.stringify(path.join(__dirname, 'skips'));
      writeFileSync(
        path.join(dir, 'a.test.js'),
        `const { noteSkipped } = require(${skips});
describe('a', () => {
  it('runs', () => {});
  it('needs something absent', function () { noteSkipped('nothing here', 'the a test'); this.skip(); });
  it.skip('is pending with no note');
});
`,
      );
      const run = spawnSync(
        process.execPath,
        [
          require.resolve('mocha/bin/mocha', { paths: [repo] }),
          '--no-config',
          '-r',
          'ts-node/register/transpile-only',
          '-r',
          path.join(__dirname, 'skip-summary.ts'),
          '--reporter',
          'dot',
          path.join(dir, 'a.test.js'),
        ],
        { cwd: repo, encoding: 'utf8', timeout: 50_000 },
      );
      const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
      expect({
        status: run.status,
        stderr: run.stderr,
        summaries: lines.filter((line) => line.includes('Skipped because')).length,
        passingLine: /^ {2}1 passing \(\d+m?s\)$/.test(lines[lines.length - 3] ?? ''),
        last: lines.slice(-2),
      }).to.deep.equal({
        status: 0,
        stderr: '',
        summaries: 1,
        passingLine: true,
        last: ['  2 pending', '  Skipped because: nothing here — the a test.'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
