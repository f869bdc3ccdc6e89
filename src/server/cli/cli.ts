// Operator commands: npm run cli -- migrate | seed | set-plan <email> <plan>
// With the embedded database held by a running server, the command goes through that server.
import * as z from "zod/mini";
import { openDatabase } from "../db/client.ts";
import { DataDirInUseError } from "../db/pglite-lock.ts";
import { EnvError, readEnv } from "../env.ts";
import { HttpError } from "../plugins/errors.ts";
import { PLANS } from "../../shared/plans.ts";
import { operatorCommandSchema, runOperatorCommand, type OperatorCommand } from "./commands.ts";
import { readOperatorChannel } from "./operator-channel.ts";

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                   apply the database migrations
  seed                      migrate, then add the demo programs to an empty catalogue
  expire-subscriptions      end paid plans whose month is over (the server also does this every 15 minutes)
  set-plan <email> <plan>   give an account a plan (${PLANS.join(", ")})`;

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

async function runThroughServer(dataDir: string, command: OperatorCommand, inUse: DataDirInUseError) {
  const channel = readOperatorChannel(dataDir);
  if (!channel) throw inUse;
  const response = await fetch(`http://127.0.0.1:${channel.port}/api/operator/commands`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${channel.token}` },
    body: JSON.stringify(command),
  }).catch(() => {
    throw inUse;
  });
  const reply = serverReplySchema.safeParse(await response.json().catch(() => null));
  const message = reply.success ? (reply.data.message ?? reply.data.error?.message) : undefined;
  if (!response.ok) throw new CommandFailed(message ?? `The server answered ${response.status}.`);
  return `${message ?? "Done."} (through the running server)`;
}

async function run(args: string[]): Promise<string> {
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
    return await runOperatorCommand(database.db, command);
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
      error instanceof CommandFailed
    )
      console.error(error.message);
    else console.error(error);
    process.exitCode = 1;
  },
);
