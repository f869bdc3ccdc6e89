// Quiz answers recorded in batches (docs/performance.md, "Quiz answers in batches"). The answers
// an instance has waiting are recorded by one call of the database function record_quiz_answers
// (migration 0014), in one transaction: under load one statement and one commit serve many
// answers, where each took its own. A quiet server records each answer at once, alone.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { QUIZ_ANSWER_LIMIT } from "../../../shared/contracts/learning.ts";
import { createBatcher } from "../../db/batcher.ts";
import type { Database, Db } from "../../db/client.ts";
import { latestAnswerSchema, storedAttemptsSchema } from "./completion.ts";

/** One answer, its option already checked against the question; `nowMs` counts it in the limit. */
export type AnswerToRecord = {
  userId: string;
  programId: string;
  moduleId: string;
  questionIndex: number;
  option: string;
  correct: boolean;
  nowMs: number;
};

const recordedAnswer = z.object({
  ordinal: z.number(),
  outcome: z.enum(["locked", "refused", "recorded"]),
  lastRequest: z.nullable(z.coerce.number()),
  earlier: z.nullable(latestAnswerSchema),
  firstAnswer: z.nullable(z.boolean()),
  data: z.unknown(),
  answers: z.nullable(z.array(latestAnswerSchema)),
  certificateId: z.nullable(z.string()),
  attempts: z.nullable(storedAttemptsSchema),
});

/**
 * What record_quiz_answer made of one answer: locked (the quiz is not open to the learner),
 * refused (past the limit; `lastRequest` starts the window) or recorded, with the answer it
 * replaced in the current attempt, whether it was the attempt's first answer to the question (the
 * one that scores, migration 0019) and the learner's standing after it.
 */
export type RecordedAnswer = Omit<z.infer<typeof recordedAnswer>, "ordinal">;

/** Built once: Zod compiles a schema on its first use. */
const recordedAnswers = z.array(recordedAnswer);

/** Records one answer with the others waiting on this instance; settles once they are committed. */
export type AnswerRecorder = (answer: AnswerToRecord) => Promise<RecordedAnswer>;

/**
 * The call as a named prepared statement, built once per database: each connection parses and
 * plans it once, not on every batch (docs/performance.md, "Profiled with perf").
 */
function recordAnswersQuery(db: Db) {
  const at = (name: string) => sql.placeholder(name);
  return db
    .select({
      ordinal: sql<unknown>`answer.ordinal`,
      outcome: sql<unknown>`answer.outcome`,
      lastRequest: sql<unknown>`answer.last_request`,
      earlier: sql<unknown>`answer.earlier`,
      firstAnswer: sql<unknown>`answer.first_answer`,
      data: sql<unknown>`answer.data`,
      answers: sql<unknown>`answer.answers`,
      certificateId: sql<unknown>`answer.certificate_id`,
      attempts: sql<unknown>`answer.attempts`,
    })
    .from(sql`record_quiz_answers(${at("answers")}::jsonb, ${at("windowMs")}, ${at("perWindow")}, ${at("kept")}) as answer`)
    .prepare("record_quiz_answers");
}

/**
 * Batches of at most 50 answers, two at a time per instance (one at a time answered a little more
 * under the bench's load, but in the 200-learner load made an answer wait for the batch before it
 * more often: docs/performance.md). On PostgreSQL an answer goes out at once while fewer than two
 * batches run; PGlite runs a statement within the call, so its answers gather for a turn of the
 * event loop instead.
 */
export function createAnswerRecorder(database: Pick<Database, "db" | "kind">): AnswerRecorder {
  const query = recordAnswersQuery(database.db);
  const { perWindow, windowSeconds, kept } = QUIZ_ANSWER_LIMIT;
  return createBatcher<AnswerToRecord, RecordedAnswer>(
    async (answers) => {
      const rows = recordedAnswers.parse(
        await query.execute({ answers: JSON.stringify(answers), windowMs: windowSeconds * 1000, perWindow, kept }),
      );
      const byOrdinal = new Map(rows.map(({ ordinal, ...row }) => [ordinal, row]));
      return answers.map((_, index) => byOrdinal.get(index + 1) ?? new Error("record_quiz_answers answered nothing for an answer"));
    },
    { maxBatch: 50, slots: 2, gather: database.kind === "postgres" ? "running" : "turn" },
  );
}
