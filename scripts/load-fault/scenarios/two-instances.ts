// Scenario "two-instances": two app instances on one PostgreSQL database (scratch database
// ta_load_two), started at the same moment on the empty database. N learners (200), half on
// each, registered and verified beforehand, arrive over the ramp, sign in and study in a loop;
// every fifth learner also buys the Intermediate plan once, at a moment spread over the run,
// through the runner's Paystack stand-in (lib/paystack-server.ts: it outlives the instances, as
// the real Paystack does). Half the payments have their webhook delivered by the settlement;
// for the other half, the webhook and the learner's verify call reach the two instances at the
// same moment. Paystack's webhook goes to B, the instance that survives (a load balancer sends it
// to a live one).
//
// Halfway through, A is killed with SIGKILL. A's learners then go to B (as a load balancer takes
// A out of rotation); their sessions are in the database, so they stay signed in. Passes when B
// answered every request sent to it, before and after the kill, without an error; A had no
// error before the kill; and every payment the runner made is credited exactly once (one payment
// row, success; one payment.credited audit entry; the plan for one month; one receipt job).
import { join } from "node:path";
import { freePort } from "../../../src/server/testing/child-process-env.ts";
import { AppProcess } from "../lib/app-process.ts";
import { createScratchDatabase, dropScratchDatabase, withDatabase } from "../lib/databases.ts";
import { Client, type Answer } from "../lib/http-client.ts";
import { logIn, ROUTES, studyRound } from "../lib/journey.ts";
import { learnerAddress, learnerEmail, prepareAccount } from "../lib/learners.ts";
import { PaystackServer } from "../lib/paystack-server.ts";
import type { LoadOptions } from "./load.ts";
import { indent, ScenarioReport, table, type RunContext, type ScenarioResult } from "../lib/report.ts";
import { mapLimit, ms, Recorder, sleep } from "../lib/stats.ts";

const DATABASE = "ta_load_two";
const ADDRESS_NET = 31;
const PLAN = "intermediate";
const RECEIPT_JOB = "billing.receipt";
const PAYER_EVERY = 5;
const LOGIN_ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 120_000;

type Name = "A" | "B";
type Learner = { index: number; email: string; on: Name; client: Client; payAt: number | null };
type Payment = { learner: Learner; reference: string; beforeKill: boolean; race: boolean };

const ROUTE_CHECKOUT = "POST /api/subscription-management";
const ROUTE_VERIFY = "GET /api/verify-paystack";

function referenceOf(answer: Answer): string | null {
  const json = answer.json;
  return typeof json === "object" && json !== null && "reference" in json && typeof json.reference === "string" ? json.reference : null;
}

