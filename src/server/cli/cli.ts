// Operator commands: npm run cli -- migrate | seed | set-plan <email> <plan>
import { openDatabase } from "../db/client.ts";
import { DataDirInUseError } from "../db/pglite-lock.ts";
import { seedDatabase } from "../db/seed.ts";
import { EnvError, readEnv } from "../env.ts";
import { setUserPlan, UserNotFoundError } from "../features/users/users.service.ts";
import { PLANS, type Plan } from "../../shared/plans.ts";

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                   apply the database migrations
  seed                      migrate, then add the demo programs to an empty catalogue
  set-plan <email> <plan>   give an account a plan (${PLANS.join(", ")})`;

class UsageError extends Error {}

function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

type Command =
  | { name: "migrate" }
  | { name: "seed" }
  | { name: "set-plan"; email: string; plan: Plan };

function parseCommand([name, email, plan]: string[]): Command {
  if (name === "migrate" || name === "seed") return { name };
  if (name === "set-plan") {
    if (!email || !plan || !isPlan(plan)) {
      throw new UsageError(`set-plan needs an email and one of: ${PLANS.join(", ")}.`);
    }
    return { name, email, plan };
  }
  throw new UsageError(name ? `Unknown command "${name}".` : "No command given.");
}

async function run(args: string[]): Promise<string> {
  const command = parseCommand(args);
  const database = await openDatabase(readEnv().database);
  try {
    await database.migrate();
    switch (command.name) {
      case "migrate":
        return "Migrations applied.";
      case "seed": {
        const { seeded } = await seedDatabase(database.db);
        return seeded ? "Demo programs added." : "Already seeded: nothing changed.";
      }
      case "set-plan":
        await setUserPlan(database.db, {
          email: command.email,
          plan: command.plan,
          actorId: null,
          reason: "operator command set-plan",
          now: new Date(),
        });
        return `${command.email} now has the ${command.plan} plan.`;
    }
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
      error instanceof UserNotFoundError
    )
      console.error(error.message);
    else console.error(error);
    process.exitCode = 1;
  },
);
