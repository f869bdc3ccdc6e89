// Operator commands: npm run cli -- migrate | seed | set-plan <email> <plan> | backup <file> ...
// With the embedded database held by a running server, the command goes through that server.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { openDatabase } from "../db/client.ts";
import { DataDirInUseError } from "../db/pglite-lock.ts";
import { MigrationLockError } from "../db/migrator.ts";
import { EnvError, readEnv, type Env } from "../env.ts";
import { paystackClientFor } from "../integrations/paystack.ts";
import { HttpError } from "../plugins/errors.ts";
import { PLANS } from "../../shared/plans.ts";
import { operatorCommandSchema, runOperatorCommand, type OperatorCommand, type OperatorServices } from "./commands.ts";
import { readOperatorChannel } from "./operator-channel.ts";
import { BackupError, backupTarget, postgresRefusal, restoreDataDir, writeBackupFile } from "./backup.ts";

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                   apply the database migrations
  seed                      migrate, then add the demo programs to an empty catalogue
  expire-subscriptions      end paid plans whose month is over (the server also does this every 15 minutes)
  reconcile-payments        ask Paystack about payments pending for over 10 minutes (the server also does this every 5 minutes)
  set-plan <email> <plan>   give an account a plan (${PLANS.join(", ")})
  prune                     delete old finished jobs, spent counters, expired tokens (the server also does this hourly)
  backup <file>             write the embedded database to a new file, also while the server runs
  restore <file>            restore a backup into an empty DATA_DIR, with the server stopped`;

const serverReplySchema = z.object({
  message: z.optional(z.string()),
  error: z.optional(z.object({ message: z.string() })),
});

class UsageError extends Error {}
class CommandFailed extends Error {}

function parseCommand([name, email, plan]: string[]): OperatorCommand {
  if (!name) throw new UsageError("No command given.");
  const parsed = operatorCommandSchema.safeParse({ name, email, plan });
  if (parsed.success) return parsed.data;
  if (name === "set-plan") throw new UsageError(`set-plan needs an email and one of: ${PLANS.join(", ")}.`);
  throw new UsageError(`Unknown command "${name}".`);
}

/** A request to the server that holds the embedded database; `inUse` when none answers. */
async function requestServer(dataDir: string, inUse: DataDirInUseError, path: string, init: RequestInit = {}) {
  const channel = readOperatorChannel(dataDir);
  if (!channel) throw inUse;
  return fetch(`http://127.0.0.1:${channel.port}${path}`, {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${channel.token}` },
  }).catch(() => {
    throw inUse;
  });
}

async function serverMessage(response: Response): Promise<string | undefined> {
  const reply = serverReplySchema.safeParse(await response.json().catch(() => null));
  return reply.success ? (reply.data.message ?? reply.data.error?.message) : undefined;
}

async function runThroughServer(dataDir: string, command: OperatorCommand, inUse: DataDirInUseError) {
  const response = await requestServer(dataDir, inUse, "/api/operator/commands", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(command),
  });
  const message = await serverMessage(response);
  if (!response.ok) throw new CommandFailed(message ?? `The server answered ${response.status}.`);
  return `${message ?? "Done."} (through the running server)`;
}

/** The embedded database as a backup archive: from the folder, or from the server that holds it. */
async function dumpEmbedded(database: Extract<Env["database"], { kind: "pglite" }>, dataDir: string) {
  let opened;
  try {
    opened = await openDatabase(database);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const response = await requestServer(dataDir, error, "/api/operator/backup");
    if (!response.ok) throw new CommandFailed((await serverMessage(response)) ?? `The server answered ${response.status}.`);
    return { archive: new Uint8Array(await response.arrayBuffer()), via: " (through the running server)" };
  }
  try {
    if (!opened.dumpDataDir) throw new Error("this database cannot be dumped");
    return { archive: new Uint8Array(await (await opened.dumpDataDir()).arrayBuffer()), via: "" };
  } finally {
    await opened.close();
  }
}

async function backup(env: Env, file: string): Promise<string> {
  if (env.database.kind === "postgres") throw postgresRefusal("backup");
  const { dataDir } = env.database;
  if (!dataDir) throw new BackupError("DATA_DIR is not set: nothing to back up.");
  // Opening an absent folder would create an empty database, and back that up.
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    throw new BackupError(`There is no embedded database in ${dataDir} (DATA_DIR): nothing to back up.`);
  }
  const target = backupTarget(file);
  const { archive, via } = await dumpEmbedded(env.database, dataDir);
  await writeBackupFile(target, archive);
  return `Backed up ${dataDir} to ${target} (${(archive.length / 1_000_000).toFixed(1)} MB)${via}.`;
}

async function restore(env: Env, file: string): Promise<string> {
  if (env.database.kind === "postgres") throw postgresRefusal("restore");
  if (!env.database.dataDir) throw new BackupError("DATA_DIR is not set: nowhere to restore to.");
  return restoreDataDir(env.database.dataDir, file);
}

async function runArchiveCommand([name, file, ...extra]: string[]): Promise<string> {
  if (!file || extra.length > 0) throw new UsageError(`${name} needs one file name.`);
  const env = readEnv();
  return name === "backup" ? backup(env, file) : restore(env, file);
}

/** Paystack as this environment configures it; the CLI's counts are not scraped, so not counted. */
function operatorServices(env: Env): OperatorServices {
  return {
    paystack: paystackClientFor(env.paystack),
    metrics: { paymentCredited() {}, paymentReconciled() {}, refundReconciled() {} },
    log: {
      warn: (details, message) => console.warn(message, details),
      error: (details, message) => console.error(message, details),
    },
  };
}

async function run(args: string[]): Promise<string> {
  if (args[0] === "backup" || args[0] === "restore") return runArchiveCommand(args);
  const command = parseCommand(args);
  const env = readEnv();
  let database;
  try {
    database = await openDatabase(env.database);
  } catch (error) {
    if (error instanceof DataDirInUseError && env.database.kind === "pglite" && env.database.dataDir) {
      return runThroughServer(env.database.dataDir, command, error);
    }
    throw error;
  }
  try {
    await database.migrate();
    return await runOperatorCommand(database.db, command, operatorServices(env));
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (message) => console.log(message),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (
      error instanceof EnvError ||
      error instanceof DataDirInUseError ||
      error instanceof HttpError ||
      error instanceof CommandFailed ||
      error instanceof BackupError ||
      error instanceof MigrationLockError
    )
      console.error(error.message);
    else console.error(error);
    // Everything was closed on the way out, but an embedded database that failed to start (a
    // damaged backup) may leave work of its own pending that would keep the process alive.
    process.exit(1);
  },
);
