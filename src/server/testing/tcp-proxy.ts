// A TCP proxy between the app and its PostgreSQL server, which a test cuts (every connection
// closed, new ones refused) and restores on the same port: a database outage on demand. It can
// also stand in for a server that refuses each new connection with PostgreSQL's own FATAL error
// (too many connections, a wrong password), as no test server can be made to on demand.
import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";

export type TcpProxy = {
  /** `url` with its host and port replaced by the proxy's. */
  proxiedUrl(url: string): string;
  /** Closes every open connection and refuses new ones. */
  cut(): Promise<void>;
  /**
   * Closes every open connection and answers each new one as PostgreSQL refuses a connection:
   * a FATAL ErrorResponse with `code` and `message`, then the connection closed.
   */
  refuse(code: string, message: string): void;
  /** Accepts connections again, on the same port (after `cut`), or forwards them again (after `refuse`). */
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
/**
 * PostgreSQL's ErrorResponse message (protocol 3.0): 'E', its length, then each field as its
 * one-letter type and a zero-terminated string, and a final zero.
 */
export function errorResponse(fields: { severity: string; code: string; message: string }): Buffer {
  const body = Buffer.concat([
    ...[
      ["S", fields.severity],
      ["V", fields.severity],
      ["C", fields.code],
      ["M", fields.message],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`, "utf8")),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write("E", 0, "ascii");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  let refusal: Buffer | null = null;
  const server = createServer((client) => {
    if (refusal) {
      const answer = refusal;
      track(client);
      client.on("error", () => client.destroy());
      // Answered once the client has said who it is (its startup message), as the server does.
      client.once("data", () => client.end(answer));
      return;
    }
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
    refuse(code, message) {
      refusal = errorResponse({ severity: "FATAL", code, message });
      for (const socket of sockets) socket.destroy();
    },
    async restore() {
      if (refusal) refusal = null;
      else await listen(server, port);
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}
