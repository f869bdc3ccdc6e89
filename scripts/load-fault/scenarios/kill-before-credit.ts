// Scenario "kill-before-credit": a payment succeeds at Paystack while our server has not
// credited it, the server dies (SIGKILL), and the restarted server must credit it exactly once.
//
// How the charge is put in "paid at Paystack, pending in our database": the Paystack simulator
// runs in this runner's process (lib/paystack-server.ts), not inside the app, so its
// transactions survive the app's death as the real Paystack's do (the embedded simulator keeps
// them in the app's memory: a restart would forget the charge, and verify would answer "not
// found"). Two learners, two ways of getting there:
//   A: settled at Paystack with the webhook not delivered, then the app is SIGKILLed. After the
//      restart, A's verify call (the browser's callback) credits it.
//   B: the app is SIGKILLed first, then B pays: Paystack's webhook finds nobody listening. After
//      the restart, Paystack's retry of the webhook (replayed here, signed) credits it.
//   C: (the step after) paid and credited by verify, the app killed at once, before its job
//      runner sent the receipt: the receipt job must survive and run once after the restart.
// Then both are verified and webhooked several more times, some at the same moment: the payment
// row, the plan, the audit entry, the receipt job and the receipt mail must each exist once.
// Run on PostgreSQL (scratch database ta_load_credit) and on PGlite (a folder of the run).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { subscriptionSchema, verifyResponseSchema } from "../../../src/shared/contracts/billing.ts";
import { freePort } from "../../../src/server/testing/child-process-env.ts";
import { AppProcess } from "../lib/app-process.ts";
import { createScratchDatabase, dropScratchDatabase, withDatabase, type DatabaseTarget } from "../lib/databases.ts";
import { Client } from "../lib/http-client.ts";
import { learnerAddress, learnerEmail, mailbox, prepareAccount, signInOrThrow } from "../lib/learners.ts";
import { PaystackServer } from "../lib/paystack-server.ts";
import { ScenarioReport, type RunContext, type ScenarioResult } from "../lib/report.ts";
import { sleep } from "../lib/stats.ts";

const DATABASE = "ta_load_credit";
const PLAN = "intermediate";
const RECEIPT_JOB = "billing.receipt";

type Buyer = { name: "A" | "B" | "C"; email: string; client: Client; reference: string };

async function subscription(client: Client) {
  const answer = await client.post("/api/subscription-management", { action: "get_subscription" });
  const parsed = subscriptionSchema.safeParse(answer.json);
  if (answer.status !== 200 || !parsed.success) throw new Error(`get_subscription: ${answer.status} ${answer.text}`);
  return parsed.data;
}

async function checkout(client: Client): Promise<string> {
  const answer = await client.post("/api/subscription-management", { action: "create_subscription", planId: PLAN });
  const json = answer.json;
  if (answer.status !== 200 || typeof json !== "object" || json === null || !("reference" in json) || typeof json.reference !== "string") {
    throw new Error(`create_subscription: ${answer.status} ${answer.text}`);
  }
  return json.reference;
}

function verify(client: Client, reference: string) {
  return client.get(`/api/verify-paystack?${new URLSearchParams({ reference })}`);
}

/** Waits until the receipt mails for `buyer` reach `count`, or the time is up; returns what is there. */
async function receiptMails(buyer: Buyer, waitMs: number, count = 1) {
  const started = Date.now();
  for (;;) {
    const mails = (await mailbox(buyer.client, buyer.email)).filter((mail) => mail.subject.includes(buyer.reference));
    if (mails.length >= count || Date.now() - started > waitMs) return mails;
    await sleep(500);
  }
}

