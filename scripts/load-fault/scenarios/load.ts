// Scenario "load": N concurrent learners (200 by default) against the app on PostgreSQL (a
// scratch database, created and dropped here). Accounts are registered and verified beforehand,
// each from the learner's own loopback address. Then the learners arrive over the ramp; each
// signs in (up to 3 tries) and studies in a loop. Once every learner is through sign-in, the
// steady state runs for the duration (60 s by default) with all of them studying. Any non-2xx or
// network error (no answer within 120 s included) is an error, sign-in included; the target is
// none. Latencies are reported for the whole run and for the steady state alone.
import { join } from "node:path";
import { freePort } from "../../../src/server/testing/child-process-env.ts";
import { AppProcess } from "../lib/app-process.ts";
import { createScratchDatabase, dropScratchDatabase } from "../lib/databases.ts";
import { Client } from "../lib/http-client.ts";
import { logIn, ROUTES, studyRound } from "../lib/journey.ts";
import { learnerAddress, learnerEmail, prepareAccount } from "../lib/learners.ts";
import { indent, ScenarioReport, table, type RunContext, type ScenarioResult } from "../lib/report.ts";
import { mapLimit, ms, Recorder, sleep } from "../lib/stats.ts";

export type LoadOptions = {
  learners: number;
  durationSeconds: number;
  /** Learners start evenly spread over this many seconds (0: all at once). */
  rampSeconds: number;
  /** Pause between a learner's steps. */
  thinkMs: number;
};

const DATABASE = "ta_load";
const ADDRESS_NET = 11;
const LOGIN_ATTEMPTS = 3;
/** A request unanswered after this long is counted as an error (TIMEOUT). */
const REQUEST_TIMEOUT_MS = 120_000;

