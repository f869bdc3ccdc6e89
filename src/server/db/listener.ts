// One PostgreSQL connection of its own that LISTENs on a channel, for the lifetime of the app
// (docs/operations.md, "Several instances"). Not from the pool: a pooled connection is handed to
// other queries and closed when idle, and a LISTEN lives only as long as its connection.
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";

export type ChannelListener = { close(): Promise<void> };

export type ChannelHandlers = {
  onNotification(payload: string): void;
  /**
   * Called each time the LISTEN is in place, the first time included: what was announced while
   * the connection was down (or not yet up) was missed.
   */
  onListening(): void;
  /** Called when the connection is lost: until onListening, announcements go unheard. */
  onLost?(): void;
};

/** Wait before reconnecting: 250 ms, 500 ms, 1 s ... capped at 10 s. */
export function reconnectDelayMs(failures: number): number {
  return Math.min(250 * 2 ** Math.max(0, failures - 1), 10_000);
}

export function listenToChannel(
  options: ChannelHandlers & {
    connectionString: string;
    /** A lowercase identifier of the app's own (it is written into the LISTEN statement). */
    channel: string;
    log: FastifyBaseLogger;
  },
): ChannelListener {
  const { channel, log } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`"${channel}" is not a channel name`);
  let current: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let closed = false;

  function connect() {
    retryTimer = null;
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: 5_000,
      // A peer gone without a word (a failover, a cut network) is noticed by TCP keepalive.
      keepAlive: true,
      application_name: `trading-academy listen ${channel}`,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (current === client) current = null;
      client.end().catch(() => {});
      if (closed) return;
      options.onLost?.();
      failures++;
      const delayMs = reconnectDelayMs(failures);
      // One line when the connection is lost, not one per try while the database is away.
      log[failures === 1 ? "warn" : "debug"]({ channel, err: error?.message, retryInMs: delayMs }, "database listening connection lost");
      retryTimer = setTimeout(connect, delayMs);
      retryTimer.unref();
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => {
      if (message.channel === channel) options.onNotification(message.payload ?? "");
    });
    client
      .connect()
      .then(() => client.query(`listen ${channel}`))
      .then(
        () => {
          if (lost) return;
          if (closed) {
            lost = true;
            client.end().catch(() => {});
            return;
          }
          current = client;
          if (failures > 0) log.warn({ channel }, "database listening connection back");
          failures = 0;
          options.onListening();
        },
        (error: unknown) => onLost(error instanceof Error ? error : new Error(String(error))),
      );
  }

  connect();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const client = current;
      current = null;
      await client?.end();
    },
  };
}
