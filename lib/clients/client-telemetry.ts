import type { StreamTelemetry } from '../telemetry/chat-model-listener';

/** The server a request URL names: its host name (IPv6 without brackets) and port (443 / 80 by default). */
function serverOf(url: string): { serverAddress?: string; serverPort?: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {};
  }
  const host = parsed.hostname;
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'http:' ? 80 : 443;
  return { serverAddress: address, serverPort: port };
}

/**
 * What an HTTP client tells its stream's listeners: the model, the request body as sent, the
 * server; the caller's `telemetry` (a conversation id, say) adds to it and wins.
 */
export function clientTelemetry(url: string, model: string | undefined, body: unknown, own: StreamTelemetry | undefined): StreamTelemetry {
  return { requestModel: model, request: body, ...serverOf(url), ...own };
}
