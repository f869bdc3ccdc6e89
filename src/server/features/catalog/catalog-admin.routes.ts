// The Programs tab: programs with their modules, and each program's quiz. Behind adminOnly (catalog.feature.ts):
// the admin plan is required for every request.
import type { FastifyError } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from "../../../shared/contracts/learning.ts";
import { HttpError } from "../../plugins/errors.ts";
import { ADMIN_PROGRAMS_ENDPOINTS } from "../../../shared/contracts/admin.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "./catalog.service.ts";
import { route } from "../../plugins/endpoints.ts";
import {
  addAttachment,
  archiveProgram,
  createProgram,
  publishProgram,
  publishSummary,
  deleteProgram,
  getAdminQuiz,
  listAdminPrograms,
  removeAttachment,
  saveQuiz,
  updateProgram,
} from "./catalog-admin.service.ts";

export const catalogAdminRoutes = (deps: Pick<FeatureDeps, "db" | "attachments"> & { catalog: CatalogCache }): FastifyPluginAsyncZod => async (app) => {
  const { db, catalog, attachments } = deps;
  // Before the answer leaves: whoever reads the program list next on this instance sees the change
  // (the other instances hear of it from the change's own transaction: catalog-changes.ts).
  app.addHook("onSend", async (request, reply) => {
    if (request.method !== "GET" && reply.statusCode < 400) catalog.invalidate();
  });

  route(app, ADMIN_PROGRAMS_ENDPOINTS.list, {}, async () => ({
    programs: await listAdminPrograms(db),
  }));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.create, {}, async (request) => ({
    program: await createProgram(db, signedInUser(request).id, request.body),
  }));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.update, {}, async (request) => ({
    program: await updateProgram(db, attachments, signedInUser(request).id, request.params.id, request.body),
  }));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.publishSummary, {}, async (request) => publishSummary(db, request.params.id));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.publish, {}, async (request) => ({
    program: await publishProgram(db, signedInUser(request).id, request.params.id),
  }));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.archive, {}, async (request) => ({
    program: await archiveProgram(db, signedInUser(request).id, request.params.id, request.body.archived),
  }));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.remove, {}, async (request) => {
    await deleteProgram(db, attachments, signedInUser(request).id, request.params.id);
    return { ok: true as const };
  });

  route(app, ADMIN_PROGRAMS_ENDPOINTS.quiz, {}, async (request) => getAdminQuiz(db, request.params.id));

  route(app, ADMIN_PROGRAMS_ENDPOINTS.saveQuiz, {}, async (request) => saveQuiz(db, signedInUser(request).id, request.params.id, request.body));

  await app.register(attachmentRoutes({ db, attachments }));
};

/**
 * A lesson's files (docs/product.md, "Attachments"): uploaded as the request's body itself, up to
 * the limit, with the file's name in the query; the limit is answered in words, and nothing is
 * kept of a body refused.
 */
const attachmentRoutes = ({ db, attachments }: Pick<FeatureDeps, "db" | "attachments">): FastifyPluginAsyncZod => async (app) => {
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError, _request, _reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw new HttpError(413, "ATTACHMENT_REFUSED", ATTACHMENT_MESSAGES.tooLarge);
    throw error;
  });

  // Registered on its own: route() types a JSON body, and this one is the file's bytes.
  const upload = ADMIN_PROGRAMS_ENDPOINTS.addAttachment;
  app.post(
    upload.path,
    {
      bodyLimit: ATTACHMENT_MAX_BYTES,
      schema: { params: upload.params, querystring: upload.query, response: { [upload.status]: upload.response } },
    },
    async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : null;
      if (!bytes) throw new HttpError(415, "ATTACHMENT_REFUSED", ATTACHMENT_MESSAGES.notAllowed);
      const target = { programId: request.params.id, moduleId: request.params.moduleId };
      const upload = { fileName: request.query.name, bytes };
      const program = await addAttachment(db, attachments, signedInUser(request).id, target, upload);
      return reply.code(201).send({ program });
    },
  );

  route(app, ADMIN_PROGRAMS_ENDPOINTS.removeAttachment, {}, async (request) => {
    const { id: programId, moduleId, attachmentId } = request.params;
    return { program: await removeAttachment(db, attachments, signedInUser(request).id, { programId, moduleId, attachmentId }) };
  });
};
