import { expect } from 'chai';
import type { AiMessage } from '../../../lib/handler/types';
import { aiMessage, toolExecutionRequest } from '../../../lib/handler/values';
import { mediaPart, reasoningPart, textPart, toolCallPart, unknownPart } from '../../../lib/parts/factories';
import { toBedrockMessages } from '../../../lib/providers/bedrock-converse/to-bedrock-messages';
import { systemMessage, toolExecutionResultMessage, userMessage } from '../../../lib/replay/chat-message';
import { toAnthropicMessages } from '../../../lib/providers/anthropic/to-anthropic-messages';
import { ownTranscripts } from '../../support/own-transcripts';
import { WIRE_FORMATS } from '../../support/transcripts';
import { finalMessage as wireFinalMessage } from '../../replay/replay-support';
import { decodeBedrockBody, encodeBedrockStream } from './bedrock-event-stream';
import { runBedrock } from './bedrock-harness';
import { blockStart, blockStop, delta, input, metadata, reasoning, start, stop, text } from './bedrock-transcripts';

// Opaque values as Bedrock sends them: base64 with `+`, `/`, `=`, byte for byte.
const SIGNATURE = 'EqQBCkYIBxgCKkB+s1g/n4tUr3=' + 'x'.repeat(300) + '==';
const REDACTED = 'RXRrRUNrZ0lC+/+/QQ==';
const CITATION = { title: 'Doc', sourceContent: [{ text: 'Thirty days.' }], location: { documentChar: { documentIndex: 0, start: 0, end: 12 } } };

/** The final message of a Bedrock transcript, through binary and the mapper. */
function finalMessage(messages: Parameters<typeof encodeBedrockStream>[0]): AiMessage {
  const result = runBedrock(decodeBedrockBody(encodeBedrockStream(messages)).frames);
  if (result.response === null) throw new Error(`Expected the transcript to complete, got ${String(result.error)}`);
  return result.response.aiMessage;
}

