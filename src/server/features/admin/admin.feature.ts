// The admin console's routes, every one behind the admin guard (admin.routes.ts).
import type { Feature, FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
import { adminRoutes } from "./admin.routes.ts";

export function adminFeature(deps: FeatureDeps & { catalog: CatalogCache }): Feature {
  return { routes: adminRoutes(deps) };
}
