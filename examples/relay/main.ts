/**
 * Runs the relay example service: http://127.0.0.1:3000/ (PORT to change it).
 *
 *   npx ts-node --transpile-only examples/relay/main.ts                 # memoryStore, one process
 *   REDIS_URL=redis://127.0.0.1:6379 npx ts-node --transpile-only examples/relay/main.ts
 *
 * With REDIS_URL, start it twice on two ports: a response started on one process can be watched,
 * resumed and stopped on the other, and outlives the process that streams it.
 */
import { createClient } from 'redis';
import { memoryStore, redisStore, type ResponseStore } from 'partstream/relay';
import { bundlePage } from './bundle-page';
import { startRelayService } from './service';

async function main(): Promise<void> {
  let store: ResponseStore = memoryStore();
  let disconnect = async (): Promise<void> => {};
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl !== undefined && redisUrl !== '') {
    const client = createClient({ url: redisUrl });
    client.on('error', (error: Error) => console.error(`redis: ${error.message}`));
    await client.connect();
    store = redisStore(client);
    disconnect = async () => client.destroy();
  }
  const service = await startRelayService({ store, port: Number(process.env.PORT ?? 3000), pageScript: await bundlePage() });
  console.log(`relay example on ${service.url}/ (store: ${redisUrl ? 'redis' : 'memory'})`);
  const shutdown = async (): Promise<void> => {
    await service.close();
    await store.close();
    await disconnect();
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
