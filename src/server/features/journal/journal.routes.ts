// The trading journal's routes, for a signed-in learner (docs/trading.md, "The journal"). No
// entry changes anything another cached read holds, so none of these forgets the learner's
// cached standing.
import type { FastifyError } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_JOURNAL_ENDPOINTS, JOURNAL_ENDPOINTS, JOURNAL_MESSAGES, JOURNAL_SCREENSHOT_MAX_BYTES } from "../../../shared/contracts/journal.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  commentOnEntry,
  createEntry,
  getScreenshot,
  journalCsv,
  journalStats,
  learnerJournal,
  listEntries,
  listSharedEntries,
  putScreenshot,
  readEntry,
  removeEntry,
  removeScreenshot,
  shareEntry,
  updateEntry,
} from "./journal.service.ts";

const OWN = { config: { forgetsItsOwnChanges: true as const } };

export const journalRoutes = ({ db, attachments, sessions }: Pick<FeatureDeps, "db" | "attachments" | "sessions">): FastifyPluginAsyncZod => async (app) => {
  app.addHook("onRequest", sessions.requireUser);

  route(app, JOURNAL_ENDPOINTS.list, {}, async (request) => listEntries(db, signedInUser(request).id, request.query.page));
  route(app, JOURNAL_ENDPOINTS.stats, {}, async (request) => journalStats(db, signedInUser(request).id));
  route(app, JOURNAL_ENDPOINTS.create, OWN, async (request) => ({ entry: await createEntry(db, signedInUser(request), request.body) }));
  route(app, JOURNAL_ENDPOINTS.read, {}, async (request) => ({ entry: await readEntry(db, signedInUser(request), request.params.id) }));
  route(app, JOURNAL_ENDPOINTS.update, OWN, async (request) => ({ entry: await updateEntry(db, signedInUser(request), request.params.id, request.body) }));
  route(app, JOURNAL_ENDPOINTS.remove, OWN, async (request) => {
    await removeEntry(db, attachments, signedInUser(request), request.params.id);
    return { removed: true as const };
  });
  route(app, JOURNAL_ENDPOINTS.share, OWN, async (request) => ({
    entry: await shareEntry(db, signedInUser(request), request.params.id, request.body.shared),
  }));
  route(app, JOURNAL_ENDPOINTS.removeScreenshot, OWN, async (request) => ({
    entry: await removeScreenshot(db, attachments, signedInUser(request), request.params.id),
  }));

  // A file or a redirect, not JSON. Private to its owner (and administrators): never kept by a
  // shared cache, and kept by the owner's browser under an address that changes with the image.
  const { screenshot } = JOURNAL_ENDPOINTS;
  app.get(screenshot.path, { schema: { params: screenshot.params } }, async (request, reply) => {
    const { contentType, delivery } = await getScreenshot(db, attachments, signedInUser(request), request.params.id);
    if ("redirectTo" in delivery) return reply.header("cache-control", "no-store").redirect(delivery.redirectTo, 302);
    return reply
      .header("content-type", contentType)
      .header("cache-control", "private, max-age=86400")
      .send(Buffer.from(delivery.bytes.buffer, delivery.bytes.byteOffset, delivery.bytes.byteLength));
  });

  app.get(JOURNAL_ENDPOINTS.csv.path, async (request, reply) =>
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="trading-journal.csv"')
      .header("cache-control", "private, no-store")
      .send(await journalCsv(db, signedInUser(request))),
  );

  await app.register(screenshotUpload({ db, attachments }));
};

/** The image is the request's body, up to 2 MB, which is answered in words. */
const screenshotUpload = ({ db, attachments }: Pick<FeatureDeps, "db" | "attachments">): FastifyPluginAsyncZod => async (app) => {
  app.addContentTypeParser(["application/octet-stream", "image/png", "image/jpeg", "image/webp"], { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw new HttpError(413, "SCREENSHOT_REFUSED", JOURNAL_MESSAGES.screenshotTooLarge);
    throw error;
  });
  const upload = JOURNAL_ENDPOINTS.putScreenshot;
  app.put(
    upload.path,
    { bodyLimit: JOURNAL_SCREENSHOT_MAX_BYTES, config: OWN.config, schema: { params: upload.params, response: { 200: upload.response } } },
    async (request) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : null;
      if (!bytes || bytes.length === 0) throw new HttpError(415, "SCREENSHOT_REFUSED", JOURNAL_MESSAGES.screenshotNotImage);
      return { entry: await putScreenshot(db, attachments, signedInUser(request), request.params.id, bytes) };
    },
  );
};

/** The mentor's side, behind adminOnly (journal.feature.ts): the entries shared, comments on them, and a learner's journal. */
export const journalAdminRoutes = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  route(app, ADMIN_JOURNAL_ENDPOINTS.shared, {}, async (request) => listSharedEntries(db, request.query.page));
  route(app, ADMIN_JOURNAL_ENDPOINTS.learner, {}, async (request) => learnerJournal(db, request.params.id, request.query.page));
  route(app, ADMIN_JOURNAL_ENDPOINTS.comment, {}, async (request) => ({
    entry: await commentOnEntry(db, signedInUser(request), request.params.id, request.body.body),
  }));
};
