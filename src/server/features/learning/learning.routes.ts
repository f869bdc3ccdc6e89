import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  LEARNING_MESSAGES,
  moduleParamsSchema,
  progressSummarySchema,
  quizAnswerRequestSchema,
  quizAnswerResponseSchema,
  trackDetailSchema,
  trackParamsSchema,
  watchedResponseSchema,
} from "../../../shared/contracts/learning.ts";
import { requireUser, signedInUser } from "../../auth/session.ts";
import { answerQuestion, getTrack, markWatched, progressSummary, TooManyAnswers } from "./learning.service.ts";

export const learningRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireUser);
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get("/api/progress", { schema: { response: { 200: progressSummarySchema } } }, async (request) => ({
    programs: await progressSummary(app.db, await app.catalog.read(), signedInUser(request).id),
  }));

  app.get(
    "/api/programs/:track",
    { schema: { params: trackParamsSchema, response: { 200: trackDetailSchema } } },
    async (request) => getTrack(app.db, await app.catalog.read(), signedInUser(request), request.params.track),
  );

  app.post(
    "/api/programs/:track/modules/:moduleId/watched",
    { schema: { params: moduleParamsSchema, response: { 200: watchedResponseSchema } } },
    async (request) => ({
      watched: await markWatched(
        app.db,
        await app.catalog.read(),
        signedInUser(request),
        request.params.track,
        request.params.moduleId,
      ),
    }),
  );

  app.post(
    "/api/programs/:track/quiz/answers",
    {
      schema: { params: trackParamsSchema, body: quizAnswerRequestSchema, response: { 200: quizAnswerResponseSchema } },
    },
    async (request, reply) => {
      const catalog = await app.catalog.read();
      try {
        const learner = signedInUser(request);
        const correct = await answerQuestion(app.db, catalog, learner, request.params.track, request.body, new Date());
        return { correct, message: correct ? LEARNING_MESSAGES.correct : LEARNING_MESSAGES.incorrect };
      } catch (error) {
        if (error instanceof TooManyAnswers) reply.header("retry-after", String(error.retryAfterSeconds));
        throw error;
      }
    },
  );
};
