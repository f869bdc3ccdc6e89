import contentDisposition from "content-disposition";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { paidTime } from "../../../shared/plans.ts";
import {
  attachmentParamsSchema,
  lessonContentSchema,
  programPreviewSchema,
  lessonPositionSchema,
  lessonPositionsSchema,
  moduleParamsSchema,
  newAttemptResponseSchema,
  progressSummarySchema,
  quizAnswerRequestSchema,
  quizAnswerResponseSchema,
  trackDetailSchema,
  trackParamsSchema,
  watchedResponseSchema,
} from "../../../shared/contracts/learning.ts";
import { requireUser, signedInUser } from "../../auth/session.ts";
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

/** The certificate's email goes now rather than at the runner's next poll. */
function sendQueuedEmails(request: FastifyRequest) {
  request.server.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
}

export const learningRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireUser);
  app.addHook("onSend", async (_request, reply) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  app.get("/api/progress", { schema: { response: { 200: progressSummarySchema } } }, async (request) => {
    const user = signedInUser(request);
    // The paid period now running began with a payment (or an admin's grant): the next step
    // offers what it opened until the learner studies again (docs/product.md, "Home and program list").
    const paidSince = paidTime(user, new Date()).current?.start ?? null;
    return progressSummary(app.db, await app.catalog.read(), { id: user.id, plan: user.plan, paidSince });
  });

  app.get(
    "/api/programs/:track",
    { schema: { params: trackParamsSchema, response: { 200: trackDetailSchema } } },
    async (request) => getTrack(app.db, await app.catalog.read(), signedInUser(request), request.params.track, app.standingCache),
  );

  app.get(
    "/api/programs/:track/preview",
    { schema: { params: trackParamsSchema, response: { 200: programPreviewSchema } } },
    async (request) => getProgramPreview(await app.catalog.read(), signedInUser(request), request.params.track),
  );

  app.get(
    "/api/programs/:track/modules/:moduleId",
    { schema: { params: moduleParamsSchema, response: { 200: lessonContentSchema } } },
    async (request) => {
      const { track, moduleId } = request.params;
      return getLessonContent(await app.catalog.read(), signedInUser(request), track, moduleId);
    },
  );

  // A download (docs/product.md, "Attachments"): sent as the file it is, never shown as a page of
  // ours. Its bytes never change under one id, so the learner's own browser may keep them.
  app.get(
    "/api/programs/:track/modules/:moduleId/attachments/:attachmentId",
    { schema: { params: attachmentParamsSchema } },
    async (request, reply) => {
      const catalog = await app.catalog.read();
      const { file, delivery } = await getAttachment(app.db, app.attachments, catalog, signedInUser(request), request.params);
      if ("redirectTo" in delivery) return reply.header("cache-control", "no-store").redirect(delivery.redirectTo, 302);
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", contentDisposition(file.fileName))
        .header("cache-control", "private, max-age=86400, immutable")
        .send(Buffer.from(delivery.bytes.buffer, delivery.bytes.byteOffset, delivery.bytes.byteLength));
    },
  );

  app.post(
    "/api/programs/:track/modules/:moduleId/watched",
    { schema: { params: moduleParamsSchema, response: { 200: watchedResponseSchema } }, config: { forgetsItsOwnChanges: true } },
    async (request) => {
      const catalog = await app.catalog.read();
      const { track, moduleId } = request.params;
      const { watched, completion, issued } = await markWatched(app.db, catalog, signedInUser(request), track, moduleId, app.standingCache);
      if (issued) sendQueuedEmails(request);
      return { watched, completion };
    },
  );

  app.get(
    "/api/programs/:track/positions",
    { schema: { params: trackParamsSchema, response: { 200: lessonPositionsSchema } } },
    async (request) => ({
      positions: await lessonPositionsOf(app.db, await app.catalog.read(), signedInUser(request), request.params.track),
    }),
  );

  // A position is no part of any cached standing: nothing to forget.
  app.put(
    "/api/programs/:track/modules/:moduleId/position",
    {
      schema: { params: moduleParamsSchema, body: lessonPositionSchema, response: { 200: lessonPositionSchema } },
      config: { forgetsItsOwnChanges: true },
    },
    async (request) => {
      const { track, moduleId } = request.params;
      const { seconds } = request.body;
      await saveLessonPosition(app.db, await app.catalog.read(), signedInUser(request), track, moduleId, seconds);
      return { seconds };
    },
  );

  app.post(
    "/api/programs/:track/quiz/answers",
    {
      schema: { params: trackParamsSchema, body: quizAnswerRequestSchema, response: { 200: quizAnswerResponseSchema } },
      config: { forgetsItsOwnChanges: true },
    },
    async (request, reply) => {
      const catalog = await app.catalog.read();
      try {
        const learner = signedInUser(request);
        const { issued, ...answered } = await answerQuestion(
          app.db,
          catalog,
          learner,
          request.params.track,
          request.body,
          new Date(),
          app.userChanges,
          app.quizAnswers,
        );
        if (issued) sendQueuedEmails(request);
        return answered;
      } catch (error) {
        if (error instanceof TooManyAnswers) reply.header("retry-after", String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  // A new quiz attempt (docs/product.md, "Quiz attempts"): refused until the wait is over.
  app.post(
    "/api/programs/:track/quiz/attempts",
    { schema: { params: trackParamsSchema, response: { 201: newAttemptResponseSchema } } },
    async (request, reply) => {
      try {
        const quiz = await startAttempt(app.db, await app.catalog.read(), signedInUser(request), request.params.track, new Date());
        return reply.code(201).send({ quiz });
      } catch (error) {
        if (error instanceof AttemptTooSoon) reply.header("retry-after", String(error.retryAfterSeconds));
        throw error;
      }
    },
  );
};
