import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The runtime smoke test's server: one origin on 127.0.0.1 serves the page, the bundled consumer
 * and every stream body, so a browser needs no CORS. Bodies are small and hand-written; text is
 * non-ASCII and written in 5-byte pieces, so UTF-8 characters are split across chunks.
 */

const sse = (events: ReadonlyArray<readonly [string | null, unknown]>): string =>
  events.map(([event, data]) => `${event === null ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`).join('');

const chatChunk = (delta: unknown, finish: string | null = null): unknown => ({
  id: 'chatcmpl-smoke',
  object: 'chat.completion.chunk',
  model: 'gpt-smoke',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** OpenAI Chat Completions: text in two deltas, one tool call in two argument deltas, usage, [DONE]. */
export const OPENAI_CHAT_BODY =
  sse([
    [null, chatChunk({ role: 'assistant', content: 'Hello, ' })],
    [null, chatChunk({ content: 'wörld ✓' })],
    [null, chatChunk({ tool_calls: [{ index: 0, id: 'call_smoke', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] })],
    [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] })],
    [null, chatChunk({}, 'tool_calls')],
    [null, { id: 'chatcmpl-smoke', object: 'chat.completion.chunk', model: 'gpt-smoke', choices: [], usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } }],
  ]) + 'data: [DONE]\n\n';

/** Anthropic Messages: a thinking block with its signature, then a text block. */
export const ANTHROPIC_BODY = sse([
  [
    'message_start',
    { type: 'message_start', message: { id: 'msg_smoke', type: 'message', role: 'assistant', model: 'claude-smoke', content: [], stop_reason: null, usage: { input_tokens: 4, output_tokens: 1 } } },
  ],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think ' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '… done.' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Bonjour ' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'à tous ✓' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }],
  ['message_stop', { type: 'message_stop' }],
]);

const responsesMessage = (text: string, status: string): unknown => ({
  id: 'msg_smoke',
  type: 'message',
  role: 'assistant',
  status,
  content: text === '' ? [] : [{ type: 'output_text', text, annotations: [] }],
});

/** OpenAI Responses: one message item with its text in two deltas, then `response.completed`. */
export const OPENAI_RESPONSES_BODY = sse([
  ['response.created', { type: 'response.created', response: { id: 'resp_smoke', model: 'gpt-smoke', status: 'in_progress', output: [] } }],
  ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: responsesMessage('', 'in_progress') }],
  ['response.output_text.delta', { type: 'response.output_text.delta', item_id: 'msg_smoke', output_index: 0, content_index: 0, delta: 'Hej ' }],
  ['response.output_text.delta', { type: 'response.output_text.delta', item_id: 'msg_smoke', output_index: 0, content_index: 0, delta: 'världen ✓' }],
  ['response.output_text.done', { type: 'response.output_text.done', item_id: 'msg_smoke', output_index: 0, content_index: 0, text: 'Hej världen ✓' }],
  ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item: responsesMessage('Hej världen ✓', 'completed') }],
  [
    'response.completed',
    {
      type: 'response.completed',
      response: { id: 'resp_smoke', model: 'gpt-smoke', status: 'completed', output: [responsesMessage('Hej världen ✓', 'completed')], usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } },
    },
  ],
]);

