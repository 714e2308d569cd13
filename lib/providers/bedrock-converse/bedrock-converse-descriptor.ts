import { requestBody } from '../kit/request-types';
import { copyRequestNumbers, messagesField, requestFields, setStrings, type AttributesInto, type RequestFields } from '../kit/telemetry-attributes';
import type { ProviderDescriptor } from '../provider-descriptor';
import { BedrockConverseMapper } from './bedrock-converse-mapper';
import type { ConverseStreamRequest } from './bedrock-converse-request';
import { bedrockBaseUrl, bedrockConversePath } from './bedrock-endpoint';
import type { BedrockConverseInput } from './bedrock-message-param';
import { bedrockFrameFromSdkEvent } from './bedrock-sdk-events';
import { createEventStreamDecoder, eventStreamPreludeVerdict, type EventStreamFrame } from '../../wire/aws-eventstream/eventstream-decoder';
import { mapBedrockStopReason } from './map-bedrock-stop-reason';
import { toBedrockMessages } from './to-bedrock-messages';

/** The body of a ConverseStream request: every field but `modelId` (in the URL), then `extraBody`'s. */
function bedrockBody(request: ConverseStreamRequest): Readonly<Record<string, unknown>> {
  const { modelId: _modelId, ...fields } = request;
  return requestBody(fields, {});
}

function requestAttributes(body: RequestFields): AttributesInto {
  const into: AttributesInto = {};
  const config = requestFields(body.inferenceConfig) ?? {};
  copyRequestNumbers(into, config, { max_tokens: 'maxTokens', temperature: 'temperature', top_p: 'topP' });
  setStrings(into, 'gen_ai.request.stop_sequences', config.stopSequences);
  return into;
}

/** The prelude's verdict in the sniffer's words. */
const PRELUDE_VERDICTS = { eventstream: 'yes', not: 'no', 'need-more': 'more' } as const;

/**
 * Amazon Bedrock ConverseStream (SPEC §15): binary `application/vnd.amazon.eventstream` frames
 * (`messageStart` … `messageStop`, `metadata`), or the AWS SDK's decoded event objects
 * (`readObject`: `bedrockFrameFromSdkEvent`). The client POSTs `/model/{modelId}/converse-stream`
 * in the region `AWS_REGION` or `AWS_DEFAULT_REGION` names, with a Bedrock API key
 * (`AWS_BEARER_TOKEN_BEDROCK`) as a bearer token; `streamBedrockConverse` adds the `region` option
 * and a `sign` hook (SigV4).
 */
export const bedrockConverseProvider: ProviderDescriptor<'bedrock-converse', EventStreamFrame, ConverseStreamRequest, BedrockConverseInput> = {
  format: 'bedrock-converse',
  name: 'Amazon Bedrock ConverseStream',
  expected: 'an Amazon Bedrock ConverseStream stream (application/vnd.amazon.eventstream)',
  framing: 'aws-eventstream',
  contentType: 'application/vnd.amazon.eventstream',
  // Recognised by its binary prelude: lengths that fit and a prelude CRC that matches.
  sniff: { binaryPrelude: (bytes) => PRELUDE_VERDICTS[eventStreamPreludeVerdict(bytes)] },
  createMapper: () => new BedrockConverseMapper(),
  createByteDecoder: createEventStreamDecoder,
  readObject: bedrockFrameFromSdkEvent,
  finishReason: mapBedrockStopReason,
  client: {
    provider: 'Amazon Bedrock',
    requestName: 'a Bedrock ConverseStream',
    modelField: 'modelId',
    endpoint: { option: 'baseURL', env: null, defaultBase: () => bedrockBaseUrl(), version: '' },
    path: bedrockConversePath,
    apiKeyEnv: ['AWS_BEARER_TOKEN_BEDROCK'],
    auth: { header: 'authorization', prefix: 'Bearer ' },
    headers: {},
    body: bedrockBody,
  },
  replay: toBedrockMessages,
  telemetry: {
    providerName: 'aws.bedrock',
    operationName: 'chat',
    requestAttributes,
    requestMessages: (body) => ({ messages: messagesField(body), system: body.system }),
  },
};
