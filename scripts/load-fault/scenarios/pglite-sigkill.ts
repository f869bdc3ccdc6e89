// Scenario "pglite-sigkill": on the embedded database (DATA_DIR in the run's folder), a stream
// of committed writes (registrations, videos marked watched, quiz answers, contact messages) is
// cut by a SIGKILL of the app while requests are in flight. Every write the app acknowledged
// (2xx) must be there after a restart on the same folder, and the lock file the killed process
// left behind must not keep the restart out. Two kill-and-restart rounds; the data is checked
// through the API while the app runs, then in the database itself after a clean stop.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { QUIZ_ANSWER_LIMIT, trackDetailSchema } from "../../../src/shared/contracts/learning.ts";
import { optionLetter } from "../../../src/shared/quiz-option.ts";
import { freePort } from "../../../src/server/testing/child-process-env.ts";
import { AppProcess } from "../lib/app-process.ts";
import { withDatabase } from "../lib/databases.ts";
import { Client } from "../lib/http-client.ts";
import { TRACK } from "../lib/journey.ts";
import { learnerAddress, learnerEmail, prepareAccount, register, signInOrThrow } from "../lib/learners.ts";
import { ScenarioReport, type RunContext, type ScenarioResult } from "../lib/report.ts";
import { sleep } from "../lib/stats.ts";

const LEARNERS = 6;
const ROUNDS = 2;
const WRITE_MS = 4_000;
const LOCK_FILE = "trading-academy.lock";
/**
 * The rounds fall within one minute, and the app takes 5 answers a minute per learner and
 * question (QUIZ_ANSWER_LIMIT): each round answers each question at most twice, spread over its
 * writing time, so that no answer is refused and the kill still cuts quiz writes in flight.
 */
const QUIZ_ANSWERS_PER_QUESTION_PER_ROUND = 2;

type Learner = { email: string; client: Client; modules: string[]; letters: string[][] };

/** What the app acknowledged (answered 2xx) so far. */
type Acknowledged = {
  registrations: string[];
  watched: Map<string, Set<string>>;
  /** Per learner, per question index: the answers acknowledged. */
  quizAnswers: Map<string, Map<number, number>>;
  contacts: string[];
  attempted: number;
  unanswered: number;
};

async function trackOf(client: Client) {
  const answer = await client.get(`/api/programs/${TRACK}`);
  const parsed = trackDetailSchema.safeParse(answer.json);
  if (answer.status !== 200 || !parsed.success) throw new Error(`GET /api/programs/${TRACK}: ${answer.status} ${answer.text.slice(0, 200)}`);
  return parsed.data;
}

