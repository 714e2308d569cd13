import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'relay', 'support', 'fixtures', 'uses-redis-server.ts');

/** Runs the fixture suite in a child mocha with `env` and returns its JSON report and its stderr. */
function runFixture(env: Record<string, string>): { stats: { passes: number; pending: number; failures: number }; failures: { err: { message: string } }[]; stderr: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env.CI === undefined) delete childEnv.CI;
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', '-r', 'ts-node/register/transpile-only', '--extension', 'ts', '--reporter', 'json', FIXTURE],
    {
      cwd: ROOT,
      env: childEnv,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { ...JSON.parse(run.stdout), stderr: run.stderr };
}

describe('the private redis-server of the Redis suites', function () {
  this.timeout(120_000);

  it('skips a suite with a one-line hint when redis-server is missing', () => {
    const report = runFixture({ REDIS_SERVER: '/nonexistent/redis-server' });
    expect(report.stats).to.include({ passes: 0, failures: 0, pending: 1 });
    expect(report.stderr).to.match(/skipped: redis-server is not installed: install it with `apt-get install -y redis-server`/);
  });

  it('fails the suite when redis-server is missing under CI=true', () => {
    const report = runFixture({ REDIS_SERVER: '/nonexistent/redis-server', CI: 'true' });
    expect(report.stats.failures).to.equal(1);
    expect(report.failures[0]?.err.message).to.match(/redis-server is not installed/);
  });
});
