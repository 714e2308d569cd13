import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/**
 * The real AWS SDK's Bedrock client, pointed at a loopback server with fixed fake credentials,
 * one attempt per request, over HTTP/1.1 (the client's default handler speaks HTTP/2, for
 * bidirectional streams; the loopback server does not). The SDK's notice about future Node
 * versions is turned off: it says nothing about these tests.
 */
export function loopbackBedrockClient(url: string): BedrockRuntimeClient {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: url,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
  });
}
