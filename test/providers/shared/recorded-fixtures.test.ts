import { expect } from 'chai';
import { FIXTURES_DIR, FIXTURES_MANIFEST, recordedFixturesPresent } from '../../support/recorded-fixtures';

describe('the recorded provider fixtures', () => {
  it(`are present at ${FIXTURES_DIR} (required when CI=true; elsewhere their cases are skipped with a note)`, function () {
    const present = recordedFixturesPresent();
    if (!present && process.env.CI !== 'true') {
      console.warn(`recorded fixtures absent at ${FIXTURES_DIR}: their cases are skipped (CI=true makes this a failure)`);
      this.skip();
    }
    expect(
      present,
      `Expected the recorded provider fixtures at ${FIXTURES_DIR} (looked for ${FIXTURES_MANIFEST}): CI=true requires them, ` +
        'so that the fuzz, split and fixture suites also run over real provider streams. Check them out beside the repository as ../shared/fixtures.',
    ).to.equal(true);
  });
});
