// Practice on the academy's own price data (docs/trading.md): the data sets administrators upload.
import type { Feature, FeatureDeps } from "../../feature.ts";
import { priceDataRoutes } from "./price-data.routes.ts";

export function exercisesFeature(deps: FeatureDeps): Feature {
  return { routes: async (app) => app.register(deps.sessions.adminOnly(priceDataRoutes(deps))) };
}
