// Every instance keeps the catalog in memory; an admin change on one must clear it on all
// (docs/operations.md, "Several instances"). The change announces itself on a PostgreSQL channel
// and each instance listens on it.
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Tx } from "../../db/client.ts";
import { listenToChannel, type ChannelListener } from "../../db/listener.ts";
import type { CatalogCache } from "./catalog.service.ts";

export const CATALOG_CHANNEL = "catalog_changed";

/**
 * Inside the transaction that changes a program, module or quiz: PostgreSQL delivers the
 * notification when it commits, and never when it rolls back. (PGlite: a no-op for the app, which
 * clears its own cache after the change.)
 */
export async function announceCatalogChange(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${CATALOG_CHANNEL}, '')`);
}

/** Clears `cache` on every announced change, and on every (re)connection: one may have been missed. */
export function followCatalogChanges(options: {
  connectionString: string;
  cache: CatalogCache;
  log: FastifyBaseLogger;
}): ChannelListener {
  return listenToChannel({
    connectionString: options.connectionString,
    channel: CATALOG_CHANNEL,
    onNotification: () => options.cache.invalidate(),
    onListening: () => options.cache.invalidate(),
    log: options.log,
  });
}
