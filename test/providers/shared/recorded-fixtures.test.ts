import { expect } from 'chai';
import { FIXTURES_ABSENT, FIXTURES_DIR, FIXTURES_MANIFEST, recordedFixturesPresent } from '../../support/recorded-fixtures';
import { noteSkipped } from '../../support/skips';

describe('the recorded provider fixtures', () => {
  it(`are present at ${FIXTURES_DIR} (required when CI=true; elsewhere their cases are skipped, as the run's last line says)`, function () {
    const present = recordedFixturesPresent();
    if (!present && process.env.CI !== 'true') {
      noteSkipped(FIXTURES_ABSENT, 'the recorded fixtures check');
      this.skip();
    }
    expect(
      present,
      `Expected the recorded provider fixtures at ${FIXTURES_DIR} (looked for ${FIXTURES_MANIFEST}): CI=true requires them, ` +
        'so that the fuzz, split and fixture suites also run over real provider streams. Check them out beside the repository as ../shared/fixtures.',
    ).to.equal(true);
  });
});
