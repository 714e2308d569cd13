import { context, SpanKind, SpanStatusCode, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { openTelemetryListener } from '../../lib/otel';
import type { ChatModelListener } from '../../lib/telemetry/chat-model-listener';
import { trackedSource } from '../support/chunk-sources';
import { STREAM_CONTENT_TYPE, streamWithClient } from '../support/http-clients';
import { OWN_TRANSCRIPTS } from '../support/own-transcripts';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { END_CASES, loggingHandler } from './ends';
import { registerSdk, type OtelSdk } from './otel-harness';

const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

const quiet: StreamingChatResponseHandler = { onCompleteResponse: () => undefined, onError: () => undefined };

function viaClient(format: WireFormat, listeners: readonly ChatModelListener[], body = TRANSCRIPTS[format], handler = quiet) {
  return streamWithClient(format, handler, { apiKey: 'sk-test', listeners, fetch: async () => new Response(body, { headers: { 'content-type': STREAM_CONTENT_TYPE[format] } }) });
}

/** What each small transcript's span says, derived by hand from its bytes and the test client's request. */
const SPANS: Readonly<Record<WireFormat, { name: string; attributes: Record<string, unknown> }>> = {
  'openai-chat': {
    name: 'chat gpt-test',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'server.address': 'api.openai.com',
      'server.port': 443,
      'openai.api.type': 'chat_completions',
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'chatcmpl-t1',
      'gen_ai.response.model': 'gpt-test',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'partstream.response.finish_reason': 'TOOL_EXECUTION',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'partstream.stream.format': 'openai-chat',
      'partstream.stream.outcome': 'completed',
      // The role-only first chunk, the finish chunk and the usage chunk reach no typed callback.
      'partstream.stream.unmapped_events': 3,
    },
  },
  'openai-responses': {
    name: 'chat gpt-test',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'server.address': 'api.openai.com',
      'server.port': 443,
      'openai.api.type': 'responses',
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'resp_t1',
      'gen_ai.response.model': 'gpt-test',
      'gen_ai.response.finish_reasons': ['completed'],
      'partstream.response.finish_reason': 'TOOL_EXECUTION',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 3,
      'partstream.stream.format': 'openai-responses',
      'partstream.stream.outcome': 'completed',
      // response.created and both output_item.added.
      'partstream.stream.unmapped_events': 3,
    },
  },
  anthropic: {
    name: 'chat claude-test',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'server.address': 'api.anthropic.com',
      'server.port': 443,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'msg_t1',
      'gen_ai.response.model': 'claude-test',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'partstream.response.finish_reason': 'TOOL_EXECUTION',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 12,
      'partstream.stream.format': 'anthropic',
      'partstream.stream.outcome': 'completed',
      'partstream.stream.unmapped_events': 7,
    },
  },
  gemini: {
    name: 'generate_content gemini-test',
    attributes: {
      'gen_ai.operation.name': 'generate_content',
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.request.model': 'gemini-test',
      'server.address': 'generativelanguage.googleapis.com',
      'server.port': 443,
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'g1',
      'gen_ai.response.model': 'gemini-test',
      'gen_ai.response.finish_reasons': ['STOP'],
      'partstream.response.finish_reason': 'STOP',
      // The last chunk's usage (Gemini repeats it cumulatively): 4 prompt, 3 candidates.
      'gen_ai.usage.input_tokens': 4,
      'gen_ai.usage.output_tokens': 3,
      'partstream.stream.format': 'gemini',
      'partstream.stream.outcome': 'completed',
    },
  },
  ollama: {
    name: 'chat llama-test',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'ollama',
      'gen_ai.request.model': 'llama-test',
      'server.address': '127.0.0.1',
      'server.port': 11434,
      'gen_ai.request.stream': true,
      'gen_ai.response.model': 'llama-test',
      'gen_ai.response.finish_reasons': ['stop'],
      'partstream.response.finish_reason': 'TOOL_EXECUTION',
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
      'partstream.stream.format': 'ollama',
      'partstream.stream.outcome': 'completed',
    },
  },
};

