// GET /api/health, for load balancers and the operator (docs/operations.md).
import type { Feature, FeatureDeps } from "../../feature.ts";
import { healthRoutes } from "./health.routes.ts";

export function healthFeature(deps: FeatureDeps): Feature {
  return { routes: healthRoutes(deps) };
}
