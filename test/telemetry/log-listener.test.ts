import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { rereadLogLevel, type Logger } from '../../lib/telemetry/log-listener';
import { trackedSource } from '../support/chunk-sources';
import { streamWithClient } from '../support/http-clients';
import { TRANSCRIPTS } from '../support/transcripts';
import { loggingHandler } from './ends';
import { expectRejection } from '../support/rejection';

type Line = [level: string, message: string, fields: Record<string, unknown> | undefined];

function recordingLogger(lines: Line[]): Logger {
  const at = (level: string) => (message: string, fields?: Readonly<Record<string, unknown>>) => void lines.push([level, message, fields as Record<string, unknown>]);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const KEY = 'sk-secret-0123456789abcdef';

describe('logging (PARTSTREAM_LOG, logger)', () => {
  const saved = process.env.PARTSTREAM_LOG;
  afterEach(() => {
    if (saved === undefined) delete process.env.PARTSTREAM_LOG;
    else process.env.PARTSTREAM_LOG = saved;
    rereadLogLevel();
  });

  it('logs the request at debug and the outcome with status, request id and retries at info', async () => {
    const lines: Line[] = [];
    let calls = 0;
    await streamWithClient('openai-chat', loggingHandler([]), {
      apiKey: KEY,
      logger: recordingLogger(lines),
      logLevel: 'debug',
      maxRetries: 1,
      fetch: async () =>
        calls++ === 0
          ? new Response('', { status: 503, headers: { 'retry-after-ms': '1' } })
          : new Response(TRANSCRIPTS['openai-chat'], { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' } }),
    });
    expect(lines.map(([level, message]) => [level, message])).to.deep.equal([
      ['debug', 'partstream: request to openai'],
      ['debug', 'partstream: retrying the request to openai in 1 ms (503)'],
      ['info', 'partstream: openai stream completed'],
    ]);
    const { streamId: retryStreamId, ...retryFields } = lines[1]![2]!;
    expect(retryFields).to.deep.equal({ provider: 'openai', model: 'gpt-test', server: 'api.openai.com:443', retry: 1, errorType: '503', status: 503, delayMs: 1 });
    expect(retryStreamId).to.equal(lines[0]![2]!.streamId);
    const { durationMs, streamId, ...fields } = lines[2]![2]!;
    expect(fields).to.deep.equal({ provider: 'openai', model: 'gpt-test', server: 'api.openai.com:443', outcome: 'completed', status: 200, requestId: 'req_1', retries: 1 });
    expect(durationMs).to.be.a('number');
    expect(streamId).to.equal(lines[0]![2]!.streamId);
  });

  it('logs a retry after a connection error at debug with its error code, never the key the error message carried', async () => {
    const lines: Line[] = [];
    let calls = 0;
    await streamWithClient('openai-chat', loggingHandler([]), {
      apiKey: KEY,
      logger: recordingLogger(lines),
      logLevel: 'debug',
      maxRetries: 1,
      fetch: async () => {
        if (calls++ > 0) return new Response(TRANSCRIPTS['openai-chat'], { headers: { 'content-type': 'text/event-stream' } });
        throw Object.assign(new TypeError(`fetch failed for ${KEY}`), { cause: Object.assign(new Error(`socket reset (${KEY})`), { code: 'ECONNRESET' }) });
      },
    });
    const retry = lines.find(([, message]) => message.startsWith('partstream: retrying'));
    expect(retry?.[0]).to.equal('debug');
    expect(retry?.[1]).to.match(/^partstream: retrying the request to openai in \d+ ms \(ECONNRESET\)$/);
    expect(retry?.[2]).to.include({ retry: 1, errorType: 'ECONNRESET' });
    expect(retry?.[2]).not.to.have.property('status');
    expect(JSON.stringify(lines)).not.to.include(KEY);
  });

  it('logs a failure at error with the key a server echoed redacted and control characters escaped', async () => {
    const lines: Line[] = [];
    await streamWithClient('openai-chat', loggingHandler([]), {
      apiKey: KEY,
      logger: recordingLogger(lines),
      fetch: async () => new Response(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}\u001b[31m` } }), { status: 401, headers: { 'content-type': 'application/json' } }),
    });
    expect(lines.map(([level]) => level)).to.deep.equal(['error']);
    const text = JSON.stringify(lines);
    expect(text).not.to.include(KEY);
    expect(lines[0]![1]).not.to.include('\u001b');
    expect(lines[0]![1]).to.include('\\u001b');
  });

  it('takes its level from PARTSTREAM_LOG, and logs nothing at warn for a completed stream or when off', async () => {
    const lines: Line[] = [];
    process.env.PARTSTREAM_LOG = 'warn';
    rereadLogLevel();
    await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { format: 'gemini', logger: recordingLogger(lines) });
    await consumeStream(trackedSource([TRANSCRIPTS.gemini.slice(0, 40)]), loggingHandler([]), { format: 'gemini', logger: recordingLogger(lines) });
    expect(lines.map(([level, message]) => [level, message.split(':').slice(0, 2).join(':')])).to.deep.equal([['error', 'partstream: gcp.gemini stream failed']]);
    process.env.PARTSTREAM_LOG = 'off';
    rereadLogLevel();
    await consumeStream(trackedSource([TRANSCRIPTS.gemini.slice(0, 40)]), loggingHandler([]), { format: 'gemini', logger: recordingLogger(lines) });
    expect(lines).to.have.length(1);
  });

  it('refuses a logger or level of the wrong kind, through the promise', async () => {
    await expectRejection(() => consumeStream(trackedSource([]), loggingHandler([]), { format: 'gemini', logger: { info: () => undefined } as never }), TypeError, 'Expected logger');
    await expectRejection(() => consumeStream(trackedSource([]), loggingHandler([]), { format: 'gemini', logLevel: 'loud' as never }), TypeError, 'Expected logLevel');
  });
});
