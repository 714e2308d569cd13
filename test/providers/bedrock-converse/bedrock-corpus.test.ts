import { expect } from 'chai';
import { decodeBedrockBody } from './bedrock-event-stream';
import { runBedrock } from './bedrock-harness';
import { bedrockCorpus, corpusBody, type CorpusBlock } from './bedrock-corpus';

const STREAMS = bedrockCorpus('the recorded Bedrock corpus');

/** The part a manifest block must have become, as JSON (an empty text block becomes none). */
function expectedPart(block: CorpusBlock): unknown {
  const none = { payload: null, attributes: {} };
  switch (block.type) {
    case 'text':
      if (block.text === '' && block.citations === undefined) return undefined;
      return {
        type: 'text',
        text: block.text,
        payload: block.citations === undefined ? null : { provider: 'bedrock', kind: 'citations', data: JSON.stringify(block.citations) },
        attributes: {},
      };
    case 'reasoning': {
      const payload =
        block.redactedContent !== undefined
          ? { provider: 'bedrock', kind: 'redacted_content', data: block.redactedContent }
          : block.signature === null || block.signature === undefined
            ? null
            : { provider: 'bedrock', kind: 'signature', data: block.signature };
      return { type: 'reasoning', text: block.text ?? null, summary: null, payload, attributes: {} };
    }
    case 'toolUse':
      if (block.toolUseType === 'server_tool_use') return { type: 'unknown', provider: 'bedrock', kind: 'toolUse', ...none };
      return { type: 'tool_call', toolCall: { id: block.toolUseId, type: 'function', name: block.name, arguments: undefined }, ...none };
    default:
      return { type: 'unknown', provider: 'bedrock', kind: block.type, ...none };
  }
}

describe('BedrockConverseMapper over the recorded Bedrock corpus (../shared/corpus/bedrock)', () => {
  const served = STREAMS.filter((entry) => entry.http.status === 200);

  it('holds the 31 streamed bodies and 2 HTTP errors the corpus README names', function () {
    if (STREAMS.length === 0) this.skip();
    expect(served).to.have.length(31);
    expect(STREAMS.filter((entry) => entry.http.status !== 200).map((entry) => entry.http.status)).to.deep.equal([400, 429]);
  });

  for (const entry of served) {
    describe(entry.name, () => {
      const decoded = decodeBedrockBody(corpusBody(entry));
      const result = runBedrock(decoded.frames);

      it('decodes whole and completes, without an error', () => {
        expect(decoded.leftover).to.equal(0);
        expect(decoded.frames).to.have.length(entry.frames);
        expect(result.error).to.equal(null);
        expect(result.response).to.not.equal(null);
      });

      it('carries the manifest text, reasoning, tool calls, finish reasons, usage and metrics', () => {
        const { aiMessage, metadata } = result.response!;
        const expected = entry.expected;
        expect(aiMessage.text).to.equal(expected.text);
        expect(aiMessage.thinking).to.equal(expected.reasoning);
        expect(aiMessage.toolExecutionRequests.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }))).to.deep.equal(
          expected.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
        );
        expect(metadata.finishReason).to.equal(expected.finishReason);
        expect(metadata.providerFinishReason).to.equal(expected.providerFinishReason);
        expect(metadata.tokenUsage).to.deep.equal(expected.tokenUsage);
        expect(metadata.providerUsage).to.deep.equal(expected.usage);
        expect(metadata.providerMetadata?.metrics).to.deep.equal(expected.metrics);
      });

      it('has one part per manifest block, in order, server tool uses as unknown parts with their input', () => {
        const parts = result.parts as Array<Record<string, unknown>>;
        const expected = entry.expected.blocks.map(expectedPart).filter((part) => part !== undefined) as Array<Record<string, unknown>>;
        // The manifest gives no arguments text per block nor a rawJson: those are checked against toolCalls and serverToolCalls.
        expect(parts.map(shape)).to.deep.equal(expected.map(shape));
        const serverUses = parts
          .filter((part) => part.type === 'unknown' && part.kind === 'toolUse')
          .map((part) => (JSON.parse(part.rawJson as string) as { toolUse: Record<string, unknown> }).toolUse);
        expect(serverUses.map(({ toolUseId, name, input }) => ({ id: toolUseId, name, input }))).to.deep.equal(entry.expected.serverToolCalls.map(({ id, name, input }) => ({ id, name, input })));
      });
    });
  }
});

/** A part as JSON without the fields compared elsewhere: a tool call's arguments, an unknown part's rawJson. */
function shape(part: Record<string, unknown>): Record<string, unknown> {
  if (part.type === 'unknown') return { ...part, rawJson: undefined };
  if (part.type === 'tool_call') return { ...part, toolCall: { ...(part.toolCall as object), arguments: undefined } };
  return part;
}