const bedrockTurn = (): AiMessage =>
  finalMessage([
    start,
    reasoning(0, { text: 'Let me ' }),
    reasoning(0, { text: 'think.' }),
    reasoning(0, { signature: SIGNATURE }),
    blockStop(0),
    reasoning(1, { redactedContent: REDACTED }),
    blockStop(1),
    delta(2, { citation: CITATION }),
    text(2, 'Thirty days.'),
    blockStop(2),
    blockStart(3, { toolUse: { toolUseId: 'srv_1', name: 'nova_code_interpreter', type: 'server_tool_use' } }),
    input(3, '{"snippet":"1+1"}'),
    blockStop(3),
    blockStart(4, { toolUse: { toolUseId: 'tooluse_1', name: 'weather' } }),
    input(4, '{"location": "Paris",'),
    input(4, ' "units": ["C"]}'),
    blockStop(4),
    stop('tool_use'),
    metadata({ inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
  ]);

describe('toBedrockMessages', () => {
  it('gives back reasoning with its signature, redacted content, text with its citations, the server tool use and the tool use, in wire order; tool results and the next user message share one user turn', () => {
    const ai = bedrockTurn();
    const request = ai.toolExecutionRequests[0]!;
    const { system, messages } = toBedrockMessages([
      systemMessage('Be brief.'),
      systemMessage('Use metric units.'),
      userMessage('Weather in Paris?'),
      ai,
      toolExecutionResultMessage(request, '21 °C'),
      userMessage('Thanks'),
    ]);
    expect(system).to.deep.equal([{ text: 'Be brief.' }, { text: 'Use metric units.' }]);
    expect(messages).to.deep.equal([
      { role: 'user', content: [{ text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'Let me think.', signature: SIGNATURE } } },
          { reasoningContent: { redactedContent: REDACTED } },
          { citationsContent: { content: [{ text: 'Thirty days.' }], citations: [CITATION] } },
          { toolUse: { toolUseId: 'srv_1', name: 'nova_code_interpreter', type: 'server_tool_use', input: { snippet: '1+1' } } },
          { toolUse: { toolUseId: 'tooluse_1', name: 'weather', input: { location: 'Paris', units: ['C'] } } },
        ],
      },
      { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: '21 °C' }] } }, { text: 'Thanks' }] },
    ]);
  });

  it('with bytes: uint8array, redacted content and media bytes are Uint8Arrays, as the AWS SDK takes them', () => {
    const { messages } = toBedrockMessages([userMessage([mediaPart({ id: null, mimeType: 'image/png', name: null, data: 'iVBORw==', dataKind: 'string' })]), bedrockTurn()], { bytes: 'uint8array' });
    expect(messages[0]).to.deep.equal({ role: 'user', content: [{ image: { format: 'png', source: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) } } }] });
    const redacted = (messages[1]!.content[1] as { reasoningContent: { redactedContent: Uint8Array } }).reasoningContent.redactedContent;
    expect(redacted).to.be.instanceOf(Uint8Array);
    expect(Buffer.from(redacted).toString('base64')).to.equal(REDACTED);
  });

  it('a tool result marked as an error has status error; one without an id answers the call made up for it', () => {
    const ai = aiMessage([toolCallPart({ id: null, name: 'lookup', arguments: '{"q":1}' })]);
    const { messages } = toBedrockMessages([ai, toolExecutionResultMessage(toolExecutionRequest({ id: null, name: 'lookup', arguments: '{}' }), 'no', { isError: true })]);
    expect(messages).to.deep.equal([
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'partstream-call-1', name: 'lookup', input: { q: 1 } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'partstream-call-1', content: [{ text: 'no' }], status: 'error' } }] },
    ]);
  });

  it("leaves out other providers' payloads and parts, reasoning without a Bedrock payload, incomplete calls; skips a turn left empty", () => {
    const anthropicTurn = aiMessage([
      reasoningPart('thought', { payload: { provider: 'anthropic', kind: 'signature', data: 'c2lnbmF0dXJlLW9uZQ==' } }),
      reasoningPart(null, { payload: { provider: 'anthropic', kind: 'redacted_thinking', data: 'cmVkYWN0ZWQtb25l' } }),
      unknownPart('anthropic', 'server_tool_use', '{"type":"server_tool_use","id":"srvtoolu_1"}'),
      textPart('Hello', { payload: { provider: 'anthropic', kind: 'citations', data: '[]' } }),
      toolCallPart({ id: 'cut', name: 'search', arguments: '{"q":"par' }, { attributes: { incomplete: 'true' } }),
    ]);
    const onlyForeign = aiMessage([reasoningPart('plain reasoning'), unknownPart('gemini', 'executableCode', '{}')]);
    const request = JSON.stringify(toBedrockMessages([userMessage('hi'), anthropicTurn, userMessage('again'), onlyForeign]));
    for (const marker of ['c2lnbmF0dXJlLW9uZQ==', 'cmVkYWN0ZWQtb25l', 'server_tool_use', 'executableCode', 'plain reasoning', 'thought', 'cut']) expect(request, marker).to.not.contain(marker);
    expect(JSON.parse(request)).to.deep.equal({
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [{ text: 'Hello' }] },
        { role: 'user', content: [{ text: 'again' }] },
      ],
    });
  });

  it("a Bedrock turn continued on Anthropic sends none of Bedrock's payloads or blocks", () => {
    const ai = bedrockTurn();
    const request = JSON.stringify(toAnthropicMessages([userMessage('start'), ai, toolExecutionResultMessage(ai.toolExecutionRequests[0]!, 'result of weather')]));
    for (const marker of [SIGNATURE, REDACTED, 'nova_code_interpreter', 'Doc']) expect(request, marker).to.not.contain(marker);
    expect(request).to.contain('"weather"');
    expect(request).to.contain('result of weather');
  });

  for (const format of WIRE_FORMATS) {
    it(`a ${format} conversation continued on Bedrock sends none of its payloads, and its calls and results go on`, async () => {
      const rich = ownTranscripts(format).find((t) => t.expected.status === 'completed' && !t.file.includes('/small.'))!;
      const ai = await wireFinalMessage(format, new TextDecoder().decode(rich.bytes));
      const history = [userMessage('start'), ai, ...ai.toolExecutionRequests.map((call) => toolExecutionResultMessage(call, `result of ${call.name}`)), userMessage('continue')];
      const request = JSON.stringify(toBedrockMessages(history));
      for (const payload of rich.expected.payloads) expect(request, payload).to.not.contain(payload);
      for (const call of ai.toolExecutionRequests) {
        expect(request).to.contain(JSON.stringify(call.name));
        expect(request).to.contain(`result of ${call.name}`);
      }
    });
  }

  it('rejects arguments that are not a JSON object, media it cannot send, and bad options, with a TypeError', () => {
    expect(() => toBedrockMessages([aiMessage([toolCallPart({ id: 'c1', name: 'f', arguments: '[1]' })])])).to.throw(TypeError, /tool call "f" \(id "c1"\)/);
    expect(() => toBedrockMessages([userMessage([mediaPart({ id: null, mimeType: 'image/png', name: null, data: 'https://example.com/a.png', dataKind: 'url' })])])).to.throw(
      TypeError,
      /takes no URL/,
    );
    expect(() => toBedrockMessages([userMessage([mediaPart({ id: null, mimeType: 'audio/wav', name: null, data: 'AA==', dataKind: 'string' })])])).to.throw(TypeError, /audio\/wav/);
    expect(() => toBedrockMessages([], { bytes: 'hex' } as never)).to.throw(TypeError, /options.bytes/);
    expect(() => toBedrockMessages('nope' as never)).to.throw(TypeError);
  });

  it('a document goes as a document block with its name', () => {
    const { messages } = toBedrockMessages([userMessage([mediaPart({ id: null, mimeType: 'application/pdf', name: 'terms', data: 'JVBERg==', dataKind: 'string' })])]);
    expect(messages).to.deep.equal([{ role: 'user', content: [{ document: { format: 'pdf', name: 'terms', source: { bytes: 'JVBERg==' } } }] }]);
  });
});
