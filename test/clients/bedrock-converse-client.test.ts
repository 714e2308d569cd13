import { AwsClient } from 'aws4fetch';
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bedrockConverseHttpRequest, streamBedrockConverse } from '../../lib/clients/bedrock-converse-client';
import type { ConverseStreamRequest } from '../../lib/providers/bedrock-converse/bedrock-converse-request';
import { streamHttp } from '../../lib/clients/stream-http';
import { StreamError } from '../../lib/handler/stream-error';
import { bedrockConverseProvider } from '../../lib/providers/bedrock-converse/bedrock-converse-descriptor';
import { bedrockCorpus, BEDROCK_CORPUS_DIR } from '../providers/bedrock-converse/bedrock-corpus';
import { codecByteDecoder, encodeBedrockStream } from '../providers/bedrock-converse/bedrock-event-stream';
import { TRANSCRIPTS } from '../providers/bedrock-converse/bedrock-transcripts';
import { startLoopbackServer } from '../support/loopback-server';
import { withEnv, withoutClientEnv } from './support/client-env';

const MODEL_ARN = 'arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const REQUEST: ConverseStreamRequest = {
  modelId: MODEL_ARN,
  messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
  system: [{ text: 'Be brief.' }],
  inferenceConfig: { maxTokens: 512 },
  additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
  extraBody: { newField: true },
};
const KEY = 'ABSKQmVkcm9ja0FQSUtleS10ZXN0';

const handler = { onCompleteResponse() {}, onError() {} };

// `streamBedrockConverse` sends exactly `bedrockConverseHttpRequest`'s request through `streamHttp`; these tests send it
// with the descriptor's byte decoder filled in by the AWS codec, until partstream's own event-stream decoder is there.
const BEDROCK = { ...bedrockConverseProvider, createByteDecoder: codecByteDecoder };

/** Awaits `promise`, which must reject with a TypeError whose message is `message` (or matches it). */
async function expectTypeError(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).to.be.instanceOf(TypeError);
  if (typeof message === 'string') expect((error as Error).message).to.equal(message);
  else expect((error as Error).message).to.match(message);
}

