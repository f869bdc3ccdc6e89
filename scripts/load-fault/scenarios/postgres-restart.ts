// Scenario "postgres-restart": under moderate load on PostgreSQL (a scratch database), the
// PostgreSQL server is stopped (fast shutdown), kept down for a few seconds, and started again.
// While it is down, every request must get a clean answer quickly (5xx in the one error shape,
// never a hang, never a crash of the app), and GET /api/health must say the database is down;
// once it is back, the app must recover by itself, without a restart.
//
// This stops the PostgreSQL other people use too: the downtime is a few seconds (--pg-down,
// default 3), and PostgreSQL is started again whatever happens here (also on Ctrl-C).
import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../../../src/server/testing/child-process-env.ts";
import { AppProcess } from "../lib/app-process.ts";
import { clusterCommands, createScratchDatabase, dropScratchDatabase, otherSessions } from "../lib/databases.ts";
import { Client, isErrorShape, outcomeLabel, type Answer } from "../lib/http-client.ts";
import { logIn, studyRound } from "../lib/journey.ts";
import { learnerAddress, learnerEmail, prepareAccount } from "../lib/learners.ts";
import { indent, ScenarioReport, table, type RunContext, type ScenarioResult } from "../lib/report.ts";
import { mapLimit, ms, Recorder, sleep } from "../lib/stats.ts";

export type PostgresRestartOptions = {
  downSeconds: number;
  /** Wait up to this long for nobody else to be using the PostgreSQL server before stopping it. */
  quietWaitSeconds: number;
};

const DATABASE = "ta_load_pgrestart";
// Moderate: the pool (10 connections) is busy part of the time and has idle connections too.
const LEARNERS = 10;
const THINK_MS = 250;
const WARM_MS = 8_000;
const AFTER_MS = 12_000;
/** Longer than this for one answer while the database is down counts as a hang. */
const HANG_MS = 5_000;
const HEALTH_EVERY_MS = 250;

type Entry = { route: string; startedAt: number; endedAt: number; answer: Answer };

function run(command: string[]): Promise<{ ok: boolean; output: string; ms: number }> {
  const started = Date.now();
  const [file = "", ...args] = command;
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000, encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ ok: error === null, output: `${stdout}${stderr}${error ? ` (${error.message})` : ""}`.trim(), ms: Date.now() - started });
    });
  });
}

function isHealthDown(answer: Answer): boolean {
  const json = answer.json;
  return (
    answer.status === 503 &&
    typeof json === "object" &&
    json !== null &&
    "status" in json &&
    json.status === "unavailable" &&
    "database" in json &&
    json.database === "unreachable"
  );
}

