// Reads the environment, opens and migrates the database, seeds an empty one, and listens.
import { buildApp } from "./app.ts";
import { openDatabase } from "./db/client.ts";
import { seedDatabase } from "./db/seed.ts";
import { expireSubscriptions } from "./features/billing/billing.service.ts";
import { EnvError, readEnv } from "./env.ts";
import { DataDirInUseError } from "./db/pglite-lock.ts";
import { newOperatorToken, openOperatorChannel } from "./cli/operator-channel.ts";

const EXPIRY_INTERVAL_MS = 15 * 60_000;

async function main() {
  const env = readEnv();
  const database = await openDatabase(env.database);
  await database.migrate();
  await seedDatabase(database.db);

  // The embedded database is single-process: operator commands come through this server.
  const dataDir = env.database.kind === "pglite" ? env.database.dataDir : null;
  const operatorToken = dataDir ? newOperatorToken() : undefined;
  const app = await buildApp({ env, database, operatorToken });
  app.jobs.start();
  const expireLapsed = () =>
    expireSubscriptions(app.db, new Date())
      .then((ended) => (ended > 0 ? app.jobs.runDue() : 0))
      .catch((error: unknown) => app.log.error({ err: error }, "expiring subscriptions failed"));
  const expiryTimer = setInterval(expireLapsed, EXPIRY_INTERVAL_MS).unref();
  void expireLapsed();
  let closeOperatorChannel = () => {};

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const forceExit = setTimeout(() => process.exit(1), 10_000).unref();
    clearInterval(expiryTimer);
    closeOperatorChannel();
    await app.close();
    await database.close();
    clearTimeout(forceExit);
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: env.port, host: env.host });
  const address = app.server.address();
  if (dataDir && operatorToken && typeof address === "object" && address) {
    closeOperatorChannel = openOperatorChannel(dataDir, { port: address.port, token: operatorToken });
  }
}

main().catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
