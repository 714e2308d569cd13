// A TCP proxy in front of the private redis-server that can lose a reply: armed, it forwards the
// next request to the server and, when the server answers, closes the client's connection instead
// of passing the answer on. The command ran; its caller only sees the connection drop.

import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ReplyDroppingProxy {
  readonly url: string;
  /** Loses the next reply the server sends on any connection. */
  dropNextReply(): void;
  /** How many replies were lost so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

export async function startReplyDroppingProxy(port: number): Promise<ReplyDroppingProxy> {
  let armed = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (armed) {
        armed = false;
        dropped += 1;
        end();
        return;
      }
      client.write(chunk);
    });
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('Expected the proxy to listen on a port');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    dropNextReply: () => {
      armed = true;
    },
    get dropped() {
      return dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
