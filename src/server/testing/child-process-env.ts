// For scripts and tests that start the app (or a helper) as a child process on this machine.
import { createServer } from "node:net";
import { APP_ENV_VARIABLES } from "../env.ts";

/** A port nothing listens on right now: open a server on port 0, read its port, close it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("could not find a free port");
  return address.port;
}

/**
 * This process's environment without any of the app's settings (and the test database's), then
 * `extra`: a child app gets exactly the settings its run chose, none leaked from the shell.
 */
export function envWithoutAppSettings(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const leaks = new Set([...APP_ENV_VARIABLES, "TEST_DATABASE_URL"]);
  const inherited = Object.entries(process.env).filter(([name]) => !leaks.has(name));
  return { ...Object.fromEntries(inherited), ...extra };
}
