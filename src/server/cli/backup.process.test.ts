// Backup and restore as an operator runs them (docs/operations.md, Backups): a backup taken while
// the server serves, restored into a new folder, serves the same accounts, progress and payments;
// a restore that cannot go ahead changes nothing.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { entryPath, readTar, writeTar } from "../db/data-dir-archive.ts";
import { readEnv } from "../env.ts";
import { projectRoot } from "../paths.ts";
import { envWithoutAppSettings, freePort } from "../testing/child-process-env.ts";
import { builtEntry, killServerProcess, startServerProcess, type ServerProcess } from "../testing/server-process.ts";

const PASSWORD = "Trading-Academy-2025";
const workDir = mkdtempSync(join(tmpdir(), "ta-backup-"));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) killServerProcess(server);
  rmSync(workDir, { recursive: true, force: true });
});

async function startServer(dataDir: string): Promise<ServerProcess> {
  const port = await freePort();
  const server = startServerProcess({
    command: process.execPath,
    args: [builtEntry("server")],
    cwd: projectRoot,
    port,
    env: { HOST: "127.0.0.1", APP_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
  servers.push(server);
  await server.waitUntilReady();
  return server;
}

async function stopServer(server: ServerProcess) {
  server.child.kill("SIGTERM");
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

/** `npm run cli -- <args>` with this DATA_DIR; resolves with its exit code and output. */
async function cli(dataDir: string, ...args: string[]) {
  const run = promisify(execFile)(process.execPath, [builtEntry("cli"), ...args], {
    cwd: projectRoot,
    env: envWithoutAppSettings({ DATA_DIR: dataDir }),
  });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

/** A browser's JSON call to the server, with the session cookie when given. */
async function call(server: ServerProcess, method: "GET" | "POST", path: string, options: { body?: unknown; cookie?: string } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      origin: server.url,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body: unknown = await response.json().catch(() => null);
  expect(response.status, `${method} ${path}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return { body, response };
}

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const { response } = await call(server, "POST", "/api/auth/sign-in/email", { body: { email, password: PASSWORD } });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("ta.session_token="));
  if (!session) throw new Error(`no session cookie for ${email}`);
  return session.split(";")[0] ?? "";
}

/** Registers, verifies by the mailed link (the development mailbox) and signs in. */
async function newLearner(server: ServerProcess, email: string): Promise<string> {
  await call(server, "POST", "/api/accounts/register", {
    body: { fullName: "Ama Mensah", email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  const { body } = await call(server, "GET", `/dev/mail/messages?${new URLSearchParams({ to: email })}`);
  const mail = JSON.stringify(body).match(/oobCode=([\w.-]+)/);
  if (!mail?.[1]) throw new Error(`no verification link mailed to ${email}`);
  await call(server, "GET", `/api/auth/verify-email?${new URLSearchParams({ token: mail[1] })}`);
  return signIn(server, email);
}

/** What a learner sees of their account: progress and subscription. */
async function learnerView(server: ServerProcess, cookie: string) {
  const progress = await call(server, "GET", "/api/progress", { cookie });
  const subscription = await call(server, "POST", "/api/subscription-management", {
    cookie,
    body: { action: "get_subscription" },
  });
  return { progress: progress.body, subscription: subscription.body };
}

/** Every file under `folder` with its size and modification time. */
function snapshot(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).map((entry) => {
    const stat = statSync(join(entry.parentPath, entry.name));
    return `${join(entry.parentPath, entry.name)} ${stat.size} ${stat.mtimeMs}`;
  });
}

describe("backup and restore of the embedded database", () => {
  const original = join(workDir, "original");
  const archive = join(workDir, "backup.tar.gz");

  it("backs up while serving; the restored folder serves the same users, progress and payment", async () => {
    const server = await startServer(original);
    const learner = await newLearner(server, "ama@example.com");
    await newLearner(server, "kofi@example.com");

    const { body: track } = await call(server, "GET", "/api/programs/beginner", { cookie: learner });
    const firstModule = JSON.stringify(track).match(/"modules":\[\{"id":"([^"]+)"/)?.[1];
    if (!firstModule) throw new Error("the beginner program has no module");
    await call(server, "POST", `/api/programs/beginner/modules/${firstModule}/watched`, { cookie: learner });

    // A payment through the Paystack simulator: checkout, then the simulator settles it and
    // delivers its signed webhook, which credits the plan and writes the payments row.
    const { body: checkout } = await call(server, "POST", "/api/subscription-management", {
      cookie: learner,
      body: { action: "create_subscription", planId: "intermediate" },
    });
    const reference = JSON.stringify(checkout).match(/"reference":"([^"]+)"/)?.[1] ?? "";
    const paystack = readEnv({ APP_URL: server.url }).paystack;
    if (paystack.mode !== "simulator") throw new Error("the demo does not use the Paystack simulator");
    const settled = await fetch(`${server.url}/dev/fakes/paystack/simulate/${reference}`, {
      method: "POST",
      headers: { authorization: `Bearer ${paystack.secretKey}`, "content-type": "application/json" },
      body: JSON.stringify({ outcome: "success" }),
    });
    expect(settled.status).toBe(200);

    // Through the running server too: set-plan and backup.
    expect(await cli(original, "set-plan", "kofi@example.com", "admin")).toMatchObject({ code: 0 });
    const before = await learnerView(server, learner);
    expect(before.subscription).toMatchObject({ status: "active", plan: { name: "intermediate" } });
    expect(before.progress).toMatchObject({ programs: { beginner: { watched: 1 } } });

    const backup = await cli(original, "backup", archive);
    expect(backup.output).toMatch(/Backed up .* \(through the running server\)/);
    expect(backup.code).toBe(0);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    expect(readdirSync(workDir).filter((name) => name.endsWith(".partial"))).toEqual([]);

    // A backup never replaces a file.
    const again = await cli(original, "backup", archive);
    expect(again).toMatchObject({ code: 1, output: expect.stringMatching(/already exists/) });
    await stopServer(server);

    const restoredDir = join(workDir, "restored", "data");
    const restored = await cli(restoredDir, "restore", archive);
    expect(restored.output).toMatch(/^Restored /);
    expect(statSync(restoredDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(restoredDir)).not.toContain("operator.json");

    const after = await startServer(restoredDir);
    expect(await learnerView(after, await signIn(after, "ama@example.com"))).toEqual(before);
    const admin = await signIn(after, "kofi@example.com");
    const { body: payments } = await call(after, "GET", "/api/admin/payments", { cookie: admin });
    expect(payments).toMatchObject({
      payments: [{ reference, userEmail: "ama@example.com", plan: "intermediate", status: "success" }],
    });
    await stopServer(after);

    // With the server stopped, the CLI opens the folder itself.
    const offline = await cli(restoredDir, "backup", join(workDir, "offline.tar.gz"));
    expect(offline).toMatchObject({ code: 0, output: expect.stringMatching(/^Backed up /) });
    expect(offline.output).not.toMatch(/through the running server/);
  }, 120_000);

  it("refuses to restore into a folder that is not empty, and changes nothing in it", async () => {
    const before = snapshot(original);
    const result = await cli(original, "restore", archive);
    expect(result).toMatchObject({ code: 1, output: expect.stringMatching(/is not empty: nothing was changed/) });
    expect(snapshot(original)).toEqual(before);
  });

  it("refuses a file that is not a backup, and leaves no files behind", async () => {
    const garbage = join(workDir, "garbage.tar.gz");
    writeFileSync(garbage, "this is not an archive");
    const absent = join(workDir, "absent");
    expect(await cli(absent, "restore", garbage)).toMatchObject({
      code: 1,
      output: expect.stringMatching(/is not a backup of the embedded database/),
    });
    expect(() => statSync(absent)).toThrow();

    // A whole archive whose database is damaged (its tables' files are missing): PGlite is given
    // it and fails to start, then the restore removes all it wrote and the empty folder stays empty.
    const tar = gunzipSync(readFileSync(archive));
    const damaged = (await readTar(tar)).filter((entry) => !entryPath(entry).startsWith("base/"));
    const damagedFile = join(workDir, "damaged.tar.gz");
    const damagedTar = await writeTar(damaged);
    writeFileSync(damagedFile, gzipSync(damagedTar));
    const empty = join(workDir, "empty");
    mkdirSync(empty);
    const result = await cli(empty, "restore", damagedFile);
    expect(result).toMatchObject({ code: 1, output: expect.stringMatching(/could not be restored .* is as it was/) });
    expect(readdirSync(empty)).toEqual([]);
  });
});
