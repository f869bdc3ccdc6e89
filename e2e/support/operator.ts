// What an operator does from the command line while the server runs
// (README.md, "Operator commands").
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config.ts";

const run = promisify(execFile);

/**
 * `npm run cli -- set-plan`, as an operator runs it while the server holds the embedded database:
 * the built CLI, as the browser tests run the built server.
 */
export async function setPlanWithCli(email: string, plan: string) {
  const { stdout } = await run("node", ["dist/node/src/server/cli/cli.js", "set-plan", email, plan], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
  });
  expect(stdout).toContain(`${email} now has the ${plan} plan.`);
}
