import Big from "big.js";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { TOOLS_ENDPOINTS } from "../../../shared/contracts/tools.ts";
import { margin, pipValue, positionSize, riskReward, type Calculated } from "../../../shared/trading/calculators.ts";
import type { FeatureDeps } from "../../feature.ts";
import { currentRate, type ExchangeRate } from "../../integrations/exchange-rate.ts";
import { route } from "../../plugins/endpoints.ts";

// A calculation is cheap, but each may read the rate: a page of calculators typed into is a few
// requests a minute, far below this (per address, docs/trading.md).
const LIMIT = { config: { rateLimit: { max: 120, timeWindow: "1 minute" } } };

export const toolsRoutes = ({ db, env, log, metrics }: Pick<FeatureDeps, "db" | "env" | "log" | "metrics">): FastifyPluginAsyncZod => async (app) => {
  const rateNow = (): Promise<ExchangeRate | null> => currentRate({ db, url: env.exchangeRateUrl, log, metrics }, new Date());

  /** Runs a calculation at the academy's rate and answers with the rate it used. */
  async function atRate<T>(calculate: (ghsPerUsd: Big | null) => Calculated<T>) {
    const rate = await rateNow();
    const calculated = calculate(rate ? new Big(rate.ghsPerUsd) : null);
    return calculated.ok ? { ...calculated, rate } : calculated;
  }

  route(app, TOOLS_ENDPOINTS.positionSize, LIMIT, async ({ query }) => atRate((ghsPerUsd) => positionSize(query, ghsPerUsd)));
  route(app, TOOLS_ENDPOINTS.pipValue, LIMIT, async ({ query }) => atRate((ghsPerUsd) => pipValue(query, ghsPerUsd)));
  route(app, TOOLS_ENDPOINTS.margin, LIMIT, async ({ query }) => atRate((ghsPerUsd) => margin(query, ghsPerUsd)));
  // Risk to reward is in pips and a ratio: no money, no rate to read.
  route(app, TOOLS_ENDPOINTS.riskReward, LIMIT, async ({ query }) => {
    const calculated = riskReward(query);
    return calculated.ok ? { ...calculated, rate: null } : calculated;
  });
};