describe('streamBedrockConverse: the request', () => {
  withoutClientEnv();

  it('POSTs {base}/model/{modelId}/converse-stream for the region, the ARN URL-encoded, the body the request minus modelId, the key as a bearer token', async () => {
    await withEnv({ AWS_REGION: 'us-west-2', AWS_DEFAULT_REGION: 'eu-west-1', AWS_BEARER_TOKEN_BEDROCK: KEY }, async () => {
      const request = bedrockConverseHttpRequest(REQUEST, {});
      expect(request.url).to.equal(
        'https://bedrock-runtime.us-west-2.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aus-west-2%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream',
      );
      expect(request.headers).to.deep.equal({ accept: 'application/vnd.amazon.eventstream', authorization: `Bearer ${KEY}` });
      expect(request.body).to.deep.equal({
        messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 512 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
        newField: true,
      });
      expect(request.model).to.equal(MODEL_ARN);
      expect(request.apiKey).to.deep.equal({ value: KEY, from: 'AWS_BEARER_TOKEN_BEDROCK' });
    });
  });

  it('takes the region from the option, then AWS_REGION, then AWS_DEFAULT_REGION; baseURL replaces it', async () => {
    const url = (options: object): string => bedrockConverseHttpRequest({ modelId: 'm' }, { apiKey: KEY, ...options }).url;
    await withEnv({ AWS_DEFAULT_REGION: 'eu-west-1' }, async () => {
      expect(url({})).to.equal('https://bedrock-runtime.eu-west-1.amazonaws.com/model/m/converse-stream');
    });
    await withEnv({ AWS_REGION: 'us-east-2', AWS_DEFAULT_REGION: 'eu-west-1' }, async () => {
      expect(url({})).to.equal('https://bedrock-runtime.us-east-2.amazonaws.com/model/m/converse-stream');
      expect(url({ region: 'ap-south-1' })).to.equal('https://bedrock-runtime.ap-south-1.amazonaws.com/model/m/converse-stream');
      expect(url({ baseURL: 'https://vpce-1.bedrock-runtime.example.internal/' })).to.equal('https://vpce-1.bedrock-runtime.example.internal/model/m/converse-stream');
    });
  });

  it('with sign, reads no key from the environment (an apiKey given is still sent)', async () => {
    await withEnv({ AWS_REGION: 'us-east-1', AWS_BEARER_TOKEN_BEDROCK: KEY }, async () => {
      const sign = (request: Request): Request => request;
      expect(bedrockConverseHttpRequest({ modelId: 'm' }, { sign }).headers).to.deep.equal({ accept: 'application/vnd.amazon.eventstream' });
      expect(bedrockConverseHttpRequest({ modelId: 'm' }, { sign, apiKey: 'given' }).headers.authorization).to.equal('Bearer given');
    });
  });

  it('rejects, before sending anything, no region, a region that is not a region name, no key, no modelId — naming the option or variable, never the key', async () => {
    let sent = 0;
    const fetch = (async () => {
      sent++;
      return new Response('');
    }) as typeof globalThis.fetch;
    await withEnv({ AWS_BEARER_TOKEN_BEDROCK: KEY }, async () => {
      await expectTypeError(streamBedrockConverse({ modelId: 'm' }, handler, { fetch }), 'Missing region for Amazon Bedrock: pass region or set AWS_REGION or AWS_DEFAULT_REGION (or pass baseURL)');
      await expectTypeError(streamBedrockConverse({ modelId: 'm' }, handler, { fetch, region: 'us-east-1.evil.example/x' }), /Expected region to be an AWS region name/);
    });
    await withEnv({ AWS_REGION: 'us-east-1@evil.example', AWS_BEARER_TOKEN_BEDROCK: KEY }, async () => {
      await expectTypeError(streamBedrockConverse({ modelId: 'm' }, handler, { fetch }), /Expected AWS_REGION to be an AWS region name/);
    });
    await withEnv({ AWS_REGION: 'us-east-1' }, async () => {
      await expectTypeError(streamBedrockConverse({ modelId: 'm' }, handler, { fetch }), /Missing API key for Amazon Bedrock: pass apiKey or set AWS_BEARER_TOKEN_BEDROCK/);
      await expectTypeError(streamBedrockConverse({ modelId: '' }, handler, { fetch, apiKey: KEY }), /Expected a Bedrock ConverseStream request with a modelId/);
      const badKey = await streamBedrockConverse({ modelId: 'm' }, handler, { fetch, apiKey: `${KEY}\r\nx-injected: 1` }).catch((error: unknown) => error);
      expect(badKey).to.be.instanceOf(TypeError);
      expect(String(badKey)).to.not.contain(KEY);
    });
    expect(sent).to.equal(0);
  });
});

