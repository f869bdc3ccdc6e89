// The trading calculators at /tools: open to everyone, computed here (docs/trading.md, "Calculators").
import type { Feature, FeatureDeps } from "../../feature.ts";
import { toolsRoutes } from "./tools.routes.ts";

export function toolsFeature(deps: FeatureDeps): Feature {
  return { routes: toolsRoutes(deps) };
}