async function runOn(ctx: RunContext, kind: DatabaseTarget["kind"]): Promise<ScenarioResult> {
  const report = new ScenarioReport(`kill-before-credit (${kind})`, ctx.log);
  let app: AppProcess | null = null;
  let paystack: PaystackServer | null = null;
  const buyers: Buyer[] = [];
  let target: DatabaseTarget | null = null;
  try {
    if (kind === "postgres") {
      target = { kind, url: await createScratchDatabase(DATABASE) };
      ctx.log(`  scratch database ${DATABASE} created`);
    } else {
      const dataDir = join(ctx.runDir, "credit-pglite-data");
      mkdirSync(dataDir, { recursive: true });
      target = { kind, dataDir };
    }
    const databaseEnv: Record<string, string> = target.kind === "postgres" ? { DATABASE_URL: target.url } : { DATA_DIR: target.dataDir };
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    paystack = await PaystackServer.start(appUrl);
    const env = { ...databaseEnv, ...paystack.appEnv(appUrl) };
    ctx.log(`  Paystack simulator (in this process) at ${paystack.apiUrl}`);
    app = await AppProcess.start({ port, env, logFile: join(ctx.runDir, `credit-${kind}-app-1.log`), useDist: ctx.useDist });
    ctx.log(`  app pid ${app.pid} on ${app.url}`);

    const net = kind === "postgres" ? 21 : 22;
    for (const [index, name] of (["A", "B", "C"] as const).entries()) {
      const email = learnerEmail(ctx.runId, `credit-${kind}-${name.toLowerCase()}`, index);
      const client = new Client({ baseUrl: app.url, localAddress: learnerAddress(net, index), timeoutMs: 20_000 });
      await prepareAccount(client, email);
      await signInOrThrow(client, email);
      buyers.push({ name, email, client, reference: await checkout(client) });
    }
    const [a, b, c] = buyers as [Buyer, Buyer, Buyer];
    ctx.log(`  checkouts: A ${a.reference}, B ${b.reference}, C ${c.reference}`);

    // A: paid at Paystack, webhook not delivered; then the server dies before anything credits it.
    const settledA = await paystack.settle(a.reference, false);
    const beforeKill = await subscription(a.client);
    report.check(
      "A is paid at Paystack and not credited by us before the kill",
      settledA.status === "success" && beforeKill.plan.name !== PLAN,
      `Paystack: ${settledA.status}; our plan: ${beforeKill.plan.name}`,
    );
    if (target.kind === "postgres") {
      const rows = await withDatabase(target, (query) => query("select status from payments where reference = $1", [a.reference]));
      report.check("A's payment row is pending in our database before the kill", rows[0]?.status === "pending", JSON.stringify(rows));
    }
    // C: paid and credited by its verify call, the server killed right after (its receipt job,
    // run by the job runner every 5 s, most likely still pending): the receipt must still go once.
    await paystack.settle(c.reference, false);
    const verifiedC = await verify(c.client, c.reference);
    const killed = await app.kill();
    report.check("C: credited by verify just before the kill", verifiedC.status === 200, `${verifiedC.status} ${verifiedC.text.slice(0, 120)}`);
    report.check("app SIGKILLed", killed.signal === "SIGKILL", JSON.stringify(killed));
    if (target.kind === "postgres") {
      // PostgreSQL outlives the app: what the kill left behind for C.
      const jobs = await withDatabase(target, (query) =>
        query("select status, attempts from jobs where kind = $1 and payload->>'reference' = $2", [RECEIPT_JOB, c.reference]),
      );
      ctx.log(`  C's receipt job right after the kill: ${JSON.stringify(jobs)}`);
      report.figure("C receipt job at the kill", String(jobs[0]?.status ?? "none"));
    }

    // B pays while the server is down: the webhook finds nobody.
    const settledB = await paystack.settle(b.reference, true);
    report.check(
      "B is paid at Paystack while the app is down; its webhook was not delivered",
      settledB.status === "success" && settledB.webhook?.delivered === false,
      `Paystack: ${settledB.status}; webhook ${JSON.stringify(settledB.webhook)}`,
    );

    // Restart on the same database (and, for PGlite, past the lock file the dead process left).
    const restartStarted = Date.now();
    app = await AppProcess.start({ port, env, logFile: join(ctx.runDir, `credit-${kind}-app-2.log`), useDist: ctx.useDist });
    const restartMs = Date.now() - restartStarted;
    report.check("app restarted on the same database", app.alive, `pid ${app.pid}, healthy after ${restartMs} ms`);
    report.figure("restart", `${(restartMs / 1000).toFixed(1)} s`);
    for (const buyer of [a, b]) {
      const state = await subscription(buyer.client);
      report.check(`${buyer.name} still not credited after the restart (session kept)`, state.plan.name !== PLAN, `plan ${state.plan.name}`);
    }

    // The first call after the restart credits: A by verify, B by Paystack's webhook retry.
    const verifiedA = await verify(a.client, a.reference);
    const verifiedABody = verifyResponseSchema.safeParse(verifiedA.json);
    report.check(
      "A: the next verify call credits the payment",
      verifiedA.status === 200 && verifiedABody.success && verifiedABody.data.data.plan === PLAN,
      `${verifiedA.status} ${verifiedA.text.slice(0, 200)}`,
    );
    const webhookB = await paystack.replayWebhook(app.url, b.reference);
    const afterWebhookB = await subscription(b.client);
    report.check(
      "B: the next webhook credits the payment",
      webhookB.status === 200 && afterWebhookB.plan.name === PLAN && afterWebhookB.status === "active",
      `webhook ${webhookB.status} ${webhookB.text}; plan ${afterWebhookB.plan.name} ${afterWebhookB.status}`,
    );

    // Then more of both, some at the same moment: still once.
    const simulator = paystack;
    const restarted = app;
    const repeats = await Promise.all(
      buyers.flatMap((buyer) => [
        ...Array.from({ length: 3 }, () => verify(buyer.client, buyer.reference).then((answer) => answer.status)),
        ...Array.from({ length: 3 }, () => simulator.replayWebhook(restarted.url, buyer.reference).then((answer) => answer.status)),
      ]),
    );
    for (let round = 0; round < 2; round++) {
      for (const buyer of buyers) {
        repeats.push((await verify(buyer.client, buyer.reference)).status);
        repeats.push((await paystack.replayWebhook(app.url, buyer.reference)).status);
      }
    }
    report.check(
      "15 more verify calls and 15 more webhooks (9 of each at once) all answer 200",
      repeats.every((status) => status === 200),
      `statuses ${repeats.join(",")}`,
    );

    // Receipts: one each, by mail (the job runner polls every 5 s; wait a while for a second one).
    await Promise.all(buyers.map((buyer) => receiptMails(buyer, 20_000)));
    await sleep(7_000);
    for (const buyer of buyers) {
      const mails = await receiptMails(buyer, 0);
      report.check(`${buyer.name}: exactly one receipt mail`, mails.length === 1, `${mails.length} mail(s) "${mails[0]?.subject ?? ""}"`);
      const state = await subscription(buyer.client);
      report.check(
        `${buyer.name}: plan granted once (one month)`,
        state.plan.name === PLAN && state.status === "active" && state.remainingDays !== null && state.remainingDays >= 28 && state.remainingDays <= 31,
        `${state.plan.name} ${state.status}, ${state.remainingDays} days left, ends ${state.currentPeriodEnd}`,
      );
    }
    report.check("app process stayed up after the restart", app.alive);

    // The database itself, read after a clean stop (PGlite is single-process).
    await app.stop();
    const resolvedTarget = target;
    await withDatabase(resolvedTarget, async (query) => {
      for (const buyer of buyers) {
        const payments = await query("select status, credited_at, paid_at from payments where reference = $1", [buyer.reference]);
        const audit = await query("select action, reason from audit_log where reason = $1", [`payment ${buyer.reference}`]);
        const jobs = await query("select status, attempts from jobs where kind = $1 and payload->>'reference' = $2", [
          RECEIPT_JOB,
          buyer.reference,
        ]);
        const mails = await query("select subject from dev_mail where subject like $1", [`%${buyer.reference}%`]);
        const users = await query("select subscription_plan, subscription_status, subscription_end from users where lower(email) = $1", [
          buyer.email,
        ]);
        report.check(
          `${buyer.name}: one payment row, status success, credited`,
          payments.length === 1 && payments[0]?.status === "success" && payments[0]?.credited_at !== null,
          JSON.stringify(payments),
        );
        report.check(`${buyer.name}: one audit entry payment.credited`, audit.length === 1 && audit[0]?.action === "payment.credited", JSON.stringify(audit));
        report.check(`${buyer.name}: one receipt job, done`, jobs.length === 1 && jobs[0]?.status === "done", JSON.stringify(jobs));
        report.check(`${buyer.name}: one receipt in the mail table`, mails.length === 1, `${mails.length} row(s)`);
        report.check(`${buyer.name}: users row has the plan`, users[0]?.subscription_plan === PLAN && users[0]?.subscription_status === "active", JSON.stringify(users));
      }
    });
  } catch (error) {
    report.aborted(error);
  } finally {
    for (const buyer of buyers) buyer.client.close();
    if (app) await app.stop();
    if (paystack) await paystack.close();
    if (target?.kind === "postgres") {
      await dropScratchDatabase(DATABASE).then(
        () => ctx.log(`  scratch database ${DATABASE} dropped`),
        (error: unknown) => ctx.log(`  could not drop ${DATABASE}: ${String(error)}`),
      );
    }
  }
  return report.result();
}

export async function killBeforeCreditScenario(ctx: RunContext): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const kind of ["postgres", "pglite"] as const) {
    ctx.log(`  -- on ${kind}`);
    results.push(await runOn(ctx, kind));
  }
  return results;
}