describe('streamBedrockConverse: a stream from a loopback server', () => {
  withoutClientEnv();

  it('streams a binary ConverseStream body to the final message, the request as Bedrock takes it', async () => {
    const transcript = TRANSCRIPTS.find((each) => each.name.startsWith('tool use'))!;
    const server = await startLoopbackServer({ status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body: encodeBedrockStream(transcript.messages), chunkSize: 7 });
    try {
      const options = { baseURL: server.url, apiKey: KEY };
      const outcome = await streamHttp({ ...bedrockConverseHttpRequest(REQUEST, options), format: BEDROCK }, handler, options);
      expect(outcome.status).to.equal('completed');
      if (outcome.status !== 'completed') return;
      expect(outcome.response.aiMessage.toolExecutionRequests).to.deep.equal([{ id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
      expect(outcome.response.metadata.finishReason).to.equal('TOOL_EXECUTION');
      expect(outcome.http?.status).to.equal(200);
      const received = server.requests[0]!;
      expect(received.url).to.equal(`/model/${encodeURIComponent(MODEL_ARN)}/converse-stream`);
      expect(received.headers.accept).to.equal('application/vnd.amazon.eventstream');
      expect(received.headers.authorization).to.equal(`Bearer ${KEY}`);
      expect(JSON.parse(received.body)).to.deep.equal({
        messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 512 },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
        newField: true,
      });
    } finally {
      await server.close();
    }
  });
});

describe('streamBedrockConverse: the sign hook', () => {
  withoutClientEnv();

  it('signs every request sent — each retry and each same-origin redirect — on its final URL, headers and body', async () => {
    const signedUrls: string[] = [];
    const sent: Array<{ url: string; auth: string | null; body: string }> = [];
    const answers = [
      () => new Response('busy', { status: 503, headers: { 'retry-after-ms': '1' } }),
      () => new Response(null, { status: 307, headers: { location: '/moved/model/m/converse-stream' } }),
      () => new Response(JSON.stringify({ message: 'The provided model identifier is invalid.' }), { status: 400, headers: { 'content-type': 'application/json' } }),
    ];
    const fetch = (async (input: Parameters<typeof globalThis.fetch>[0]) => {
      const request = input as Request;
      sent.push({ url: request.url, auth: request.headers.get('authorization'), body: await request.text() });
      return answers[sent.length - 1]!();
    }) as typeof globalThis.fetch;
    const sign = async (request: Request): Promise<Request> => {
      signedUrls.push(request.url);
      const headers = new Headers(request.headers);
      headers.set('authorization', `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/${new URL(request.url).pathname}`);
      return new Request(request, { headers });
    };
    const request = { ...bedrockConverseHttpRequest({ modelId: 'm', messages: [] }, { region: 'us-east-1', sign, fetch }), format: BEDROCK };
    const errors: Error[] = [];
    const outcome = await streamHttp(request, { onCompleteResponse() {}, onError: (error) => errors.push(error) }, { fetch, maxRetries: 2 });
    expect(signedUrls).to.deep.equal([
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream',
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream',
      'https://bedrock-runtime.us-east-1.amazonaws.com/moved/model/m/converse-stream',
    ]);
    expect(sent.map((each) => each.auth)).to.deep.equal([
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE//model/m/converse-stream',
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE//model/m/converse-stream',
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE//moved/model/m/converse-stream',
    ]);
    expect(sent.map((each) => each.body)).to.deep.equal(['{"messages":[]}', '{"messages":[]}', '{"messages":[]}']);
    expect(outcome.status).to.equal('failed');
    expect(errors).to.have.length(1);
    expect(StreamError.isInstance(errors[0]) && errors[0].kind).to.equal('http');
    expect((errors[0] as StreamError).status).to.equal(400);
    expect(errors[0]!.message).to.contain('The provided model identifier is invalid.');
  });
});

describe('streamBedrockConverse: SigV4 with aws4fetch, as its documentation shows', () => {
  withoutClientEnv();

  it('the request reaches the server signed (AWS4-HMAC-SHA256 for bedrock in the region), its body intact', async () => {
    const server = await startLoopbackServer({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"stop here"}' });
    try {
      const aws = new AwsClient({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', service: 'bedrock', region: 'us-east-1' });
      const options = { region: 'us-east-1', baseURL: server.url, sign: (request: Request) => aws.sign(request), maxRetries: 0 };
      const request = { ...bedrockConverseHttpRequest({ modelId: 'amazon.nova-lite-v1:0', messages: [] }, options), format: BEDROCK };
      const failures: Error[] = [];
      await streamHttp(request, { onCompleteResponse() {}, onError: (error) => failures.push(error) }, options);
      expect(failures.map((error) => error.message)).to.have.length(1);
      const received = server.requests[0]!;
      expect(received.url).to.equal('/model/amazon.nova-lite-v1%3A0/converse-stream');
      expect(received.body).to.equal('{"messages":[]}');
      expect(received.headers.authorization).to.match(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
      expect(received.headers['x-amz-date']).to.match(/^\d{8}T\d{6}Z$/);
      expect(failures[0]!.message).to.not.contain('wJalrXUtnFEMI');
    } finally {
      await server.close();
    }
  });
});

describe('streamBedrockConverse: the recorded HTTP errors of the Bedrock corpus', () => {
  withoutClientEnv();
  const errors = bedrockCorpus('the recorded Bedrock HTTP errors').filter((entry) => entry.http.status !== 200);

  for (const entry of errors) {
    it(`${entry.name}: HTTP ${entry.http.status} is an http StreamError with the status and the message the manifest gives`, async () => {
      const body = fs.readFileSync(path.join(BEDROCK_CORPUS_DIR, 'streams', entry.file));
      const fetch = (async () => new Response(body, { status: entry.http.status, headers: { 'content-type': entry.http.contentType } })) as typeof globalThis.fetch;
      const request = { ...bedrockConverseHttpRequest({ modelId: 'm' }, { region: 'us-east-1', apiKey: KEY }), format: BEDROCK };
      const failures: Error[] = [];
      await streamHttp(request, { onCompleteResponse() {}, onError: (error) => failures.push(error) }, { fetch, maxRetries: 0 });
      expect(failures).to.have.length(1);
      const failure = failures[0] as StreamError;
      expect({ kind: failure.kind, status: failure.status }).to.deep.equal({ kind: 'http', status: entry.expected.error!.httpStatus });
      expect(failure.message).to.contain(entry.expected.error!.message);
      expect(failure.message).to.not.contain(KEY);
    });
  }
});
