import Big from "big.js";
import contentDisposition from "content-disposition";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { paidTime } from "../../../shared/plans.ts";
import { LEARNING_ENDPOINTS } from "../../../shared/contracts/learning.ts";
import { EXERCISE_ENDPOINTS } from "../../../shared/contracts/exercises.ts";
import { currentRate } from "../../integrations/exchange-rate.ts";
import {
  createAttemptsReader,
  createScoreWriter,
  getExercise,
  getExerciseBars,
  PriceSets,
  startExerciseAttempt,
  stepExercise,
  submitExercise,
} from "./exercise-attempts.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import type { PerUserCache } from "../../db/user-changes.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
import type { Standing } from "./completion.ts";
import type { AnswerRecorder } from "./quiz-answers.ts";
import { route } from "../../plugins/endpoints.ts";
import {
  answerQuestion,
  AttemptTooSoon,
  getAttachment,
  getLessonContent,
  getProgramPreview,
  getTrack,
  lessonPositionsOf,
  markWatched,
  progressSummary,
  saveLessonPosition,
  startAttempt,
  TooManyAnswers,
} from "./learning.service.ts";

/**
 * What learning needs besides the platform: the published catalogue it teaches from, and its own
 * standing cache and quiz answers' writer, made in app.ts (the tests reach the cache there).
 */
export type LearningDeps = FeatureDeps & { catalog: CatalogCache; standingCache: PerUserCache<Standing>; quizAnswers: AnswerRecorder };

