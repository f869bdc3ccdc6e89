// Lesson questions and mentorship: the learner's routes behind requireUser, the console's behind
// requireAdmin (every /api/admin route has that guard, wherever it is registered).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RECORDS_PAGE_SIZE } from "../../../shared/contracts/admin.ts";
import {
  adminMentorshipListSchema,
  adminQuestionListSchema,
  answerParamsSchema,
  answerRequestSchema,
  answerResponseSchema,
  confirmMentorshipSchema,
  declineMentorshipSchema,
  lessonParamsSchema,
  mentorshipListSchema,
  mentorshipParamsSchema,
  mentorshipRequestSchema,
  mentorshipResponseSchema,
  okSchema,
  pageQuerySchema,
  pinRequestSchema,
  questionPageSchema,
  questionParamsSchema,
  questionRequestSchema,
  questionResponseSchema,
} from "../../../shared/contracts/support.ts";
import { requireAdmin, requireUser, signedInUser } from "../../auth/session.ts";
import {
  cancelRequest,
  decideRequest,
  listAdminRequests,
  listOwnRequests,
  requestSession,
} from "./mentorship.service.ts";
import {
  answerQuestion,
  askQuestion,
  listAdminQuestions,
  listQuestions,
  removePost,
  setPinned,
  TooManyPosts,
} from "./questions.service.ts";

const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header("cache-control", "no-store");
};

const learnerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireUser);
  app.addHook("onSend", noStore);
  // The seconds until the next post is allowed, as the quiz's limit says them.
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof TooManyPosts) reply.header("retry-after", String(error.retryAfterSeconds));
    throw error;
  });

  app.get(
    "/api/programs/:track/modules/:moduleId/questions",
    { schema: { params: lessonParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema } } },
    async (request) => listQuestions(app.db, await app.catalog.read(), signedInUser(request), request.params, request.query.page),
  );

  app.post(
    "/api/programs/:track/modules/:moduleId/questions",
    { schema: { params: lessonParamsSchema, body: questionRequestSchema, response: { 201: questionResponseSchema } } },
    async (request, reply) => {
      const catalog = await app.catalog.read();
      const question = await askQuestion(app.db, catalog, signedInUser(request), request.params, request.body.body, new Date());
      return reply.code(201).send({ question });
    },
  );

  app.post(
    "/api/questions/:questionId/answers",
    { schema: { params: questionParamsSchema, body: answerRequestSchema, response: { 201: answerResponseSchema } } },
    async (request, reply) => {
      const answer = await answerQuestion(app.db, signedInUser(request), request.params.questionId, request.body.body, new Date());
      return reply.code(201).send({ answer });
    },
  );

  app.get("/api/mentorship", { schema: { response: { 200: mentorshipListSchema } } }, async (request) =>
    listOwnRequests(app.db, signedInUser(request)),
  );

  app.post(
    "/api/mentorship",
    { schema: { body: mentorshipRequestSchema, response: { 201: mentorshipResponseSchema } } },
    async (request, reply) => {
      const created = await requestSession(app.db, signedInUser(request), request.body, new Date());
      return reply.code(201).send({ request: created });
    },
  );

  app.post(
    "/api/mentorship/:requestId/cancel",
    { schema: { params: mentorshipParamsSchema, response: { 200: mentorshipResponseSchema } } },
    async (request) => ({ request: await cancelRequest(app.db, signedInUser(request), request.params.requestId) }),
  );
};

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);
  app.addHook("onSend", noStore);

  app.get(
    "/api/admin/questions",
    { schema: { querystring: pageQuerySchema, response: { 200: adminQuestionListSchema } } },
    async (request) => listAdminQuestions(app.db, signedInUser(request).id, request.query.page, RECORDS_PAGE_SIZE),
  );

  app.put(
    "/api/admin/questions/:questionId/pin",
    { schema: { params: questionParamsSchema, body: pinRequestSchema, response: { 200: okSchema } } },
    async (request) => {
      await setPinned(app.db, request.params.questionId, request.body.pinned, new Date());
      return { ok: true as const };
    },
  );

  app.delete(
    "/api/admin/questions/:questionId",
    { schema: { params: questionParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await removePost(app.db, signedInUser(request).id, { questionId: request.params.questionId });
      return { ok: true as const };
    },
  );

  app.delete(
    "/api/admin/answers/:answerId",
    { schema: { params: answerParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await removePost(app.db, signedInUser(request).id, { answerId: request.params.answerId });
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/mentorship",
    { schema: { querystring: pageQuerySchema, response: { 200: adminMentorshipListSchema } } },
    async (request) => listAdminRequests(app.db, request.query.page, RECORDS_PAGE_SIZE),
  );

  app.post(
    "/api/admin/mentorship/:requestId/confirm",
    { schema: { params: mentorshipParamsSchema, body: confirmMentorshipSchema, response: { 200: mentorshipResponseSchema } } },
    async (request) => {
      const { scheduledAt, note } = request.body;
      const decision = { status: "confirmed" as const, scheduledAt, note };
      return { request: await decideRequest(app.db, signedInUser(request).id, request.params.requestId, decision, new Date()) };
    },
  );

  app.post(
    "/api/admin/mentorship/:requestId/decline",
    { schema: { params: mentorshipParamsSchema, body: declineMentorshipSchema, response: { 200: mentorshipResponseSchema } } },
    async (request) => {
      const decision = { status: "declined" as const, note: request.body.note };
      return { request: await decideRequest(app.db, signedInUser(request).id, request.params.requestId, decision, new Date()) };
    },
  );
};

export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(learnerRoutes);
  await app.register(adminRoutes);
};
