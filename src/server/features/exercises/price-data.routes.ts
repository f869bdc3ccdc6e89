// The Price Data tab: data sets uploaded, listed, previewed and removed. Behind adminOnly
// (exercises.feature.ts): the admin plan is required for every request (docs/trading.md, "Price data").
import type { FastifyError } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { PRICE_DATA_ENDPOINTS, PRICE_DATA_MAX_BYTES, PRICE_DATA_MESSAGES } from "../../../shared/contracts/price-data.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { HttpError } from "../../plugins/errors.ts";
import { listPriceData, readPriceBars, removePriceData, uploadPriceData } from "./price-data.service.ts";

export const priceDataRoutes = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  route(app, PRICE_DATA_ENDPOINTS.list, {}, async ({ query }) => listPriceData(db, query.page));

  route(app, PRICE_DATA_ENDPOINTS.bars, {}, async ({ params, query }) => readPriceBars(db, params.id, query.from, query.count));

  route(app, PRICE_DATA_ENDPOINTS.remove, {}, async (request) => {
    await removePriceData(db, signedInUser(request).id, request.params.id);
    return { removed: true as const };
  });

  await app.register(uploadRoute({ db }));
};

/** The file is the request's body, up to the limit, which is answered in words. */
const uploadRoute = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  app.addContentTypeParser(["application/octet-stream", "text/csv", "text/plain", "text/tab-separated-values"], { parseAs: "buffer" }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw new HttpError(413, "PRICE_DATA_REFUSED", PRICE_DATA_MESSAGES.tooLarge);
    throw error;
  });

  // Registered on its own: route() types a JSON body, and this one is the file's bytes.
  const upload = PRICE_DATA_ENDPOINTS.upload;
  app.post(
    upload.path,
    { bodyLimit: PRICE_DATA_MAX_BYTES, schema: { querystring: upload.query, response: { [upload.status]: upload.response } } },
    async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : null;
      if (!bytes || bytes.length === 0) throw new HttpError(400, "PRICE_DATA_REFUSED", "The file is empty.");
      const dataSet = await uploadPriceData(db, signedInUser(request).id, request.query, bytes);
      return reply.code(201).send({ dataSet });
    },
  );
};
