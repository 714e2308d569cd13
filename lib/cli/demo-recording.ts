import { sleep } from '../transport/sleep';
/**
 * An Anthropic Messages stream (`text/event-stream` body) used by `partstream replay` when no
 * file is given. It follows the wire format of a real response: a thinking block closed by its
 * signature, a server-side web search (`server_tool_use` + `web_search_tool_result`, which no
 * typed callback covers, so they surface raw and stay in the final message as `unknown` parts),
 * answer text, a client tool call whose JSON input
 * streams in `input_json_delta` pieces, pings between blocks, then `message_delta` (stop reason
 * and usage) and `message_stop`.
 *
 * `String.raw` keeps the JSON escapes (`\n`, `\"`) exactly as they travel on the wire.
 */
export const DEMO_RECORDING: string = String.raw`event: message_start
data: {"type":"message_start","message":{"id":"msg_01PsDemoReplay7Vb2Qk4Zt9","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1873,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3,"service_tier":"standard"}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: ping
data: {"type":"ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user asks whether"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" the Pont des Arts is open"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" this weekend and what the"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" weather will be.\n\nI'll search"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" for closure notices first,"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" then ask the weather tool"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" for Paris."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQCCkYIBxgCKkDemoSignatureOnlyForReplayQm3Vx8c2Rk5Lw0Tz1Hn6Yp4Jd7Sa9Fg2Xb5Nc8Ue1Wi3Ko6Zr0Ly4Mt7Pv2Qj5Hs8Gd1Ea4Rb7Tc0Yf3Ug6Ih9Jk2Ml5No8Pq1Rs4Tu7Vw0Xy3Za6Bc9De2Fg5Hi8Jk1Lm4No7Pq0Rs3Tu6Vw9Xy2Za5Bc8De1Fg4Hi7Jk0Lm3No6Pq9Rs2Tu5Vw8Xy1Za4Bc7De0Fg3Hi6Jk9Lm2No5Pq8Rs1Tu4Vw7Xy0Za3Bc6De9Fg2Hi5Jk8Lm1No4Pq7Rs0GAE="}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_01DemoWebSearch4Hk8","name":"web_search","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"Pont des"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" Arts closure this weekend\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01DemoWebSearch4Hk8","content":[{"type":"web_search_result","title":"Pont des Arts – opening hours and works notices","url":"https://example.org/paris/pont-des-arts","encrypted_content":"EpQBCioIBxgCIiQ5ZGVtby1yZXN1bHQtZW5jcnlwdGVkLWNvbnRlbnQtb25seRIMDemoOnlyPayload","page_age":"3 days ago"}]}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: ping
data: {"type":"ping"}

event: content_block_start
data: {"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"I found no"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" closure notice for"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" the Pont des Arts"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" this weekend, so"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" it should be open"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" as usual — let me"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" check the forecast"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" for Paris."}}

event: content_block_stop
data: {"type":"content_block_stop","index":3}

event: content_block_start
data: {"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"toolu_01DemoGetWeather9Xq2","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Pa"}}

event: content_block_delta
data: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"ris\", \"days\": "}}

event: content_block_delta
data: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"2, \"unit\": \"°C\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":4}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":1873,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":214,"server_tool_use":{"web_search_requests":1}}}

event: message_stop
data: {"type":"message_stop"}

`;

/** Options of `demoRecordingChunks`. */
export interface DemoRecordingOptions {
  /** Milliseconds to wait before each content delta event (other events wait a fifth of it). 0 disables waiting. */
  readonly delayMs?: number | undefined;
  /** Largest piece, in bytes, an event is cut into (pieces may split a UTF-8 character). */
  readonly maxPieceBytes?: number | undefined;
  /** Stops the delivery early. */
  readonly signal?: AbortSignal | undefined;
}

/** The default wait before each content delta of the embedded recording, in milliseconds. */
const DEMO_DELAY_MS = 35;

/**
 * Delivers `DEMO_RECORDING` the way a network would: event by event, each cut into small byte
 * pieces, with a short pause before each event so a reader visibly streams.
 */
export async function* demoRecordingChunks(options: DemoRecordingOptions = {}): AsyncGenerator<Uint8Array> {
  const delayMs = options.delayMs ?? DEMO_DELAY_MS;
  const maxPieceBytes = options.maxPieceBytes ?? 48;
  if (!Number.isInteger(maxPieceBytes) || maxPieceBytes < 1) {
    throw new TypeError(`Expected maxPieceBytes to be a positive integer, got ${String(maxPieceBytes)}`);
  }
  const events = DEMO_RECORDING.split(/(?<=\n\n)/);
  const encoder = new TextEncoder();
  for (const event of events) {
    if (options.signal?.aborted) return;
    const wait = event.includes('"content_block_delta"') ? delayMs : Math.round(delayMs / 5);
    if (wait > 0) await sleep(wait, options.signal);
    const bytes = encoder.encode(event);
    for (let start = 0; start < bytes.length; start += maxPieceBytes) {
      yield bytes.subarray(start, Math.min(start + maxPieceBytes, bytes.length));
    }
  }
}