/** The learners study for the ramp and then the duration; A is killed halfway through both. */
export async function twoInstancesScenario(ctx: RunContext, options: LoadOptions): Promise<ScenarioResult> {
  const report = new ScenarioReport("two-instances", ctx.log);
  const apps: Partial<Record<Name, AppProcess>> = {};
  let paystack: PaystackServer | null = null;
  const learners: Learner[] = [];
  try {
    const databaseUrl = await createScratchDatabase(DATABASE);
    ctx.log(`  scratch database ${DATABASE} created`);
    const [portA, portB] = [await freePort(), await freePort()];
    const urlB = `http://127.0.0.1:${portB}`;
    paystack = await PaystackServer.start(urlB);
    const simulator = paystack;
    const startedAt = Date.now();
    const [a, b] = await Promise.all(
      ([["A", portA], ["B", portB]] as const).map(([name, port]) =>
        AppProcess.start({
          port,
          env: { DATABASE_URL: databaseUrl, ...simulator.appEnv(`http://127.0.0.1:${port}`) },
          logFile: join(ctx.runDir, `two-instances-${name}.log`),
          useDist: ctx.useDist,
        }),
      ),
    );
    if (!a || !b) throw new Error("an instance did not start");
    apps.A = a;
    apps.B = b;
    report.check("both instances came up together on the empty database", a.alive && b.alive, `healthy after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    ctx.log(`  A pid ${a.pid} on ${a.url}, B pid ${b.pid} on ${b.url}; Paystack stand-in at ${simulator.apiUrl}`);

    const prepareStarted = Date.now();
    for (let index = 0; index < options.learners; index++) {
      const on: Name = index % 2 === 0 ? "A" : "B";
      learners.push({
        index,
        email: learnerEmail(ctx.runId, "two", index),
        on,
        client: new Client({ baseUrl: (on === "A" ? a : b).url, localAddress: learnerAddress(ADDRESS_NET, index), keepAlive: true, timeoutMs: REQUEST_TIMEOUT_MS }),
        payAt: null,
      });
    }
    await mapLimit(learners, 8, (learner) => prepareAccount(learner.client, learner.email));
    ctx.log(`  ${options.learners} accounts registered and verified, half on each instance, in ${((Date.now() - prepareStarted) / 1000).toFixed(1)} s`);

    // The run: ramp, then study until the end; A is killed halfway; payments spread over it.
    const started = Date.now();
    const runMs = (options.rampSeconds + options.durationSeconds) * 1000;
    const end = started + runMs;
    const killAt = started + runMs / 2;
    const payers = learners.filter((learner) => learner.index % PAYER_EVERY === 0);
    payers.forEach((learner, i) => {
      const from = options.rampSeconds * 1000;
      const span = Math.max(0, runMs - from - 5_000);
      learner.payAt = started + from + (span * (i + 0.5)) / payers.length;
    });
    let killedAt: number | null = null;

    // Every answer, by the instance it was sent to; A's split at the kill.
    const recorders: Record<Name, Recorder> = { A: new Recorder(), B: new Recorder() };
    const afterKill = { A: { requests: 0, errors: 0 }, B: { requests: 0, errors: 0 } };
    let errorsOnABeforeKill = 0;
    for (const name of ["A", "B"] as const) {
      recorders[name].onAnswer = (_step, _route, _answer, ok) => {
        const after = killedAt !== null;
        if (after) {
          afterKill[name].requests++;
          if (!ok) afterKill[name].errors++;
        } else if (name === "A" && !ok) {
          errorsOnABeforeKill++;
        }
      };
    }

    /** A's learner after the kill: the same session, now sent to B. */
    const failOver = (learner: Learner) => {
      if (learner.on === "B" || killedAt === null) return false;
      const next = new Client({ baseUrl: b.url, localAddress: learner.client.localAddress, keepAlive: true, timeoutMs: REQUEST_TIMEOUT_MS });
      for (const [name, value] of learner.client.cookies) next.cookies.set(name, value);
      learner.client.close();
      learner.client = next;
      learner.on = "B";
      return true;
    };

    const payments: Payment[] = [];
    let checkoutsFailed = 0;
    /** One request of the payment, sent again to B when A died under it. */
    const paymentCall = async (learner: Learner, step: string, route: string, send: (client: Client) => Promise<Answer>) => {
      for (;;) {
        const answer = await send(learner.client);
        const ok = recorders[learner.on].record(step, route, answer);
        if (ok || !(answer.status === 0 && failOver(learner))) return ok ? answer : null;
      }
    };
    const verify = (learner: Learner, reference: string) =>
      paymentCall(learner, "verify", ROUTE_VERIFY, (client) => client.get(`/api/verify-paystack?${new URLSearchParams({ reference })}`));
    const pay = async (learner: Learner, race: boolean) => {
      const checkout = await paymentCall(learner, "checkout", ROUTE_CHECKOUT, (client) =>
        client.post("/api/subscription-management", { action: "create_subscription", planId: PLAN }),
      );
      const reference = checkout ? referenceOf(checkout) : null;
      if (!reference) {
        checkoutsFailed++;
        return;
      }
      payments.push({ learner, reference, beforeKill: killedAt === null, race });
      if (race) {
        // Paid, webhook held back; then the webhook (to B) and the verify call at the same moment.
        await simulator.settle(reference, false);
        await Promise.all([simulator.replayWebhook(b.url, reference), verify(learner, reference)]);
      } else {
        await simulator.settle(reference, true);
        await verify(learner, reference);
      }
    };

    let signedIn = 0;
    let rounds = 0;
    const learnerRun = async (learner: Learner) => {
      await sleep(options.learners > 1 ? (options.rampSeconds * 1000 * learner.index) / options.learners : 0);
      let success = false;
      for (let attempt = 1; attempt <= LOGIN_ATTEMPTS && !success; attempt++) {
        success = await logIn(learner.client, learner.email, recorders[learner.on]);
        if (!success && !failOver(learner)) await sleep(1000);
      }
      if (!success) return;
      signedIn++;
      for (let iteration = 0; Date.now() < end; iteration++) {
        if (learner.payAt !== null && Date.now() >= learner.payAt) {
          learner.payAt = null;
          await pay(learner, Math.floor(learner.index / PAYER_EVERY) % 2 === 1);
        }
        const on = learner.on;
        const ok = await studyRound(learner.client, iteration, recorders[on], options.thinkMs);
        if (ok) rounds++;
        else if (!failOver(learner)) await sleep(250);
      }
    };
    const killer = (async () => {
      await sleep(Math.max(0, killAt - Date.now()));
      killedAt = Date.now();
      const exit = await a.kill();
      ctx.log(`  ${((killedAt - started) / 1000).toFixed(1)} s: A killed (${exit.signal}); ${payments.length} payments so far`);
    })();
    const progress = setInterval(() => {
      ctx.log(
        `  ... ${Math.round((Date.now() - started) / 1000)} s: ${signedIn} signed in, A ${recorders.A.requests} requests / ${recorders.A.errorCount} errors, B ${recorders.B.requests} / ${recorders.B.errorCount}, ${payments.length} payments`,
      );
    }, 10_000);
    await Promise.all([...learners.map(learnerRun), killer]);
    clearInterval(progress);
    const elapsed = (Date.now() - started) / 1000;

    const order = [...Object.keys(ROUTES), "checkout", "verify"];
    for (const name of ["A", "B"] as const) {
      const steps = recorders[name].steps().sort((x, y) => order.indexOf(x.step) - order.indexOf(y.step));
      ctx.log(`  sent to ${name}: ${recorders[name].requests} requests, ${recorders[name].errorCount} errors`);
      ctx.log(
        indent(
          table(
            ["step", "requests", "errors", "p50", "p95", "p99", "max"],
            steps.map((s) => [s.step, String(s.count), String(s.errors), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max)]),
          ),
        ),
      );
      if (recorders[name].errors.size > 0) {
        ctx.log(indent(table(["errors by route -> status", "count"], [...recorders[name].errors].map(([key, count]) => [key, String(count)]))));
      }
    }
    if (recorders.B.errorCount > 0) {
      for (const sample of recorders.B.samples.slice(0, 5)) ctx.log(`    e.g. B: ${sample.route} -> ${sample.outcome}: ${sample.body}`);
    }

    // Every payment once more, on the survivor (verify) and as Paystack's retry (webhook): still once.
    const repeats = await mapLimit(payments, 8, async (payment) => {
      const verified = await payment.learner.client.get(`/api/verify-paystack?${new URLSearchParams({ reference: payment.reference })}`);
      const webhook = await simulator.replayWebhook(b.url, payment.reference);
      return [verified.status, webhook.status];
    });
    const repeatFailures = repeats.flat().filter((status) => status !== 200).length;

    // What the database holds for every payment the runner made.
    const references = payments.map((payment) => payment.reference);
    const emails = payers.map((learner) => learner.email);
    const found = await withDatabase({ kind: "postgres", url: databaseUrl }, async (query) => ({
      payments: await query("select reference, status, credited_at from payments where reference = any($1)", [references]),
      audits: await query("select reason from audit_log where action = 'payment.credited' and reason = any($1)", [
        references.map((reference) => `payment ${reference}`),
      ]),
      receipts: await query("select payload->>'reference' as reference, status from jobs where kind = $1 and payload->>'reference' = any($2)", [
        RECEIPT_JOB,
        references,
      ]),
      users: await query(
        "select lower(email) as email, subscription_plan, subscription_status, subscription_end from users where lower(email) = any($1)",
        [emails],
      ),
      pendingOfPayers: await query(
        "select p.reference from payments p join users u on u.id = p.user_id where lower(u.email) = any($1) and p.status <> 'success'",
        [emails],
      ),
    }));
    const countBy = (rows: Record<string, unknown>[], key: string, prefix = "") => {
      const counts = new Map<string, number>();
      for (const row of rows) {
        const value = String(row[key]).slice(prefix.length);
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      return counts;
    };
    const paymentRows = countBy(found.payments, "reference");
    const creditedRows = new Set(found.payments.filter((row) => row.status === "success" && row.credited_at !== null).map((row) => String(row.reference)));
    const auditRows = countBy(found.audits, "reason", "payment ");
    const receiptRows = countBy(found.receipts, "reference");
    const lost = references.filter((reference) => !creditedRows.has(reference));
    const notOnce = references.filter(
      (reference) => paymentRows.get(reference) !== 1 || auditRows.get(reference) !== 1 || receiptRows.get(reference) !== 1,
    );
    const monthMs = 31 * 24 * 60 * 60_000;
    const paidEmails = new Set(payments.map((payment) => payment.learner.email));
    const wrongPlans = found.users.filter((user) => {
      if (!paidEmails.has(String(user.email))) return false;
      const endMs = user.subscription_end instanceof Date ? user.subscription_end.getTime() : Number.NaN;
      const days = (endMs - Date.now()) / (24 * 60 * 60_000);
      return user.subscription_plan !== PLAN || user.subscription_status !== "active" || !(days >= 28 && endMs - Date.now() <= monthMs);
    });
    const receiptStatuses = countBy(found.receipts, "status");

    const beforeKillPayments = payments.filter((payment) => payment.beforeKill).length;
    report.figure("learners", String(options.learners));
    report.figure("requests", `A ${recorders.A.requests}, B ${recorders.B.requests}`);
    report.figure("B after the kill", `${afterKill.B.requests} requests, ${afterKill.B.errors} errors`);
    report.figure("A cut by the kill", String(afterKill.A.errors));
    report.figure("payments", `${payments.length} (${beforeKillPayments} before the kill, ${payments.filter((p) => p.race).length} raced)`);
    report.figure("receipt jobs", [...receiptStatuses].map(([status, count]) => `${count} ${status}`).join(", "));
    const steps = recorders.B.steps();
    for (const s of steps) if (s.step !== "login") report.figure(`B p99 ${s.step}`, ms(s.p99));
    ctx.log(`  ${elapsed.toFixed(1)} s, ${rounds} complete study rounds, ${signedIn} learners signed in; ${found.pendingOfPayers.length} checkouts never paid (cut by the kill)`);

    report.check("A was killed with SIGKILL halfway", a.exitInfo?.signal === "SIGKILL" && killedAt !== null, a.describeExit());
    report.check("B stayed up", b.alive, b.describeExit());
    report.check("every learner signed in", signedIn === options.learners, `${signedIn} of ${options.learners}`);
    report.check("A: 0 errors before the kill", errorsOnABeforeKill === 0, `${errorsOnABeforeKill}`);
    report.check(
      "B: 0 errors, before and after the kill",
      recorders.B.errorCount === 0,
      `${recorders.B.requests} requests (${afterKill.B.requests} after the kill)${recorders.B.errorCount === 0 ? "" : `: ${[...recorders.B.errors].map(([key, count]) => `${key}: ${count}`).join("; ")}`}`,
    );
    report.check("B served A's learners after the kill", afterKill.B.requests > 0 && learners.every((learner) => learner.on === "B"), `${afterKill.B.requests} requests`);
    report.check("payments were made before and after the kill", beforeKillPayments > 0 && payments.length > beforeKillPayments, `${payments.length} payments`);
    report.check("no checkout failed", checkoutsFailed === 0, String(checkoutsFailed));
    report.check("every payment credited (none lost)", lost.length === 0, lost.length === 0 ? `${references.length} payments` : `not credited: ${lost.join(", ")}`);
    report.check(
      "every payment once: one payment row, one payment.credited audit entry, one receipt job",
      notOnce.length === 0,
      notOnce.length === 0 ? "" : notOnce.map((reference) => `${reference}: ${paymentRows.get(reference) ?? 0}/${auditRows.get(reference) ?? 0}/${receiptRows.get(reference) ?? 0}`).join(", "),
    );
    report.check("every payer has the plan for one month (not two)", wrongPlans.length === 0 && found.users.length === payers.length, JSON.stringify(wrongPlans.slice(0, 3)));
    report.check("one more verify and webhook per payment answer 200", repeatFailures === 0, `${repeats.length * 2} calls, ${repeatFailures} not 200`);
  } catch (error) {
    report.aborted(error);
  } finally {
    for (const learner of learners) learner.client.close();
    for (const app of Object.values(apps)) await app.stop();
    if (paystack) await paystack.close();
    await dropScratchDatabase(DATABASE).then(
      () => ctx.log(`  scratch database ${DATABASE} dropped`),
      (error: unknown) => ctx.log(`  could not drop ${DATABASE}: ${String(error)}`),
    );
  }
  return report.result();
}
