// A TCP proxy between the app and its PostgreSQL server, which a test cuts (every connection
// closed, new ones refused) and restores on the same port: a database outage on demand.
import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";

export type TcpProxy = {
  /** `url` with its host and port replaced by the proxy's. */
  proxiedUrl(url: string): string;
  /** Closes every open connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts a proxy to `target` (host and port) on a free local port. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).on("error", () => client.destroy());
    upstream.pipe(client).on("error", () => upstream.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const port = await listen(server, 0);
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const cut = async () => {
    const closed = stopListening();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    proxiedUrl(url) {
      const proxied = new URL(url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(port);
      return proxied.toString();
    },
    cut,
    async restore() {
      await listen(server, port);
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}