export async function postgresRestartScenario(ctx: RunContext, options: PostgresRestartOptions): Promise<ScenarioResult> {
  const report = new ScenarioReport("postgres-restart", ctx.log);
  const commands = clusterCommands();
  let app: AppProcess | null = null;
  const clients: Client[] = [];
  let stopped = false;
  // Whatever happens, PostgreSQL is started again.
  const ensureStarted = () => {
    if (!stopped) return;
    try {
      const [file = "", ...args] = commands.start;
      execFileSync(file, args, { stdio: "inherit", timeout: 120_000 });
      stopped = false;
    } catch (error) {
      console.error(`!! could not start PostgreSQL again (${commands.describe}): ${String(error)}`);
    }
  };
  const onInterrupt = () => {
    ensureStarted();
    process.exit(130);
  };
  try {
    const databaseUrl = await createScratchDatabase(DATABASE);
    const port = await freePort();
    app = await AppProcess.start({ port, env: { DATABASE_URL: databaseUrl }, logFile: join(ctx.runDir, "pgrestart-app.log"), useDist: ctx.useDist });
    ctx.log(`  app pid ${app.pid} on ${app.url}; PostgreSQL stop/start: ${commands.describe}`);

    const emails = Array.from({ length: LEARNERS }, (_, index) => learnerEmail(ctx.runId, "pgrestart", index));
    for (let index = 0; index < LEARNERS; index++) {
      clients.push(new Client({ baseUrl: app.url, localAddress: learnerAddress(41, index), keepAlive: true, timeoutMs: 30_000 }));
    }
    await mapLimit(emails, 8, (email, index) => prepareAccount(clients[index] as Client, email));

    // Others run tests on this server: wait for a moment when nobody else is connected.
    const quietDeadline = Date.now() + options.quietWaitSeconds * 1000;
    let lastNotice = 0;
    for (;;) {
      const others = await otherSessions(DATABASE);
      if (others.length === 0) break;
      const who = others.map((o) => `${o.database ?? "-"}: ${o.count}`).join(", ");
      if (Date.now() >= quietDeadline) {
        ctx.log(`  others still connected after ${options.quietWaitSeconds} s (${who}); going ahead`);
        break;
      }
      if (Date.now() - lastNotice > 15_000) {
        ctx.log(`  waiting for other sessions to end before stopping PostgreSQL (${who})`);
        lastNotice = Date.now();
      }
      await sleep(2_000);
    }

    // The timeline: every learner answer and every health probe, with when it started and ended.
    const entries: Entry[] = [];
    const recorder = new Recorder();
    recorder.onAnswer = (_step, route, answer) => {
      const endedAt = Date.now();
      entries.push({ route, startedAt: endedAt - answer.ms, endedAt, answer });
    };
    let running = true;
    const learner = async (index: number) => {
      const client = clients[index] as Client;
      const email = emails[index] as string;
      await sleep((index * 1000) / LEARNERS);
      while (running && !(await logIn(client, email, recorder))) await sleep(500);
      for (let iteration = 0; running; iteration++) {
        if (!(await studyRound(client, iteration, recorder, THINK_MS))) await sleep(THINK_MS);
      }
    };
    const health = new Client({ baseUrl: app.url, localAddress: "127.0.0.1", timeoutMs: 30_000 });
    clients.push(health);
    const healthEntries: Entry[] = [];
    const prober = async () => {
      while (running) {
        const startedAt = Date.now();
        const answer = await health.get("/api/health");
        healthEntries.push({ route: "GET /api/health", startedAt, endedAt: Date.now(), answer });
        await sleep(HEALTH_EVERY_MS);
      }
    };
    const workers = Promise.all([...clients.slice(0, LEARNERS).map((_, index) => learner(index)), prober()]);

    await sleep(WARM_MS);
    const othersAtStop = await otherSessions(DATABASE);
    ctx.log(`  other sessions at the stop: ${othersAtStop.length === 0 ? "none" : othersAtStop.map((o) => `${o.database ?? "-"}: ${o.count}`).join(", ")}`);
    process.once("SIGINT", onInterrupt);
    const stopStarted = Date.now();
    stopped = true;
    const stop = await run(commands.stop);
    const downAt = Date.now();
    ctx.log(`  PostgreSQL stop: ${stop.ok ? "ok" : "FAILED"} in ${stop.ms} ms ${stop.output}`);
    await sleep(options.downSeconds * 1000);
    const startStarted = Date.now();
    const start = await run(commands.start);
    const upAt = Date.now();
    if (start.ok) stopped = false;
    ctx.log(`  PostgreSQL start: ${start.ok ? "ok" : "FAILED"} in ${start.ms} ms ${start.output}`);
    ensureStarted();
    process.removeListener("SIGINT", onInterrupt);
    report.check("PostgreSQL stopped and started again", stop.ok && start.ok, `down ${((upAt - stopStarted) / 1000).toFixed(1)} s in all`);

    // Keep going until health is back, then a while longer.
    const recoverDeadline = upAt + 60_000;
    const alive = app;
    while (alive.alive && Date.now() < recoverDeadline && !healthEntries.some((e) => e.startedAt >= upAt && e.answer.status === 200)) {
      await sleep(100);
    }
    await sleep(alive.alive ? AFTER_MS : 2_000);
    running = false;
    await workers;

    // --- What happened, phase by phase ---------------------------------------------------------
    const all = [...entries, ...healthEntries];
    const before = entries.filter((e) => e.endedAt < stopStarted);
    // Started after the stop began and before PostgreSQL was accepting again.
    const outage = all.filter((e) => e.startedAt >= stopStarted && e.startedAt < upAt);
    const healthDown = healthEntries.filter((e) => e.startedAt >= downAt && e.endedAt <= startStarted);
    const firstHealthyAt = healthEntries.find((e) => e.startedAt >= upAt && e.answer.status === 200)?.endedAt ?? null;
    const firstLearnerOkAt =
      entries.find((e) => e.startedAt >= upAt && e.answer.status >= 200 && e.answer.status < 300)?.endedAt ?? null;
    const afterRecovery = firstHealthyAt === null ? [] : all.filter((e) => e.startedAt >= firstHealthyAt + 1_000);
    const recovering = firstHealthyAt === null ? [] : all.filter((e) => e.startedAt >= upAt && e.startedAt < firstHealthyAt + 1_000);

    const outcomes = (list: Entry[]) => {
      const counts = new Map<string, number>();
      for (const e of list) {
        const key = `${e.route} -> ${outcomeLabel(e.answer)}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return [...counts].sort((a, b) => a[0].localeCompare(b[0])).map(([key, count]) => [key, String(count)]);
    };
    ctx.log(`  during the outage (${outage.length} requests started between the stop and PostgreSQL accepting again):`);
    ctx.log(indent(table(["route -> status", "count"], outcomes(outage)), "    "));
    if (recovering.length > 0) {
      ctx.log(`  recovering (${recovering.length} requests started from the start until 1 s after health was ok):`);
      ctx.log(indent(table(["route -> status", "count"], outcomes(recovering)), "    "));
    }
    const sample = (list: Entry[]) =>
      list
        .slice(0, 3)
        .map((e) => `${e.route} -> ${outcomeLabel(e.answer)} in ${ms(e.answer.ms)}: ${e.answer.text.slice(0, 160)}`)
        .join(" | ");

    const beforeErrors = before.filter((e) => e.answer.status < 200 || e.answer.status >= 300);
    report.check("before the stop: no errors", beforeErrors.length === 0, `${before.length} requests; ${sample(beforeErrors)}`);

    const slowest = outage.reduce((max, e) => Math.max(max, e.answer.ms), 0);
    const hangs = outage.filter((e) => e.answer.ms > HANG_MS || e.answer.networkError === "TIMEOUT");
    report.check(`while down: every request answered within ${HANG_MS / 1000} s`, hangs.length === 0, `slowest ${ms(slowest)}; ${sample(hangs)}`);

    const unclean = outage.filter((e) => {
      const { status } = e.answer;
      if (status >= 200 && status < 300) return false; // answered anyway (before the pool noticed, or no database needed)
      if (e.route === "GET /api/health") return !isHealthDown(e.answer);
      return !(status >= 500 && status < 600 && isErrorShape(e.answer.json));
    });
    report.check(
      "while down: every failure is a 5xx with {error:{code,message}} (health: 503 unavailable)",
      unclean.length === 0,
      unclean.length === 0 ? `${outage.length} requests` : `${unclean.length} not clean: ${sample(unclean)}`,
    );

    report.check(
      "while down: GET /api/health answers 503 {status:unavailable, database:unreachable}",
      healthDown.length > 0 && healthDown.every((e) => isHealthDown(e.answer)),
      healthDown.length === 0 ? "no health probe fell in the down window" : `${healthDown.length} probes: ${sample(healthDown.filter((e) => !isHealthDown(e.answer))) || healthDown[0]?.answer.text}`,
    );

    report.check("app process never exited", app.alive, app.describeExit());

    const recoveryMs = firstHealthyAt === null ? null : firstHealthyAt - upAt;
    report.check("after the start: health ok again without restarting the app", recoveryMs !== null && app.alive, recoveryMs === null ? "never" : `${recoveryMs} ms after PostgreSQL was up`);
    const afterErrors = afterRecovery.filter((e) => e.answer.status < 200 || e.answer.status >= 300);
    report.check(
      "after recovery: requests succeed (none failing from 1 s after health was ok)",
      afterRecovery.length > 0 && afterErrors.length === 0,
      firstHealthyAt === null
        ? "health never came back, so nothing to measure"
        : `${afterRecovery.length} requests, ${afterErrors.length} failed; ${sample(afterErrors)}`,
    );

    report.figure("outage requests", String(outage.length));
    report.figure("slowest while down", ms(slowest));
    report.figure("PostgreSQL down", `${((upAt - stopStarted) / 1000).toFixed(1)} s`);
    report.figure("health ok after", recoveryMs === null ? "never" : ms(recoveryMs));
    report.figure("first learner 2xx after", firstLearnerOkAt === null ? "never" : ms(firstLearnerOkAt - upAt));
    report.figure("errors after recovery", String(afterErrors.length));
  } catch (error) {
    report.aborted(error);
  } finally {
    ensureStarted();
    process.removeListener("SIGINT", onInterrupt);
    for (const client of clients) client.close();
    if (app) await app.stop();
    await dropScratchDatabase(DATABASE).then(
      () => ctx.log(`  scratch database ${DATABASE} dropped`),
      (error: unknown) => ctx.log(`  could not drop ${DATABASE}: ${String(error)}`),
    );
  }
  return report.result();
}