export const learningRoutes = (deps: LearningDeps): FastifyPluginAsyncZod => async (app) => {
  const { db, database, env, log, metrics, catalog: catalogCache, jobs, userChanges, standingCache, quizAnswers, attachments, sessions: { requireUser } } = deps;
  /** The certificate's email goes now rather than at the runner's next poll. */
  const sendQueuedEmails = (request: FastifyRequest) => {
    jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
  };

  app.addHook("onRequest", requireUser);
  app.addHook("onSend", async (_request, reply) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  route(app, LEARNING_ENDPOINTS.progress, {}, async (request) => {
    const user = signedInUser(request);
    // The paid period now running began with a payment (or an admin's grant): the next step
    // offers what it opened until the learner studies again (docs/product.md, "Home and program list").
    const paidSince = paidTime(user, new Date()).current?.start ?? null;
    return progressSummary(db, await catalogCache.read(), { id: user.id, plan: user.plan, paidSince });
  });

  route(app, LEARNING_ENDPOINTS.track, {}, async (request) =>
    getTrack(db, await catalogCache.read(), signedInUser(request), request.params.track, standingCache),
  );

  route(app, LEARNING_ENDPOINTS.preview, {}, async (request) => getProgramPreview(await catalogCache.read(), signedInUser(request), request.params.track));

  route(app, LEARNING_ENDPOINTS.lesson, {}, async (request) => {
    const { track, moduleId } = request.params;
    return getLessonContent(await catalogCache.read(), signedInUser(request), track, moduleId);
  });

  // A download (docs/product.md, "Attachments"): sent as the file it is, never shown as a page of
  // ours. Its bytes never change under one id, so the learner's own browser may keep them. A file
  // or a redirect, not JSON: registered here, from its declaration's path and parameters.
  const { attachment } = LEARNING_ENDPOINTS;
  app.get(attachment.path, { schema: { params: attachment.params } }, async (request, reply) => {
    const catalog = await catalogCache.read();
    const { file, delivery } = await getAttachment(db, attachments, catalog, signedInUser(request), request.params);
    if ("redirectTo" in delivery) return reply.header("cache-control", "no-store").redirect(delivery.redirectTo, 302);
    return reply
      .header("content-type", file.contentType)
      .header("content-disposition", contentDisposition(file.fileName))
      .header("cache-control", "private, max-age=86400, immutable")
      .send(Buffer.from(delivery.bytes.buffer, delivery.bytes.byteOffset, delivery.bytes.byteLength));
  });

  route(app, LEARNING_ENDPOINTS.markWatched, { config: { forgetsItsOwnChanges: true } }, async (request) => {
    const catalog = await catalogCache.read();
    const { track, moduleId } = request.params;
    const { watched, completion, issued } = await markWatched(db, catalog, signedInUser(request), track, moduleId, standingCache);
    if (issued) sendQueuedEmails(request);
    return { watched, completion };
  });

  route(app, LEARNING_ENDPOINTS.positions, {}, async (request) => ({
    positions: await lessonPositionsOf(db, await catalogCache.read(), signedInUser(request), request.params.track),
  }));

  // A position is no part of any cached standing: nothing to forget.
  route(app, LEARNING_ENDPOINTS.savePosition, { config: { forgetsItsOwnChanges: true } }, async (request) => {
    const { track, moduleId } = request.params;
    const { seconds } = request.body;
    await saveLessonPosition(db, await catalogCache.read(), signedInUser(request), track, moduleId, seconds);
    return { seconds };
  });

  route(app, LEARNING_ENDPOINTS.answerQuiz, { config: { forgetsItsOwnChanges: true } }, async (request, reply) => {
    const catalog = await catalogCache.read();
    try {
      const learner = signedInUser(request);
      const { issued, ...answered } = await answerQuestion(
        db,
        catalog,
        learner,
        request.params.track,
        request.body,
        new Date(),
        userChanges,
        quizAnswers,
      );
      if (issued) sendQueuedEmails(request);
      return answered;
    } catch (error) {
      if (error instanceof TooManyAnswers) reply.header("retry-after", String(error.retryAfterSeconds));
      throw error;
    }
  });

  // A new quiz attempt (docs/product.md, "Quiz attempts"): refused until the wait is over.
  route(app, LEARNING_ENDPOINTS.newAttempt, {}, async (request, reply) => {
    try {
      const quiz = await startAttempt(db, await catalogCache.read(), signedInUser(request), request.params.track, new Date());
      return { quiz };
    } catch (error) {
      if (error instanceof AttemptTooSoon) reply.header("retry-after", String(error.retryAfterSeconds));
      throw error;
    }
  });

  // Chart exercises (docs/trading.md, "Exercises"): the bars past the decision point are sent only
  // once the attempt is scored; an answer is scored once, and a pass marks the lesson done.
  const sets = new PriceSets(db);
  const attemptsOf = createAttemptsReader(database);
  const scores = createScoreWriter(database);
  const exerciseDeps = async (request: FastifyRequest) => ({ db, catalog: await catalogCache.read(), learner: signedInUser(request), sets, attemptsOf });
  // The academy's rate, kept a minute by this instance once known: a burst of trades reads it once.
  let keptRate: { ghsPerUsd: Big; until: number } | null = null;
  const ghsPerUsd = async () => {
    const now = Date.now();
    if (keptRate && keptRate.until > now) return keptRate.ghsPerUsd;
    const rate = await currentRate({ db, url: env.exchangeRateUrl, log, metrics }, new Date(now));
    keptRate = rate ? { ghsPerUsd: new Big(rate.ghsPerUsd), until: now + 60_000 } : null;
    return keptRate?.ghsPerUsd ?? null;
  };

  route(app, EXERCISE_ENDPOINTS.exercise, {}, async (request) => {
    const { track, moduleId } = request.params;
    return getExercise(await exerciseDeps(request), track, moduleId);
  });

  route(app, EXERCISE_ENDPOINTS.bars, {}, async (request) => {
    const { track, moduleId } = request.params;
    return getExerciseBars(await exerciseDeps(request), track, moduleId, request.query.through);
  });

  // A step or a new attempt changes nothing another cached read holds: nothing to forget.
  route(app, EXERCISE_ENDPOINTS.step, { config: { forgetsItsOwnChanges: true } }, async (request) => {
    const { track, moduleId } = request.params;
    return stepExercise(await exerciseDeps(request), track, moduleId, request.body);
  });

  route(app, EXERCISE_ENDPOINTS.submit, { config: { forgetsItsOwnChanges: true } }, async (request) => {
    const { track, moduleId } = request.params;
    const submitted = await submitExercise({ ...(await exerciseDeps(request)), standingCache, scores, ghsPerUsd }, track, moduleId, request.body);
    if (!submitted.ok) return submitted;
    if (submitted.issued) sendQueuedEmails(request);
    return { ok: true as const, exercise: submitted.exercise };
  });

  route(app, EXERCISE_ENDPOINTS.newAttempt, { config: { forgetsItsOwnChanges: true } }, async (request, reply) => {
    const { track, moduleId } = request.params;
    try {
      return await startExerciseAttempt(await exerciseDeps(request), track, moduleId, new Date());
    } catch (error) {
      if (error instanceof AttemptTooSoon) reply.header("retry-after", String(error.retryAfterSeconds));
      throw error;
    }
  });
};
