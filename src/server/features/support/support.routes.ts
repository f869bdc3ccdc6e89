// Lesson questions and mentorship (SUPPORT_ENDPOINTS): the learner's routes behind requireUser,
// the console's behind adminOnly (every /api/admin route has that guard, wherever it is registered).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RECORDS_PAGE_SIZE } from "../../../shared/contracts/admin.ts";
import { SUPPORT_ENDPOINTS } from "../../../shared/contracts/support.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
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

/** What support reads besides the platform: the published catalogue, to name lessons. */
type SupportDeps = FeatureDeps & { catalog: CatalogCache };

const learnerRoutes = ({ db, catalog, sessions: { requireUser } }: SupportDeps): FastifyPluginAsyncZod => async (app) => {
  app.addHook("onRequest", requireUser);
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  // The seconds until the next post is allowed, as the quiz's limit says them.
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof TooManyPosts) reply.header("retry-after", String(error.retryAfterSeconds));
    throw error;
  });

  route(app, SUPPORT_ENDPOINTS.questions, {}, async (request) =>
    listQuestions(db, await catalog.read(), signedInUser(request), request.params, request.query.page),
  );

  route(app, SUPPORT_ENDPOINTS.ask, {}, async (request) => {
    return { question: await askQuestion(db, await catalog.read(), signedInUser(request), request.params, request.body.body, new Date()) };
  });

  route(app, SUPPORT_ENDPOINTS.answer, {}, async (request) => ({
    answer: await answerQuestion(db, signedInUser(request), request.params.questionId, request.body.body, new Date()),
  }));

  route(app, SUPPORT_ENDPOINTS.mentorship, {}, async (request) => listOwnRequests(db, signedInUser(request)));

  route(app, SUPPORT_ENDPOINTS.requestSession, {}, async (request) => ({
    request: await requestSession(db, signedInUser(request), request.body, new Date()),
  }));

  route(app, SUPPORT_ENDPOINTS.cancelSession, {}, async (request) => ({
    request: await cancelRequest(db, signedInUser(request), request.params.requestId),
  }));
};

const adminRoutes = ({ db }: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  route(app, SUPPORT_ENDPOINTS.adminQuestions, {}, async (request) =>
    listAdminQuestions(db, signedInUser(request).id, request.query.page, RECORDS_PAGE_SIZE),
  );

  route(app, SUPPORT_ENDPOINTS.pin, {}, async (request) => {
    await setPinned(db, request.params.questionId, request.body.pinned, new Date());
    return { ok: true as const };
  });

  route(app, SUPPORT_ENDPOINTS.removeQuestion, {}, async (request) => {
    await removePost(db, signedInUser(request).id, { questionId: request.params.questionId });
    return { ok: true as const };
  });

  route(app, SUPPORT_ENDPOINTS.removeAnswer, {}, async (request) => {
    await removePost(db, signedInUser(request).id, { answerId: request.params.answerId });
    return { ok: true as const };
  });

  route(app, SUPPORT_ENDPOINTS.adminMentorship, {}, async (request) => listAdminRequests(db, request.query.page, RECORDS_PAGE_SIZE));

  route(app, SUPPORT_ENDPOINTS.confirmSession, {}, async (request) => {
    const { scheduledAt, note } = request.body;
    const decision = { status: "confirmed" as const, scheduledAt, note };
    return { request: await decideRequest(db, signedInUser(request).id, request.params.requestId, decision, new Date()) };
  });

  route(app, SUPPORT_ENDPOINTS.declineSession, {}, async (request) => {
    const decision = { status: "declined" as const, note: request.body.note };
    return { request: await decideRequest(db, signedInUser(request).id, request.params.requestId, decision, new Date()) };
  });
};

export const supportRoutes = (deps: SupportDeps): FastifyPluginAsyncZod => async (app) => {
  await app.register(learnerRoutes(deps));
  await app.register(deps.sessions.adminOnly(adminRoutes(deps)));
};
