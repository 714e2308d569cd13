import { expect } from 'chai';
import type { StreamOutcome } from '../../lib/driver/consume-stream';
import { MAX_REDIRECTS } from '../../lib/clients/follow-redirects';
import { StreamError } from '../../lib/handler/stream-error';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { STREAM_CONTENT_TYPE, streamWithClient } from '../support/http-clients';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type Reply } from '../support/loopback-server';
import { recordingHandler } from '../support/recording-handler';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';

const KEY = 'sk-SENTINEL-7f3a9c';

function failure(outcome: StreamOutcome): StreamError {
  expect(outcome.status).to.equal('failed');
  const error = outcome.status === 'failed' ? outcome.error : null;
  expect(StreamError.isInstance(error), `a StreamError, got ${String(error)}`).to.equal(true);
  return error as StreamError;
}

function carriesKey(request: RecordedRequest): boolean {
  return Object.values(request.headers).some((value) => String(value).includes(KEY));
}

/** Runs a client against `origin` (whose replies may point at `other`), then closes both servers. */
async function withServers(
  format: WireFormat,
  originReply: (other: LoopbackServer, index: number) => Reply,
  run: (origin: LoopbackServer, other: LoopbackServer, outcome: StreamOutcome) => void,
): Promise<void> {
  const other = await startLoopbackServer({ headers: { 'content-type': STREAM_CONTENT_TYPE[format] }, body: TRANSCRIPTS[format] });
  const origin = await startLoopbackServer((_request, index) => originReply(other, index), { maxRequests: MAX_REDIRECTS + 5 });
  try {
    const outcome = await streamWithClient(format, recordingHandler(), { baseUrl: `${origin.url}/v1`, apiKey: KEY });
    run(origin, other, outcome);
  } finally {
    await origin.close();
    await other.close();
  }
}

const transcript = (format: WireFormat): Reply => ({ headers: { 'content-type': STREAM_CONTENT_TYPE[format] }, body: TRANSCRIPTS[format] });

describe('HTTP clients and redirects', () => {
  describe('a redirect to another origin', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}: is not followed; it fails as an http error naming only the other origin, and the key never reaches it`, async () => {
        await withServers(
          format,
          (other) => ({ status: 307, headers: { location: `http://user:hunter2@${other.url.slice('http://'.length)}/steal/path?token=abc#frag` }, body: 'moved' }),
          (origin, other, outcome) => {
            const error = failure(outcome);
            expect(error.kind).to.equal('http');
            expect(error.status).to.equal(307);
            expect(error.message).to.include(`another origin (${other.url})`);
            for (const hidden of ['/steal', 'path', 'token', 'abc', 'frag', 'user', 'hunter2', KEY]) expect(error.message).not.to.include(hidden);
            expect(other.requests.length, 'requests the other origin received').to.equal(0);
            expect(origin.requests.length).to.equal(1);
          },
        );
      });
    }

    it('is refused for a 308 to another port, and for a change of scheme alone', async () => {
      await withServers(
        'anthropic',
        (other) => ({ status: 308, headers: { location: `${other.url}/v1/messages` } }),
        (_origin, other, outcome) => {
          expect([failure(outcome).kind, failure(outcome).status]).to.deep.equal(['http', 308]);
          expect(other.requests.length).to.equal(0);
        },
      );
      await withServers(
        'gemini',
        (_other, index) => (index === 0 ? { status: 307, headers: { location: 'https://127.0.0.1/v1/x' } } : { status: 500 }),
        (origin, _other, outcome) => {
          expect(failure(outcome).message).to.include('another origin (https://127.0.0.1)');
          expect(origin.requests.length).to.equal(1);
        },
      );
    });
  });

  describe('a redirect within the origin', () => {
    for (const format of WIRE_FORMATS) {
      it(`${format}: a 307 and then a 308 are followed with the same method, body and key`, async () => {
        await withServers(
          format,
          (_other, index) => (index === 0 ? { status: 307, headers: { location: '/moved/once' } } : index === 1 ? { status: 308, headers: { location: '/moved/twice?x=1' } } : transcript(format)),
          (origin, other, outcome) => {
            expect(outcome.status).to.equal('completed');
            expect(origin.requests.map((request) => request.url).slice(1)).to.deep.equal(['/moved/once', '/moved/twice?x=1']);
            const [first, ...rest] = origin.requests as [RecordedRequest, ...RecordedRequest[]];
            expect(first.body.length).to.be.greaterThan(10);
            for (const request of rest) {
              expect([request.method, request.body, carriesKey(request)]).to.deep.equal(['POST', first.body, true]);
            }
            expect(other.requests.length).to.equal(0);
          },
        );
      });
    }

    for (const status of [301, 302, 303]) {
      it(`a ${status} fails as an http error saying the POST would become a GET, without a second request`, async () => {
        await withServers(
          'openai-chat',
          (_other, index) => (index === 0 ? { status, headers: { location: '/elsewhere' } } : transcript('openai-chat')),
          (origin, _other, outcome) => {
            const error = failure(outcome);
            expect([error.kind, error.status]).to.deep.equal(['http', status]);
            expect(error.message).to.include('would turn the POST into a GET');
            expect(origin.requests.length).to.equal(1);
          },
        );
      });
    }

    it(`stops after ${MAX_REDIRECTS} redirects with an http error`, async () => {
      await withServers(
        'ollama',
        // A fresh connection for each request, so that no socket collects listeners for 21 of them.
        () => ({ status: 307, headers: { location: '/again', connection: 'close' } }),
        (origin, _other, outcome) => {
          const error = failure(outcome);
          expect([error.kind, error.status]).to.deep.equal(['http', 307]);
          expect(error.message).to.include(`more than ${MAX_REDIRECTS} redirects`);
          expect(origin.requests.length).to.equal(MAX_REDIRECTS + 1);
        },
      );
    });

    it('refuses a same-origin Location with credentials, without echoing them', async () => {
      await withServers(
        'openai-responses',
        () => ({ status: 307, headers: { location: `http://someone:${KEY}@127.0.0.1:1/` } }),
        (origin, _other, outcome) => {
          const error = failure(outcome);
          expect(error.kind).to.equal('http');
          expect(error.message).not.to.include(KEY);
          expect(error.message).not.to.include('someone');
          expect(origin.requests.length).to.equal(1);
        },
      );
    });

    it('reports a redirect without a Location as the http error status it is', async () => {
      await withServers(
        'anthropic',
        () => ({ status: 307, headers: { 'content-type': 'application/json' }, body: '{"type":"error","error":{"type":"api_error","message":"nowhere to go"}}' }),
        (_origin, _other, outcome) => {
          const error = failure(outcome);
          expect([error.kind, error.status]).to.deep.equal(['http', 307]);
          expect(error.message).to.include('nowhere to go');
        },
      );
    });
  });
});
