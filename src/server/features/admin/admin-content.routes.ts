// The Programs tab: programs with their modules, and each program's quiz. The parent plugin has
// already required the admin plan.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminProgramListSchema,
  adminQuizSchema,
  createProgramSchema,
  okSchema,
  programFieldsSchema,
  programParamsSchema,
  programResponseSchema,
} from "../../../shared/contracts/admin.ts";
import { signedInUser } from "../../auth/session.ts";
import {
  createProgram,
  deleteProgram,
  getAdminQuiz,
  listAdminPrograms,
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
      program: await updateProgram(app.db, signedInUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    "/api/admin/programs/:id",
    { schema: { params: programParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await deleteProgram(app.db, signedInUser(request).id, request.params.id);
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
};
