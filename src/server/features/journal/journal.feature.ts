// The trading journal (docs/trading.md, "The journal"): a learner's own trades and their figures.
import type { Feature, FeatureDeps } from "../../feature.ts";
import { journalRoutes } from "./journal.routes.ts";

export function journalFeature(deps: FeatureDeps): Feature {
  return { routes: journalRoutes(deps) };
}