export async function loadScenario(ctx: RunContext, options: LoadOptions): Promise<ScenarioResult> {
  const report = new ScenarioReport("load", ctx.log);
  let app: AppProcess | null = null;
  const clients: Client[] = [];
  try {
    const databaseUrl = await createScratchDatabase(DATABASE);
    ctx.log(`  scratch database ${DATABASE} created`);
    const port = await freePort();
    app = await AppProcess.start({
      port,
      env: { DATABASE_URL: databaseUrl },
      logFile: join(ctx.runDir, "load-app.log"),
      useDist: ctx.useDist,
    });
    ctx.log(`  app pid ${app.pid} on ${app.url} (log ${app.options.logFile})`);

    // Accounts first: registered and verified from each learner's own address.
    const prepareStarted = Date.now();
    const emails = Array.from({ length: options.learners }, (_, index) => learnerEmail(ctx.runId, "load", index));
    for (let index = 0; index < options.learners; index++) {
      clients.push(new Client({ baseUrl: app.url, localAddress: learnerAddress(ADDRESS_NET, index), keepAlive: true, timeoutMs: REQUEST_TIMEOUT_MS }));
    }
    await mapLimit(emails, 8, (email, index) => prepareAccount(clients[index] as Client, email));
    const prepareSeconds = (Date.now() - prepareStarted) / 1000;
    ctx.log(`  ${options.learners} accounts registered and verified in ${prepareSeconds.toFixed(1)} s`);

    // The load itself. Learners arrive over the ramp; each signs in, then studies in a loop.
    // The steady state (every learner signed in) then lasts the given duration.
    const recorder = new Recorder();
    const steady = new Recorder();
    const started = Date.now();
    let steadyStart: number | null = null;
    let deadline = Number.POSITIVE_INFINITY;
    let settled = 0;
    let signedIn = 0;
    recorder.onAnswer = (step, route, answer, ok) => {
      if (steadyStart !== null && Date.now() - answer.ms >= steadyStart) steady.record(step, route, answer, ok);
    };
    const settle = (success: boolean) => {
      settled++;
      if (success) signedIn++;
      if (settled === options.learners) {
        steadyStart = Date.now();
        deadline = steadyStart + options.durationSeconds * 1000;
        ctx.log(`  all learners through sign-in after ${((steadyStart - started) / 1000).toFixed(1)} s (${signedIn} signed in); steady state starts`);
      }
    };
    let rounds = 0;
    const learner = async (index: number) => {
      const client = clients[index] as Client;
      const email = emails[index] as string;
      await sleep(options.learners > 1 ? (options.rampSeconds * 1000 * index) / options.learners : 0);
      let success = false;
      for (let attempt = 1; attempt <= LOGIN_ATTEMPTS && !success && app?.alive; attempt++) {
        success = await logIn(client, email, recorder);
        if (!success) await sleep(1000);
      }
      settle(success);
      if (!success) return;
      for (let iteration = 0; Date.now() < deadline; iteration++) {
        if (!app?.alive) return;
        const ok = await studyRound(client, iteration, recorder, options.thinkMs);
        if (ok) rounds++;
        else await sleep(250);
      }
    };
    const progress = setInterval(() => {
      ctx.log(
        `  ... ${Math.round((Date.now() - started) / 1000)} s: ${signedIn} signed in, ${recorder.requests} requests, ${recorder.errorCount} errors`,
      );
    }, 10_000);
    await Promise.all(clients.map((_, index) => learner(index)));
    clearInterval(progress);
    const elapsed = (Date.now() - started) / 1000;
    const steadySeconds = steadyStart === null ? 0 : (Date.now() - steadyStart) / 1000;

    // Report: the whole run (sign-in storm included), then the steady state alone.
    const order = Object.keys(ROUTES);
    const stepTable = (from: Recorder) => {
      const steps = from.steps().sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step));
      return table(
        ["step", "route", "requests", "errors", "p50", "p95", "p99", "max"],
        steps.map((s) => [
          s.step,
          ROUTES[s.step as keyof typeof ROUTES] ?? s.step,
          String(s.count),
          String(s.errors),
          ms(s.p50),
          ms(s.p95),
          ms(s.p99),
          ms(s.max),
        ]),
      );
    };
    ctx.log(`  whole run (${elapsed.toFixed(1)} s, sign-in included): ${recorder.requests} requests, ${(recorder.requests / elapsed).toFixed(0)}/s`);
    ctx.log(indent(stepTable(recorder)));
    ctx.log(`  steady state (${steadySeconds.toFixed(1)} s, ${signedIn} learners studying): ${steady.requests} requests, ${(steady.requests / Math.max(steadySeconds, 0.001)).toFixed(0)}/s`);
    ctx.log(indent(stepTable(steady)));
    if (recorder.errors.size > 0) {
      ctx.log(indent(table(["errors by route -> status", "count"], [...recorder.errors].map(([key, count]) => [key, String(count)]))));
      for (const sample of recorder.samples.slice(0, 5)) ctx.log(`    e.g. ${sample.route} -> ${sample.outcome}: ${sample.body}`);
    }
    ctx.log(`  ${rounds} complete study rounds`);

    const steadySteps = steady.steps();
    const loginStep = recorder.steps().find((s) => s.step === "login");
    report.figure("learners", String(options.learners));
    report.figure("requests", String(recorder.requests));
    report.figure("steady req/s", (steady.requests / Math.max(steadySeconds, 0.001)).toFixed(0));
    report.figure("errors", String(recorder.errorCount));
    if (loginStep) report.figure("p99 login", ms(loginStep.p99));
    for (const s of steadySteps) if (s.step !== "login") report.figure(`p99 ${s.step}`, ms(s.p99));

    report.check("app process stayed up", app.alive, app.describeExit());
    report.check(`every learner signed in`, signedIn === options.learners, `${signedIn} of ${options.learners}`);
    report.check(
      `steady state ran ${options.durationSeconds} s with every learner`,
      steadyStart !== null && steadySeconds >= options.durationSeconds,
      `${steadySeconds.toFixed(1)} s`,
    );
    report.check(
      "0 errors (non-2xx or network), sign-in included",
      recorder.errorCount === 0,
      recorder.errorCount === 0
        ? `${recorder.requests} requests`
        : [...recorder.errors].map(([key, count]) => `${key}: ${count}`).join("; "),
    );
  } catch (error) {
    report.aborted(error);
  } finally {
    for (const client of clients) client.close();
    if (app) await app.stop();
    await dropScratchDatabase(DATABASE).then(
      () => ctx.log(`  scratch database ${DATABASE} dropped`),
      (error: unknown) => ctx.log(`  could not drop ${DATABASE}: ${String(error)}`),
    );
  }
  return report.result();
}
