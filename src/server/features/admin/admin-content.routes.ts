// The Programs tab: programs with their modules, and each program's quiz. The parent plugin has
// already required the admin plan.
import type { FastifyError } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from "../../../shared/contracts/learning.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  adminProgramListSchema,
  attachmentDeleteParamsSchema,
  attachmentUploadQuerySchema,
  moduleAttachmentsParamsSchema,
  adminQuizSchema,
  archiveProgramSchema,
  createProgramSchema,
  publishSummarySchema,
  okSchema,
  programFieldsSchema,
  programParamsSchema,
  programResponseSchema,
} from "../../../shared/contracts/admin.ts";
import { signedInUser } from "../../auth/session.ts";
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
} from "./admin-content.service.ts";

export const adminContentRoutes: FastifyPluginAsyncZod = async (app) => {
  // Before the answer leaves: whoever reads the program list next on this instance sees the change
  // (the other instances hear of it from the change's own transaction: catalog-changes.ts).
  app.addHook("onSend", async (request, reply) => {
    if (request.method !== "GET" && reply.statusCode < 400) app.catalog.invalidate();
  });

  app.get("/api/admin/programs", { schema: { response: { 200: adminProgramListSchema } } }, async () => ({
    programs: await listAdminPrograms(app.db),
  }));

  app.post(
    "/api/admin/programs",
    { schema: { body: createProgramSchema, response: { 201: programResponseSchema } } },
    async (request, reply) => {
      const program = await createProgram(app.db, signedInUser(request).id, request.body);
      return reply.code(201).send({ program });
    },
  );

  app.put(
    "/api/admin/programs/:id",
    { schema: { params: programParamsSchema, body: programFieldsSchema, response: { 200: programResponseSchema } } },
    async (request) => ({
      program: await updateProgram(app.db, app.attachments, signedInUser(request).id, request.params.id, request.body),
    }),
  );

  app.get(
    "/api/admin/programs/:id/publish",
    { schema: { params: programParamsSchema, response: { 200: publishSummarySchema } } },
    async (request) => publishSummary(app.db, request.params.id),
  );

  app.post(
    "/api/admin/programs/:id/publish",
    { schema: { params: programParamsSchema, response: { 200: programResponseSchema } } },
    async (request) => ({ program: await publishProgram(app.db, signedInUser(request).id, request.params.id) }),
  );

  app.post(
    "/api/admin/programs/:id/archive",
    { schema: { params: programParamsSchema, body: archiveProgramSchema, response: { 200: programResponseSchema } } },
    async (request) => ({
      program: await archiveProgram(app.db, signedInUser(request).id, request.params.id, request.body.archived),
    }),
  );

  app.delete(
    "/api/admin/programs/:id",
    { schema: { params: programParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await deleteProgram(app.db, app.attachments, signedInUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/programs/:id/quiz",
    { schema: { params: programParamsSchema, response: { 200: adminQuizSchema } } },
    async (request) => getAdminQuiz(app.db, request.params.id),
  );

  app.put(
    "/api/admin/programs/:id/quiz",
    { schema: { params: programParamsSchema, body: adminQuizSchema, response: { 200: adminQuizSchema } } },
    async (request) => saveQuiz(app.db, signedInUser(request).id, request.params.id, request.body),
  );

  await app.register(attachmentRoutes);
};

/**
 * A lesson's files (docs/product.md, "Attachments"): uploaded as the request's body itself, up to
 * the limit, with the file's name in the query; the limit is answered in words, and nothing is
 * kept of a body refused.
 */
const attachmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError, _request, _reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw new HttpError(413, "ATTACHMENT_REFUSED", ATTACHMENT_MESSAGES.tooLarge);
    throw error;
  });

  app.post(
    "/api/admin/programs/:id/modules/:moduleId/attachments",
    {
      bodyLimit: ATTACHMENT_MAX_BYTES,
      schema: { params: moduleAttachmentsParamsSchema, querystring: attachmentUploadQuerySchema, response: { 201: programResponseSchema } },
    },
    async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : null;
      if (!bytes) throw new HttpError(415, "ATTACHMENT_REFUSED", ATTACHMENT_MESSAGES.notAllowed);
      const target = { programId: request.params.id, moduleId: request.params.moduleId };
      const upload = { fileName: request.query.name, bytes };
      const program = await addAttachment(app.db, app.attachments, signedInUser(request).id, target, upload);
      return reply.code(201).send({ program });
    },
  );

  app.delete(
    "/api/admin/programs/:id/modules/:moduleId/attachments/:attachmentId",
    { schema: { params: attachmentDeleteParamsSchema, response: { 200: programResponseSchema } } },
    async (request) => {
      const { id: programId, moduleId, attachmentId } = request.params;
      return { program: await removeAttachment(app.db, app.attachments, signedInUser(request).id, { programId, moduleId, attachmentId }) };
    },
  );
};
