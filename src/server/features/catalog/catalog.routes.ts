import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  // The list is serialised once per catalog read (typed as ProgramList in loadCatalog), not on
  // every request: this is the page every visitor's first screen asks for.
  app.get("/api/programs", async (_request, reply) => {
    const { summariesJson } = await app.catalog.read();
    return reply.type("application/json; charset=utf-8").send(summariesJson);
  });
};
