// The programs and their lessons: as every visitor sees them, and as administrators edit them in
// the Programs tab (docs/data.md, "Content" and "Drafts").
import type { Feature, FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "./catalog.service.ts";
import { catalogAdminRoutes } from "./catalog-admin.routes.ts";
import { catalogRoutes } from "./catalog.routes.ts";

export function catalogFeature(deps: FeatureDeps & { catalog: CatalogCache }): Feature {
  return {
    routes: async (app) => {
      await app.register(catalogRoutes(deps));
      await app.register(deps.sessions.adminOnly(catalogAdminRoutes(deps)));
    },
  };
}