/** Gemini `streamGenerateContent?alt=sse`: text in two chunks, an inline image, `finishReason: STOP`. */
export const GEMINI_BODY = sse([
  [null, { candidates: [{ content: { role: 'model', parts: [{ text: 'Hola ' }] } }], modelVersion: 'gemini-smoke', responseId: 'gem_smoke' }],
  [null, { candidates: [{ content: { role: 'model', parts: [{ text: 'señor ✓' }] } }], modelVersion: 'gemini-smoke', responseId: 'gem_smoke' }],
  [
    null,
    {
      candidates: [{ content: { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
      modelVersion: 'gemini-smoke',
      responseId: 'gem_smoke',
    },
  ],
]);

const ollamaLine = (message: unknown, done: boolean, extra: object = {}): string =>
  `${JSON.stringify({ model: 'llama-smoke', created_at: '2026-11-01T00:00:00Z', message: { role: 'assistant', ...(message as object) }, done, ...extra })}\n`;

/** Ollama `/api/chat` (NDJSON): thinking, text in two lines, the `done` line with counts. */
export const OLLAMA_BODY =
  ollamaLine({ content: '', thinking: 'Hmm…' }, false) +
  ollamaLine({ content: 'Ciao ' }, false) +
  ollamaLine({ content: 'mondo ✓' }, false) +
  ollamaLine({ content: '' }, true, { done_reason: 'stop', prompt_eval_count: 3, eval_count: 4 });

const BODIES: Readonly<Record<string, { readonly body: string; readonly type: string }>> = {
  'openai-chat': { body: OPENAI_CHAT_BODY, type: 'text/event-stream' },
  'openai-responses': { body: OPENAI_RESPONSES_BODY, type: 'text/event-stream' },
  anthropic: { body: ANTHROPIC_BODY, type: 'text/event-stream' },
  gemini: { body: GEMINI_BODY, type: 'text/event-stream' },
  ollama: { body: OLLAMA_BODY, type: 'application/x-ndjson' },
};

/** The first chunk of the stalling streams: one text delta, then silence. */
const STALL_FIRST = sse([[null, chatChunk({ role: 'assistant', content: 'Partial' })]]);

/** A keep-alive comment every this many ms on `/trickle` (bytes keep coming: only a deadline ends it). */
const TRICKLE_EVERY_MS = 100;
/** The trickle stops after this many comments whatever happens (about 10 s), so nothing can run away. */
const TRICKLE_MAX = 100;

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>partstream smoke</title>
<script type="module">
import { runSmoke } from '/smoke.js';
window.__smoke = runSmoke(location.origin).then((results) => ({ results }), (error) => ({ error: String(error && error.stack || error) }));
</script>
`;

/** What the server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Resolves true when the client closed the connection before the server finished the response. */
  readonly closedEarly: Promise<boolean>;
}

/** The running smoke server. */
export interface SmokeServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  readonly requests: readonly SeenRequest[];
  close(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..', '..');
/** The consumer every runtime runs: it imports the library by its public entry only. */
export const SMOKE_ENTRY = join(ROOT, 'test', 'runtimes', 'fixtures', 'smoke-consumer.ts');

/**
 * Bundles the consumer for the browser platform as one ES module (Deno and Bun run the same file).
 * esbuild refuses a browser bundle that imports a Node module, which is a second check that the
 * library is portable.
 */
export async function bundleSmokeConsumer(): Promise<string> {
  const result = await build({
    entryPoints: [SMOKE_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error('Expected esbuild to write one bundle, got none');
  return file.text;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    request.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Writes `text` in 5-byte pieces (splitting UTF-8 characters), then ends. */
function writeInPieces(response: ServerResponse, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let start = 0; start < bytes.length; start += 5) response.write(bytes.subarray(start, start + 5));
  response.end();
}

/** Starts the smoke server on 127.0.0.1 (an ephemeral port) serving `bundle` as `/smoke.js`. */
export async function startSmokeServer(bundle: string): Promise<SmokeServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  const server = createServer((request, response) => {
    let finished = false;
    const closedEarly = new Promise<boolean>((resolve) => {
      response.on('close', () => resolve(!finished));
    });
    const finish = (): void => {
      finished = true;
    };
    response.on('finish', finish);
    void readBody(request).then((body) => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, closedEarly });
      const path = (request.url ?? '/').split('?')[0] as string;
      const stream = (type: string): void => {
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        response.flushHeaders();
      };
      if (path === '/') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      } else if (path === '/favicon.ico') {
        response.writeHead(204).end();
      } else if (path === '/smoke.js') {
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
      } else if (path.startsWith('/body/') && BODIES[path.slice('/body/'.length)] !== undefined) {
        const { body, type } = BODIES[path.slice('/body/'.length)] as { body: string; type: string };
        stream(type);
        writeInPieces(response, body);
      } else if (path === '/v1/chat/completions' && request.method === 'POST') {
        stream('text/event-stream');
        writeInPieces(response, OPENAI_CHAT_BODY);
      } else if (path.startsWith('/stall/')) {
        stream('text/event-stream');
        response.write(STALL_FIRST);
      } else if (path === '/trickle') {
        stream('text/event-stream');
        response.write(STALL_FIRST);
        let sent = 0;
        const timer = setInterval(() => {
          if (++sent > TRICKLE_MAX || response.destroyed) {
            clearInterval(timer);
            timers.delete(timer);
            response.end();
            return;
          }
          response.write(': keep-alive\n\n');
        }, TRICKLE_EVERY_MS);
        timers.add(timer);
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end(`no route ${path}`);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