export async function pgliteSigkillScenario(ctx: RunContext): Promise<ScenarioResult> {
  const report = new ScenarioReport("pglite-sigkill", ctx.log);
  const dataDir = join(ctx.runDir, "pglite-sigkill-data");
  mkdirSync(dataDir, { recursive: true });
  let app: AppProcess | null = null;
  const clients: Client[] = [];
  const learners: Learner[] = [];
  const acked: Acknowledged = { registrations: [], watched: new Map(), quizAnswers: new Map(), contacts: [], attempted: 0, unanswered: 0 };
  let nextRegistration = 0;
  let nextContact = 0;
  try {
    const port = await freePort();
    const start = (round: number) =>
      AppProcess.start({ port, env: { DATA_DIR: dataDir }, logFile: join(ctx.runDir, `pglite-sigkill-app-${round}.log`), useDist: ctx.useDist });
    app = await start(0);
    ctx.log(`  app pid ${app.pid} on ${app.url}, DATA_DIR ${dataDir}`);

    for (let index = 0; index < LEARNERS; index++) {
      const email = learnerEmail(ctx.runId, "pglite-learner", index);
      const client = new Client({ baseUrl: app.url, localAddress: learnerAddress(31, index), timeoutMs: 20_000 });
      clients.push(client);
      await prepareAccount(client, email);
      await signInOrThrow(client, email);
      const track = await trackOf(client);
      learners.push({
        email,
        client,
        modules: track.modules.map((module) => module.id),
        letters: (track.quiz?.questions ?? []).map((question) => question.options.flatMap((option) => optionLetter(option) ?? [])),
      });
      acked.watched.set(email, new Set());
      acked.quizAnswers.set(email, new Map());
    }
    ctx.log(`  ${LEARNERS} learners signed in (${learners[0]?.modules.length ?? 0} videos, ${learners[0]?.letters.length ?? 0} quiz questions)`);

    for (let round = 1; round <= ROUNDS; round++) {
      const current = app;
      const baseUrl = current.url;
      let writing = true;
      const counts = { registrations: 0, watched: 0, quiz: 0, contacts: 0 };
      const answered = (status: number) => {
        acked.attempted++;
        if (status === 0) acked.unanswered++;
        return status >= 200 && status < 300;
      };

      const registrations = async () => {
        while (writing) {
          const index = nextRegistration++;
          const email = learnerEmail(ctx.runId, "pglite-signup", index);
          const client = new Client({ baseUrl, localAddress: learnerAddress(32, index), timeoutMs: 20_000 });
          const answer = await register(client, email);
          client.close();
          if (answered(answer.status)) {
            acked.registrations.push(email);
            counts.registrations++;
          }
        }
      };
      const contacts = async () => {
        while (writing) {
          const index = nextContact++;
          const message = `load-fault contact ${ctx.runId} #${index}`;
          const client = new Client({ baseUrl, localAddress: learnerAddress(33, index), timeoutMs: 20_000 });
          const answer = await client.post("/api/contact", { name: "Load Fault", email: `contact-${index}@load.example`, message });
          client.close();
          if (answered(answer.status)) {
            acked.contacts.push(message);
            counts.contacts++;
          }
        }
      };
      const study = async (learner: Learner) => {
        const questions = Math.max(1, learner.letters.length);
        const quizSpacingMs = WRITE_MS / (questions * QUIZ_ANSWERS_PER_QUESTION_PER_ROUND);
        const sentThisRound = new Map<number, number>();
        let nextQuizAt = 0;
        for (let step = 0; writing; step++) {
          const moduleId = learner.modules[(step + round) % learner.modules.length];
          if (moduleId) {
            const answer = await learner.client.post(`/api/programs/${TRACK}/modules/${encodeURIComponent(moduleId)}/watched`, {});
            if (answered(answer.status)) {
              acked.watched.get(learner.email)?.add(moduleId);
              counts.watched++;
            }
          }
          const questionIndex = step % questions;
          const option = learner.letters[questionIndex]?.[step % 2] ?? "A";
          if (!writing) break;
          const sent = sentThisRound.get(questionIndex) ?? 0;
          if (Date.now() < nextQuizAt || sent >= QUIZ_ANSWERS_PER_QUESTION_PER_ROUND) continue;
          nextQuizAt = Date.now() + quizSpacingMs;
          sentThisRound.set(questionIndex, sent + 1);
          const answer = await learner.client.post(`/api/programs/${TRACK}/quiz/answers`, { questionIndex, option });
          if (answered(answer.status)) {
            const perQuestion = acked.quizAnswers.get(learner.email);
            perQuestion?.set(questionIndex, (perQuestion.get(questionIndex) ?? 0) + 1);
            counts.quiz++;
          }
        }
      };

      // Writers run; the kill comes while they are mid-request.
      const writers = Promise.all([registrations(), registrations(), contacts(), ...learners.map(study)]);
      await sleep(WRITE_MS);
      const killed = await current.kill();
      writing = false;
      await writers;
      ctx.log(
        `  round ${round}: acknowledged ${counts.registrations} registrations, ${counts.watched} watched, ` +
          `${counts.quiz} quiz answers, ${counts.contacts} contact messages; SIGKILL ${JSON.stringify(killed)}`,
      );
      report.check(`round ${round}: app SIGKILLed during writes`, killed.signal === "SIGKILL", JSON.stringify(killed));

      const lockPath = join(dataDir, LOCK_FILE);
      const lockOwner = existsSync(lockPath) ? readFileSync(lockPath, "utf8").trim() : null;
      report.check(
        `round ${round}: the killed process left its lock file`,
        lockOwner === String(current.pid),
        lockOwner === null ? "no lock file" : `lock file names pid ${lockOwner} (killed pid ${current.pid})`,
      );

      const restartStarted = Date.now();
      try {
        app = await start(round);
        report.check(`round ${round}: restart on the same DATA_DIR is not blocked by the stale lock`, true, `healthy after ${Date.now() - restartStarted} ms`);
        report.figure(`restart ${round}`, `${((Date.now() - restartStarted) / 1000).toFixed(1)} s`);
      } catch (error) {
        report.check(`round ${round}: restart on the same DATA_DIR is not blocked by the stale lock`, false, String(error));
        throw error;
      }

      // Through the API: each learner's session survived, with every acknowledged video watched.
      const missingWatched: string[] = [];
      for (const learner of learners) {
        const track = await trackOf(learner.client);
        for (const moduleId of acked.watched.get(learner.email) ?? []) {
          if (!track.watched.includes(moduleId)) missingWatched.push(`${learner.email}: ${moduleId}`);
        }
      }
      report.check(
        `round ${round}: every acknowledged "watched" is there (API, same sessions)`,
        missingWatched.length === 0,
        missingWatched.length === 0 ? `${[...acked.watched.values()].reduce((n, set) => n + set.size, 0)} learner-videos` : missingWatched.join("; "),
      );
    }

    // In the database itself, after a clean stop.
    await app.stop();
    await withDatabase({ kind: "pglite", dataDir }, async (query) => {
      const users = new Set((await query("select lower(email) as email from users")).map((row) => String(row.email)));
      const missingUsers = acked.registrations.filter((email) => !users.has(email.toLowerCase()));
      report.check(
        "every acknowledged registration is in users",
        missingUsers.length === 0,
        missingUsers.length === 0 ? `${acked.registrations.length} registrations` : `missing: ${missingUsers.join(", ")}`,
      );
      const contactRows = new Set((await query("select message from contacts")).map((row) => String(row.message)));
      const missingContacts = acked.contacts.filter((message) => !contactRows.has(message));
      report.check(
        "every acknowledged contact message is in contacts",
        missingContacts.length === 0,
        missingContacts.length === 0 ? `${acked.contacts.length} messages` : `missing: ${missingContacts.join(", ")}`,
      );
      const shortQuiz: string[] = [];
      const missingProgress: string[] = [];
      for (const learner of learners) {
        const [attempts] = await query(
          "select count(*)::int as n from quiz_attempts q join users u on u.id = q.user_id where lower(u.email) = $1",
          [learner.email],
        );
        // Only the latest attempts per question are kept (QUIZ_ANSWER_LIMIT.kept).
        const perQuestion = [...(acked.quizAnswers.get(learner.email) ?? new Map<number, number>()).values()];
        const expected = perQuestion.reduce((sum, n) => sum + Math.min(n, QUIZ_ANSWER_LIMIT.kept), 0);
        const stored = Number(attempts?.n ?? 0);
        if (stored < expected) shortQuiz.push(`${learner.email}: ${stored} stored < ${expected} acknowledged`);
        const [progress] = await query(
          "select p.data from user_progress p join users u on u.id = p.user_id where lower(u.email) = $1 and p.program_id = $2",
          [learner.email, TRACK],
        );
        const data = progress?.data;
        for (const moduleId of acked.watched.get(learner.email) ?? []) {
          const watched = typeof data === "object" && data !== null && Reflect.get(data, moduleId) === true;
          if (!watched) missingProgress.push(`${learner.email}: ${moduleId}`);
        }
      }
      const quizTotal = [...acked.quizAnswers.values()].flatMap((perQuestion) => [...perQuestion.values()]).reduce((sum, n) => sum + n, 0);
      report.check(
        "every acknowledged quiz answer is in quiz_attempts (up to the latest kept per question)",
        shortQuiz.length === 0,
        shortQuiz.length === 0 ? `${quizTotal} answers` : shortQuiz.join("; "),
      );
      report.check("every acknowledged video is in user_progress", missingProgress.length === 0, missingProgress.join("; "));
      report.figure("acknowledged writes", String(acked.registrations.length + acked.contacts.length + quizTotal + [...acked.watched.values()].reduce((n, set) => n + set.size, 0)));
    });
    report.figure("unanswered (cut or refused at the kill)", String(acked.unanswered));
    report.check("the lock file is gone after the clean stop", !existsSync(join(dataDir, LOCK_FILE)));
  } catch (error) {
    report.aborted(error);
  } finally {
    for (const client of clients) client.close();
    if (app) await app.stop();
  }
  return report.result();
}
