import { PartsBridge } from '../bridge/parts-bridge';
import type { StreamingChatResponseHandler } from '../handler/types';
import { MappingTrackingHandler } from '../tracker/mapping-tracking-handler';
import { SafeHandler } from './safe-handler';
import type { StreamController } from './stream-controller';
import type { SecretRedaction } from './stream-options';

/** The handler chain of one driven stream, from the adapter's end (`tracker`) to the user's (`safe`). */
export interface HandlerChain {
  readonly safe: SafeHandler;
  readonly bridge: PartsBridge;
  readonly tracker: MappingTrackingHandler;
}

/**
 * Builds the chain a driver delivers through — handler ← SafeHandler ← PartsBridge ←
 * MappingTrackingHandler — around one record of the run: the controller's run state, which the
 * controller marks on cancel, the safe handler ends at the terminal callback and the bridge
 * consults as its gate (it keeps none of its own).
 */
export function handlerChain(handler: StreamingChatResponseHandler, controller: StreamController, redaction: SecretRedaction | null = null): HandlerChain {
  const safe = new SafeHandler(handler, controller, redaction);
  const bridge = new PartsBridge(safe, controller.state);
  return { safe, bridge, tracker: new MappingTrackingHandler(bridge) };
}
