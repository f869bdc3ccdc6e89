import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CATALOG_ENDPOINTS } from "../../../shared/contracts/catalog.ts";
import type { CatalogCache } from "./catalog.service.ts";

export const catalogRoutes = ({ catalog }: { catalog: CatalogCache }): FastifyPluginAsyncZod => async (app) => {
  // The list is serialised once per catalog read (typed as ProgramList in loadCatalog), not on
  // every request: this is the page every visitor's first screen asks for. So it sends that text
  // itself, with no answer schema to serialise it again: registered here, at its declared path.
  app.get(CATALOG_ENDPOINTS.programs.path, { config: { answersJson: true } }, async (_request, reply) => {
    const { summariesJson } = await catalog.read();
    return reply.type("application/json; charset=utf-8").send(summariesJson);
  });
};
