import { memoryStore } from '../../lib/relay/memory-store';
import { describeStoreConformance } from './support/store-conformance';

// Sweeps on every call, so the expiry tests see a log gone as soon as its TTL has passed.
describeStoreConformance('memoryStore', () => memoryStore({ sweepMs: 1 }));
