// Announcements: the console's routes behind requireAdmin (every /api/admin route has that guard,
// wherever it is registered), and the learner's way out, which needs no session: the link's token
// says who it is (docs/admin.md, "Announcements").
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ANNOUNCEMENT_MESSAGES,
  announcementDraftSchema,
  announcementListSchema,
  announcementPageQuerySchema,
  announcementParamsSchema,
  announcementPreviewSchema,
  announcementResponseSchema,
  audienceOptionsSchema,
  deliveryFailureListSchema,
  oneClickQuerySchema,
  startAnnouncementSchema,
  unsubscribeRequestSchema,
  unsubscribeResponseSchema,
} from "../../../shared/contracts/announcements.ts";
import { requireAdmin, signedInUser } from "../../auth/session.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  audienceOptions,
  findAnnouncement,
  listAnnouncements,
  listFailures,
  previewAnnouncement,
  startAnnouncement,
  unsubscribe,
} from "./announcements.service.ts";

/** Where a mail program posts its one-click unsubscribe; the token is its authentication (app.ts exempts it from the same-origin check). */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/api/announcements/one-click-unsubscribe";

const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header("cache-control", "no-store");
};

const adminAnnouncementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);
  app.addHook("onSend", noStore);
  const mailSettings = { appUrl: app.env.appUrl, secret: app.env.authSecret };

  app.get(
    "/api/admin/announcements",
    { schema: { querystring: announcementPageQuerySchema, response: { 200: announcementListSchema } } },
    async (request) => listAnnouncements(app.db, request.query.page),
  );

  app.get("/api/admin/announcements/audiences", { schema: { response: { 200: audienceOptionsSchema } } }, async () => audienceOptions(app.db));

  app.post(
    "/api/admin/announcements/preview",
    { schema: { body: announcementDraftSchema, response: { 200: announcementPreviewSchema } } },
    async (request) => previewAnnouncement(app.db, signedInUser(request), request.body, mailSettings),
  );

  app.post(
    "/api/admin/announcements",
    { schema: { body: startAnnouncementSchema, response: { 200: announcementResponseSchema, 201: announcementResponseSchema } } },
    async (request, reply) => {
      const { announcement, started } = await startAnnouncement(app.db, request.body, signedInUser(request).id);
      // The job is queued with the announcement; start on it now rather than at the next poll.
      if (started) app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(started ? 201 : 200).send({ announcement });
    },
  );

  app.get(
    "/api/admin/announcements/:id",
    { schema: { params: announcementParamsSchema, response: { 200: announcementResponseSchema } } },
    async (request) => {
      const announcement = await findAnnouncement(app.db, request.params.id);
      if (!announcement) throw new HttpError(404, "NOT_FOUND", ANNOUNCEMENT_MESSAGES.notFound);
      return { announcement };
    },
  );

  app.get(
    "/api/admin/announcements/:id/failures",
    { schema: { params: announcementParamsSchema, querystring: announcementPageQuerySchema, response: { 200: deliveryFailureListSchema } } },
    async (request) => listFailures(app.db, request.params.id, request.query.page),
  );
};

const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  // RFC 8058: a mail program posts "List-Unsubscribe=One-Click" as a form, multipart or
  // urlencoded. Only the token in the address matters, so the body is read as text and left alone.
  // Registered in this plugin only: everywhere else the API takes JSON alone.
  for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
    app.addContentTypeParser(type, { parseAs: "string", bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  }

  app.post(
    "/api/announcements/unsubscribe",
    {
      schema: { body: unsubscribeRequestSchema, response: { 200: unsubscribeResponseSchema } },
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => {
      await unsubscribe(app.db, app.env.authSecret, request.body.token);
      return { ok: true as const, message: ANNOUNCEMENT_MESSAGES.unsubscribed };
    },
  );

  app.post(
    ONE_CLICK_UNSUBSCRIBE_PATH,
    {
      schema: { querystring: oneClickQuerySchema, response: { 200: unsubscribeResponseSchema } },
      // Mail providers post from a few shared addresses, for all their users: a looser limit.
      config: { rateLimit: { max: 300, timeWindow: "1 minute" } },
    },
    async (request) => {
      await unsubscribe(app.db, app.env.authSecret, request.query.token);
      return { ok: true as const, message: ANNOUNCEMENT_MESSAGES.unsubscribed };
    },
  );
};

export const announcementRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(adminAnnouncementRoutes);
  await app.register(unsubscribeRoutes);
};
