import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { programListSchema } from "../../../shared/contracts/catalog.ts";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/programs",
    { schema: { response: { 200: programListSchema } } },
    async () => ({ programs: await app.programs.list() }),
  );
};
