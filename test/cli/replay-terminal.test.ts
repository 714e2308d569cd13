import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { DEMO_RECORDING } from '../../lib/cli/demo-recording';
import { REPO_ROOT } from './run-cli';
import { noteSkipped } from '../support/skips';

const LAUNCHER = path.join(REPO_ROOT, 'bin', 'partstream.js');
/** Shown once the first two text deltas have been printed: a concatenation only the view produces. */
const EARLY_TEXT = 'I found no closure notice for';
/** A run that takes longer than this is stopped (and the test fails) rather than left hanging. */
const GIVE_UP_MS = 60_000;
/** Everything up to the end of the answer text's second delta. */
const FIRST_PART = DEMO_RECORDING.slice(0, DEMO_RECORDING.indexOf('\n\n', DEMO_RECORDING.indexOf('" closure notice for"')) + 2);

/** True when util-linux `script` can give the command a pseudo-terminal. */
function hasScript(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 && probe.stdout.includes('util-linux');
}

/** What the command printed before it was given the rest of its input, and in all. */
interface TerminalRun {
  readonly beforeRest: { readonly running: boolean; readonly summaryShown: boolean };
  readonly status: number | null;
  readonly output: string;
}

/**
 * Runs `partstream replay -` as a separate process, feeds the first part of the recording, waits
 * until the answer text shows, notes that the process is still running, then feeds the rest and
 * ends the input. In a pseudo-terminal (`script`) the end of input is Ctrl-D.
 */
function replayInSteps(usePty: boolean): Promise<TerminalRun> {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(LAUNCHER)} replay -`;
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
  delete env.NO_COLOR;
  const child = usePty
    ? // `stty -echo` keeps the typed-in recording out of the output.
      spawn('script', ['-qfec', `stty -echo; exec ${command}`, '/dev/null'], { cwd: REPO_ROOT, env })
    : spawn(process.execPath, [LAUNCHER, 'replay', '-'], { cwd: REPO_ROOT, env });
  return new Promise((resolve, reject) => {
    let output = '';
    const giveUp = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Expected the replay to finish within ${GIVE_UP_MS} ms, got so far:\n${output}`));
    }, GIVE_UP_MS);
    let beforeRest: TerminalRun['beforeRest'] | null = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (beforeRest === null && output.includes(EARLY_TEXT)) {
        beforeRest = { running: child.exitCode === null, summaryShown: output.includes('final message') };
        child.stdin.write(DEMO_RECORDING.slice(FIRST_PART.length));
        if (usePty) child.stdin.write('\u0004');
        else child.stdin.end();
      }
    });
    child.on('error', (error) => {
      clearTimeout(giveUp);
      child.kill('SIGKILL');
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(giveUp);
      if (beforeRest === null) reject(new Error(`Expected the answer text before the end, got:\n${output}`));
      else resolve({ beforeRest, status, output: output.replace(/\r\n/g, '\n') });
    });
    child.stdin.write(FIRST_PART);
  });
}

describe('partstream replay in a terminal (separate process)', function () {
  this.timeout(GIVE_UP_MS + 10_000);

  it('prints the answer text while the stream is still open, dims thinking in a pseudo-terminal, and ends with the summary', async () => {
    const usePty = hasScript();
    if (!usePty) noteSkipped('no util-linux `script`, so checked through a pipe instead of a pseudo-terminal', 'partstream replay in a terminal');
    const run = await replayInSteps(usePty);
    expect({
      beforeRest: run.beforeRest,
      status: run.status,
      dimThinking: run.output.includes('\u001b[2;3mThe user asks whether\u001b[22;23m'),
      summary: run.output.includes('finish reason: TOOL_EXECUTION\nid: msg_01PsDemoReplay7Vb2Qk4Zt9'),
    }).to.deep.equal({
      beforeRest: { running: true, summaryShown: false },
      status: 0,
      dimThinking: usePty,
      summary: true,
    });
  });
});
