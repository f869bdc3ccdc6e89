// Announcements: the console's routes behind requireAdmin (every /api/admin route has that guard,
// wherever it is registered), and the learner's way out, which needs no session: the link's token
// says who it is (docs/admin.md, "Announcements").
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ANNOUNCEMENT_ENDPOINTS,
  ANNOUNCEMENT_MESSAGES,
  oneClickQuerySchema,
  unsubscribeResponseSchema,
} from "../../../shared/contracts/announcements.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
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

const adminAnnouncementRoutes = ({ db, env, jobs, sessions: { requireAdmin } }: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  app.addHook("onRequest", requireAdmin);
  app.addHook("onSend", noStore);
  const mailSettings = { appUrl: env.appUrl, secret: env.authSecret };

  route(app, ANNOUNCEMENT_ENDPOINTS.list, {}, async (request) => listAnnouncements(db, request.query.page));

  route(app, ANNOUNCEMENT_ENDPOINTS.audiences, {}, async () => audienceOptions(db));

  route(app, ANNOUNCEMENT_ENDPOINTS.preview, {}, async (request) => previewAnnouncement(db, signedInUser(request), request.body, mailSettings));

  // Its own registration: 201 when sending starts, 200 for a repeat of the same id.
  const start = ANNOUNCEMENT_ENDPOINTS.start;
  app.post(
    start.path,
    { schema: { body: start.body, response: { 200: start.response, 201: start.response } } },
    async (request, reply) => {
      const { announcement, started } = await startAnnouncement(db, request.body, signedInUser(request).id);
      // The job is queued with the announcement; start on it now rather than at the next poll.
      if (started) jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(started ? 201 : 200).send({ announcement });
    },
  );

  route(app, ANNOUNCEMENT_ENDPOINTS.announcement, {}, async (request) => {
    const announcement = await findAnnouncement(db, request.params.id);
    if (!announcement) throw new HttpError(404, "NOT_FOUND", ANNOUNCEMENT_MESSAGES.notFound);
    return { announcement };
  });

  route(app, ANNOUNCEMENT_ENDPOINTS.failures, {}, async (request) => listFailures(db, request.params.id, request.query.page));
};

const unsubscribeRoutes = ({ db, env }: Pick<FeatureDeps, "db" | "env">): FastifyPluginAsyncZod => async (app) => {
  // RFC 8058: a mail program posts "List-Unsubscribe=One-Click" as a form, multipart or
  // urlencoded. Only the token in the address matters, so the body is read as text and left alone.
  // Registered in this plugin only: everywhere else the API takes JSON alone.
  for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
    app.addContentTypeParser(type, { parseAs: "string", bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  }

  route(app, ANNOUNCEMENT_ENDPOINTS.unsubscribe, { config: { rateLimit: { max: 20, timeWindow: "10 minutes" } } }, async (request) => {
    await unsubscribe(db, env.authSecret, request.body.token);
    return { ok: true as const, message: ANNOUNCEMENT_MESSAGES.unsubscribed };
  });

  app.post(
    ONE_CLICK_UNSUBSCRIBE_PATH,
    {
      schema: { querystring: oneClickQuerySchema, response: { 200: unsubscribeResponseSchema } },
      // Mail providers post from a few shared addresses, for all their users: a looser limit.
      config: { rateLimit: { max: 300, timeWindow: "1 minute" } },
    },
    async (request) => {
      await unsubscribe(db, env.authSecret, request.query.token);
      return { ok: true as const, message: ANNOUNCEMENT_MESSAGES.unsubscribed };
    },
  );
};

export const announcementRoutes = (deps: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  await app.register(adminAnnouncementRoutes(deps));
  await app.register(unsubscribeRoutes(deps));
};
