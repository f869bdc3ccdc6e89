// The database gone (docs/operations.md, "Database outage"): with a proxy between the app and
// PostgreSQL cut, requests that need the database are answered 503 with Retry-After in the one
// error shape, readiness fails and liveness does not, one line tells of the outage; restored, the
// same requests are answered again and one line says how many were refused.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSignedInUser, forgotPassword, ipAllocator, PASSWORD, register, registrationForm, signIn, type TestUser } from "../testing/accounts.ts";
import { createPostgresDatabase, testDatabaseKind, withAdminClient } from "../testing/test-database.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { startTcpProxy, type TcpProxy } from "../testing/tcp-proxy.ts";
import { openDatabase, type Database } from "./client.ts";
import { seedDatabase } from "./seed.ts";

const nextIp = ipAllocator(97);

type LogLine = { level: number; msg: string; [field: string]: unknown };

const UNREACHABLE = "database unreachable: requests that need it are answered 503";
const REACHABLE = "database reachable again";

async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(testDatabaseKind() !== "postgres")("a PostgreSQL outage", () => {
  const lines: string[] = [];
  const logged = () => lines.map((line) => JSON.parse(line) as LogLine);
  const outageLines = () => logged().filter((line) => line.msg === UNREACHABLE || line.msg === REACHABLE);
  let scratch: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: TcpProxy;
  let database: Database;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? "";
    scratch = await createPostgresDatabase(adminUrl);
    const server = new URL(adminUrl);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    database = await openDatabase({ kind: "postgres", url: proxy.proxiedUrl(scratch.url) });
    await database.migrate();
    await seedDatabase(database.db);
    t = await createTestApp({ database, env: { LOG_LEVEL: "info" }, logDestination: { write: (line) => lines.push(line) } });
    user = await createSignedInUser(t, { email: "outage@example.com", nextIp });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
    await proxy.close();
    await scratch.drop();
  });

  const requests = () => [
    t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: user.cookie } }),
    t.app.inject({ method: "GET", url: "/api/progress", headers: { cookie: user.cookie } }),
    t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie: user.cookie } }),
    signIn(t, user.email, PASSWORD, nextIp()),
  ];

  it("answers 503 while the database is gone, and again once it is back, logging the outage once", { timeout: 30_000 }, async () => {
    for (const response of await Promise.all(requests())) expect(response.statusCode).toBe(200);

    const standardError = vi.spyOn(process.stderr, "write");
    await proxy.cut();
    for (let round = 0; round < 3; round++) {
      for (const response of await Promise.all(requests())) {
        expect(response.statusCode).toBe(503);
        expect(response.headers["retry-after"]).toBe("5");
        expect(response.json()).toEqual({
          error: {
            code: "UNAVAILABLE",
            message: "The academy is briefly unavailable. Please try again in a moment.",
            requestId: expect.any(String),
          },
        });
      }
    }
    const ready = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
    expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);

    expect(outageLines()).toEqual([expect.objectContaining({ level: 50, msg: UNREACHABLE, retryAfterSeconds: 5 })]);
    expect(logged().filter((line) => line.level >= 40 && line.msg !== UNREACHABLE)).toEqual([]);
    expect(lines.join("\n")).not.toMatch(/select |Failed query|\n\s+at /);
    // The pool's idle connections lost with the proxy belong to the same outage.
    expect(logged().filter((line) => line.msg === "idle database connection lost")).toEqual([]);
    expect(standardError.mock.calls.map(([text]) => String(text)).filter((text) => text.includes("idle database connection lost"))).toEqual([]);
    standardError.mockRestore();

    await proxy.restore();
    const answers = await eventually(
      () => Promise.all(requests()),
      (responses) => responses.every((response) => response.statusCode === 200),
    );
    for (const response of answers) expect(response.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    const recovered = await eventually(outageLines, (found) => found.length === 2);
    expect(recovered).toEqual([
      expect.objectContaining({ msg: UNREACHABLE }),
      expect.objectContaining({ level: 40, msg: REACHABLE, refusedRequests: 12 }),
    ]);
  });
  it("answers 503 on every account route, the auth library's own among them, and logs nothing but the outage, from jobs and schedules either", { timeout: 30_000 }, async () => {
    const json = { origin: t.services.env.appUrl, "content-type": "application/json" };
    const signedIn = { ...json, cookie: user.cookie };
    const accountRoutes = () => [
      register(t, registrationForm("newcomer@example.com", {}), nextIp()),
      forgotPassword(t, { email: user.email }, nextIp()),
      t.app.inject({ method: "POST", url: "/api/auth/reset-password", headers: json, payload: { token: "a".repeat(24), newPassword: "Another-passw0rd" } }),
      t.app.inject({ method: "GET", url: "/api/auth/verify-email?token=abc" }),
      t.app.inject({ method: "POST", url: "/api/auth/update-user", headers: signedIn, payload: { name: "Kofi" } }),
      t.app.inject({ method: "POST", url: "/api/auth/change-password", headers: signedIn, payload: { currentPassword: PASSWORD, newPassword: "Another-passw0rd" } }),
      t.app.inject({ method: "POST", url: "/api/auth/revoke-other-sessions", headers: signedIn, payload: {} }),
      t.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: signedIn, payload: {} }),
    ];
    const before = lines.length;
    await proxy.cut();
    try {
      const answers = await Promise.all(accountRoutes());
      // Work in the background fails too, and says nothing more.
      expect(Object.values(await t.services.scheduler.runDue())).toContain("failed");
      t.services.jobs.start();
      await eventually(() => t.services.jobs.runDue().then(() => "ran", () => "failed"), (outcome) => outcome === "failed");
      await t.services.jobs.stop();
      expect(answers.map((response) => `${response.statusCode} ${response.json<{ error?: { code: string } }>().error?.code}`)).toEqual(
        answers.map(() => "503 UNAVAILABLE"),
      );
      const written = lines.slice(before).map((line) => JSON.parse(line) as LogLine);
      expect(written.filter((line) => line.level >= 40)).toEqual([expect.objectContaining({ msg: UNREACHABLE })]);
      expect(lines.slice(before).join("\n")).not.toMatch(/select |insert |update |Failed query|\n\s+at /);
    } finally {
      await proxy.restore();
    }
    // The session was not signed out meanwhile.
    await eventually(() => t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: user.cookie } }), (response) => response.statusCode === 200);
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: user.cookie } });
    expect(me.json<{ user: { email: string } | null }>().user?.email).toBe(user.email);
  });
  // PostgreSQL refusing a connection rather than the network losing it (docs/operations.md,
  // "Database outage"): the same 503, whatever the refusal's SQLSTATE.
  const expectUnavailable = async () => {
    for (const response of await Promise.all(requests())) {
      expect(response.statusCode).toBe(503);
      expect(response.headers["retry-after"]).toBe("5");
      expect(response.json()).toMatchObject({ error: { code: "UNAVAILABLE", message: "The academy is briefly unavailable. Please try again in a moment." } });
    }
  };
  const expectAnsweredAgain = async () => {
    const answers = await eventually(
      () => Promise.all(requests()),
      (responses) => responses.every((response) => response.statusCode === 200),
    );
    expect(answers.map((response) => response.statusCode)).toEqual(answers.map(() => 200));
  };

  it.each([
    ["55000", 'database "academy" is not currently accepting connections'],
    ["53300", "sorry, too many clients already"],
    ["28P01", 'password authentication failed for user "academy"'],
  ])("answers 503 while PostgreSQL refuses connections with %s, and again once it accepts them", { timeout: 30_000 }, async (code, message) => {
    proxy.refuse(code, message);
    try {
      await expectUnavailable();
    } finally {
      await proxy.restore();
    }
    await expectAnsweredAgain();
  });

  it("answers 503 while the database does not allow connections (ALTER DATABASE … ALLOW_CONNECTIONS false)", { timeout: 30_000 }, async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? "";
    const allowConnections = (allowed: boolean) =>
      withAdminClient(adminUrl, async (client) => {
        await client.query(`alter database ${scratch.name} allow_connections ${allowed}`);
        if (!allowed) await client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [scratch.name]);
      });
    await allowConnections(false);
    try {
      await eventually(() => Promise.all(requests()), (responses) => responses.every((response) => response.statusCode === 503));
      await expectUnavailable();
    } finally {
      await allowConnections(true);
    }
    await expectAnsweredAgain();
  });
});
