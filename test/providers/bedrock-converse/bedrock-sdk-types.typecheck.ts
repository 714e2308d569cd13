// Compiled by `npm run typecheck` (tsconfig.json includes test/), never run by mocha: what
// `toBedrockMessages(history, { bytes: 'uint8array' })` returns is assignable to the AWS SDK's
// Converse request types, and the default (base64 text, the HTTP API's JSON) is not, by design.
import type { ContentBlock, ConverseStreamCommandInput, Message, SystemContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { ChatMessage } from '../../../lib/replay/chat-message';
import { toBedrockMessages } from '../../../lib/providers/bedrock-converse/to-bedrock-messages';

export function bedrockSdkRequestTypes(history: readonly ChatMessage[], modelId: string): unknown[] {
  const input = toBedrockMessages(history, { bytes: 'uint8array' });
  const messages: Message[] = input.messages;
  const system: SystemContentBlock[] | undefined = input.system;
  const command: ConverseStreamCommandInput = { modelId, ...input };
  const firstBlock: ContentBlock | undefined = input.messages[0]?.content[0];
  // @ts-expect-error base64 text is the HTTP API's form of bytes, not the SDK's Uint8Array
  const base64: Message[] = toBedrockMessages(history).messages;
  return [messages, system, command, firstBlock, base64];
}