/** The error.type each way of ending gives (SPEC §14), by END_CASES name. */
const ERROR_TYPES: Readonly<Record<string, string | null>> = {
  completed: null,
  'an HTTP error status': '429',
  // OpenAI's error event carries `code: null` and `type: server_error`; the provider-error reader
  // takes the type for the code.
  'a provider error event': 'server_error',
  truncated: 'truncated',
  malformed: 'malformed',
  'an idle timeout': 'timeout',
  'the deadline': 'timeout',
  'a network failure': 'network',
  'cancel() from a callback': 'cancelled',
  'an AbortSignal': 'cancelled',
  'break out of for await over a ChatStream': 'cancelled',
  'a throwing handler callback (counted, not an error)': null,
  'a retry that later succeeds': null,
};

describe('openTelemetryListener (partstream/otel)', () => {
  let sdk: OtelSdk;
  afterEach(async () => {
    await sdk?.shutdown();
  });

  for (const format of WIRE_FORMATS) {
    it(`records one CLIENT span with the semconv attributes and a first-chunk event: ${format}`, async () => {
      sdk = registerSdk();
      await viaClient(format, [openTelemetryListener()]);
      const spans = sdk.streams();
      expect(spans).to.have.length(1);
      const span = spans[0]!;
      const { 'gen_ai.response.time_to_first_chunk': ttfc, ...rest } = span.attributes;
      expect({ name: span.name, kind: span.kind, attributes: rest, status: span.status, events: span.events.map((event) => event.name) }).to.deep.equal({
        name: SPANS[format].name,
        kind: SpanKind.CLIENT,
        attributes: SPANS[format].attributes,
        status: { code: SpanStatusCode.UNSET },
        events: ['partstream.first_chunk'],
      });
      expect(ttfc).to.be.a('number').at.least(0);
      const durationS = span.duration[0] + span.duration[1] / 1e9;
      expect(ttfc as number).to.be.at.most(durationS + 1e-6);
    });
  }

  it('records the duration, time to first chunk and token usage metrics once per stream, with low-cardinality attributes only', async () => {
    sdk = registerSdk();
    await viaClient('anthropic', [openTelemetryListener()]);
    const points = await sdk.points();
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'server.address': 'api.anthropic.com',
      'server.port': 443,
      'gen_ai.response.model': 'claude-test',
    };
    const span = sdk.streams()[0]!;
    const durationS = span.duration[0] + span.duration[1] / 1e9;
    const shape = points.map(({ sum, ...point }) => point);
    expect(shape).to.deep.equal([
      { name: 'gen_ai.client.operation.duration', unit: 's', attributes, count: 1, boundaries: DURATION_BUCKETS },
      { name: 'gen_ai.client.operation.time_to_first_chunk', unit: 's', attributes, count: 1, boundaries: DURATION_BUCKETS },
      { name: 'gen_ai.client.token.usage', unit: '{token}', attributes: { ...attributes, 'gen_ai.token.type': 'input' }, count: 1, boundaries: TOKEN_BUCKETS },
      { name: 'gen_ai.client.token.usage', unit: '{token}', attributes: { ...attributes, 'gen_ai.token.type': 'output' }, count: 1, boundaries: TOKEN_BUCKETS },
    ]);
    expect(points[0]!.sum).to.be.closeTo(durationS, 1e-6);
    expect(points[1]!.sum).to.equal(span.attributes['gen_ai.response.time_to_first_chunk']);
    expect([points[2]!.sum, points[3]!.sum]).to.deep.equal([10, 12]);
  });

  for (const end of END_CASES) {
    it(`ends exactly one span, with error.type and status as SPEC §14 says: ${end.name}`, async () => {
      sdk = registerSdk();
      const log: string[] = [];
      await end.run([openTelemetryListener()], log);
      const spans = sdk.streams();
      expect(spans).to.have.length(1);
      const expected = ERROR_TYPES[end.name];
      expect(spans[0]!.attributes['error.type']).to.equal(expected ?? undefined);
      expect(spans[0]!.status.code).to.equal(expected === null ? SpanStatusCode.UNSET : SpanStatusCode.ERROR);
      if (expected !== null) expect(spans[0]!.attributes['gen_ai.response.finish_reasons']).to.deep.equal(['error']);
      const duration = (await sdk.points()).filter((point) => point.name === 'gen_ai.client.operation.duration');
      expect(duration.map((point) => [point.count, point.attributes['error.type']])).to.deep.equal([[1, expected ?? undefined]]);
    });
  }

  it('records usage on a failed stream when the provider reported it, and none when it did not', async () => {
    sdk = registerSdk();
    const anthropicError = OWN_TRANSCRIPTS.find((t) => t.file === 'own/anthropic/overloaded-error.sse')!;
    const chatError = OWN_TRANSCRIPTS.find((t) => t.file === 'own/openai-chat/server-error.sse')!;
    await viaClient('anthropic', [openTelemetryListener()], new TextDecoder().decode(anthropicError.bytes));
    await viaClient('openai-chat', [openTelemetryListener()], new TextDecoder().decode(chatError.bytes));
    const [anthropic, chat] = sdk.streams();
    // message_start said input 3, output 1 before the overloaded_error event.
    expect([anthropic!.attributes['gen_ai.usage.input_tokens'], anthropic!.attributes['gen_ai.usage.output_tokens'], anthropic!.attributes['error.type']]).to.deep.equal([3, 1, 'overloaded_error']);
    expect(Object.keys(chat!.attributes).filter((name) => name.startsWith('gen_ai.usage.'))).to.deep.equal([]);
    const usage = (await sdk.points()).filter((point) => point.name === 'gen_ai.client.token.usage');
    expect(usage.map((point) => [point.attributes['gen_ai.token.type'], point.sum, point.attributes['error.type']])).to.deep.equal([
      ['input', 3, 'overloaded_error'],
      ['output', 1, 'overloaded_error'],
    ]);
  });

  it("is a child of the caller's active span", async () => {
    sdk = registerSdk();
    const parent = trace.getTracer('test').startSpan('parent');
    await context.with(trace.setSpan(context.active(), parent), () => viaClient('gemini', [openTelemetryListener()]));
    parent.end();
    const child = sdk.streams()[0];
    const root = sdk.finished().find((span) => span.name === 'parent');
    expect(child!.name).to.equal('generate_content gemini-test');
    expect(child!.parentSpanContext?.spanId).to.equal(root!.spanContext().spanId);
    expect(child!.spanContext().traceId).to.equal(root!.spanContext().traceId);
  });

  it('works and records nothing without an SDK; a meter provider registered after the listener was made is used', async () => {
    const listener = openTelemetryListener();
    const log: string[] = [];
    const outcome = await consumeStream(trackedSource([TRANSCRIPTS.ollama]), loggingHandler(log), { format: 'ollama', listeners: [listener] });
    expect([outcome.status, log]).to.deep.equal(['completed', ['handler.onCompleteResponse']]);
    sdk = registerSdk();
    expect(sdk.finished()).to.deep.equal([]);
    await consumeStream(trackedSource([TRANSCRIPTS.ollama]), loggingHandler([]), { format: 'ollama', listeners: [listener] });
    expect(sdk.streams()).to.have.length(1);
    expect((await sdk.points()).map((point) => point.name)).to.deep.equal([
      'gen_ai.client.operation.duration',
      'gen_ai.client.operation.time_to_first_chunk',
      'gen_ai.client.token.usage',
      'gen_ai.client.token.usage',
    ]);
  });

  it('never changes callbacks or the outcome when the tracer throws', async () => {
    const broken: Tracer = {
      startSpan: () => {
        throw new Error('tracer bug');
      },
      startActiveSpan: () => {
        throw new Error('tracer bug');
      },
    } as unknown as Tracer;
    const provider: TracerProvider = { getTracer: () => broken };
    const plainLog: string[] = [];
    const plain = await consumeStream(trackedSource([TRANSCRIPTS['openai-chat']]), loggingHandler(plainLog), { format: 'openai-chat' });
    const log: string[] = [];
    const observed = await consumeStream(trackedSource([TRANSCRIPTS['openai-chat']]), loggingHandler(log), { format: 'openai-chat', listeners: [openTelemetryListener({ tracerProvider: provider })] });
    expect([observed, log]).to.deep.equal([plain, plainLog]);
  });

  it('captures no content by default: no prompt, answer, tool arguments or refusal text on any span', async () => {
    sdk = registerSdk();
    for (const own of OWN_TRANSCRIPTS) await viaClient(own.format, [openTelemetryListener()], new TextDecoder().decode(own.bytes));
    const exported = JSON.stringify(sdk.finished().map((span) => [span.attributes, span.events, span.status]));
    for (const own of OWN_TRANSCRIPTS) {
      for (const text of [own.expected.text, own.expected.reasoning, ...own.expected.toolCalls.map((call) => call.arguments), ...own.expected.payloads]) {
        if (text !== null && text.length > 3) expect(exported, own.file).not.to.include(text);
      }
    }
    expect(exported).not.to.include('"Hi"');
    expect(sdk.streams()).to.have.length(OWN_TRANSCRIPTS.length);
  });

  it('captures the input and output messages as JSON when asked, never a signature or encrypted payload', async () => {
    sdk = registerSdk();
    await viaClient('anthropic', [openTelemetryListener({ captureContent: true })]);
    const attributes = sdk.streams()[0]!.attributes;
    expect(JSON.parse(attributes['gen_ai.input.messages'] as string)).to.deep.equal([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]);
    expect(JSON.parse(attributes['gen_ai.output.messages'] as string)).to.deep.equal([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Hello from Köln ☕' },
          { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
        finish_reason: 'tool_call',
      },
    ]);
    const rich = OWN_TRANSCRIPTS.find((t) => t.file === 'own/anthropic/thinking-redacted-server-tool-tools.sse')!;
    await viaClient('anthropic', [openTelemetryListener({ captureContent: true })], new TextDecoder().decode(rich.bytes));
    const exported = JSON.stringify(sdk.streams()[1]!.attributes);
    expect(rich.expected.payloads.length).to.be.above(0);
    for (const payload of rich.expected.payloads) expect(exported).not.to.include(payload);
  });

  it('leaves no open span and no per-stream state after 200 concurrent streams', async () => {
    sdk = registerSdk();
    const listener = openTelemetryListener();
    const contexts: Map<unknown, unknown>[] = [];
    const spy: ChatModelListener = { onResponse: (ctx) => void contexts.push(ctx.attributes), onCancel: (ctx) => void contexts.push(ctx.attributes) };
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const abort = new AbortController();
        if (i % 2 === 1) abort.abort();
        return consumeStream(trackedSource([TRANSCRIPTS.gemini]), quiet, { format: 'gemini', signal: abort.signal, listeners: [listener, spy] });
      }),
    );
    expect(sdk.streams()).to.have.length(200);
    expect(contexts.every((bag) => bag.size === 0)).to.equal(true);
  });

  it("uses the newest names with semconv 'latest': inference metrics, usage counters with modality unknown (0 when unreported)", async () => {
    sdk = registerSdk();
    const chatError = OWN_TRANSCRIPTS.find((t) => t.file === 'own/openai-chat/server-error.sse')!;
    await viaClient('anthropic', [openTelemetryListener({ semconv: 'latest' })]);
    await viaClient('openai-chat', [openTelemetryListener({ semconv: 'latest' })], new TextDecoder().decode(chatError.bytes));
    const points = await sdk.points();
    const summary = points.map((point) => [
      point.name,
      point.attributes['gen_ai.provider.name'],
      point.attributes['gen_ai.token.modality'] ?? null,
      point.attributes['error.type'] ?? null,
      point.value ?? point.count,
    ]);
    expect(summary).to.deep.equal([
      ['gen_ai.client.inference.duration', 'anthropic', null, null, 1],
      ['gen_ai.client.inference.duration', 'openai', null, 'server_error', 1],
      ['gen_ai.client.inference.time_to_first_chunk', 'anthropic', null, null, 1],
      ['gen_ai.client.inference.time_to_first_chunk', 'openai', null, 'server_error', 1],
      ['gen_ai.client.inference.usage.input_tokens', 'anthropic', 'unknown', null, 10],
      ['gen_ai.client.inference.usage.input_tokens', 'openai', 'unknown', 'server_error', 0],
      ['gen_ai.client.inference.usage.output_tokens', 'anthropic', 'unknown', null, 12],
      ['gen_ai.client.inference.usage.output_tokens', 'openai', 'unknown', 'server_error', 0],
      ['gen_ai.client.inference.operation.input_tokens', 'anthropic', null, null, 1],
      ['gen_ai.client.inference.operation.output_tokens', 'anthropic', null, null, 1],
    ]);
  });
});
