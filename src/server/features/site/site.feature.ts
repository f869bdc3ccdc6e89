// The site's public settings: contact details, social links, the chat widget (docs/product.md).
import type { Feature, FeatureDeps } from "../../feature.ts";
import { siteRoutes } from "./site.routes.ts";

export function siteFeature(deps: FeatureDeps): Feature {
  return { routes: siteRoutes(deps) };
}
