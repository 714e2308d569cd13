/**
 * Message parts without a provider: stamp streamed deltas with StreamingPartIndexer, merge them
 * with MessageAggregator, and store the result as JSON and read it back.
 *
 * Run: npx ts-node --transpile-only examples/message-parts.ts
 */
import { MessageAggregator, partsFromJSON, partsToJSON, reasoningPart, StreamingPartIndexer, StreamingParts, textPart, toolCallPart, type MessagePart } from 'partstream';

// Deltas in the order a model produced them: reasoning, text, a tool call, more text.
const indexer = new StreamingPartIndexer();
const stamped = [
  reasoningPart('Think '),
  reasoningPart('more.'),
  textPart('Let me '),
  textPart('check.'),
  toolCallPart({ id: 'call_1', type: 'function', name: 'get_weather', arguments: '{"city":"Oslo"}' }),
  textPart('Done.'),
].map((part) => indexer.stamp(part));

for (const part of stamped) {
  console.log(`${part.type.padEnd(9)} index ${StreamingParts.partIndex(part)} ${StreamingParts.isPartial(part) ? 'partial' : 'complete'}`);
}

// One chunk per delta, as a stream would deliver them; the response id keeps them in one group.
const aggregator = new MessageAggregator();
for (const part of stamped) aggregator.add({ id: 'resp_1', parts: [part] });
const message = aggregator.result();
const describe = (part: MessagePart): string => {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return `${part.type}(${JSON.stringify(part.text)})`;
    case 'tool_call':
      return `tool_call(${part.toolCall.name})`;
    default:
      return part.type;
  }
};
console.log(`merged: ${message.parts.map(describe).join(', ')}`);

// JSON out and back in; a part type this version does not know reads back as an `unknown` part.
const stored = JSON.stringify([...partsToJSON(message.parts), { type: 'hologram', frames: 3 }]);
const restored = partsFromJSON(JSON.parse(stored));
console.log(`restored: ${restored.map((part) => part.type).join(', ')}`);
const last = restored[restored.length - 1];
if (last?.type === 'unknown') console.log(`kept verbatim: ${last.kind} ${last.rawJson}`);
