// A stand-in for the open exchange-rate API (same JSON), used with the payment simulator so the
// product can be tried offline. The rate is fixed and is not a market quote.
import type { FastifyPluginAsync } from "fastify";

export const SIMULATED_GHS_PER_USD = 15.45;

export const exchangeRateFake: FastifyPluginAsync = async (app) => {
  app.get("/v6/latest/USD", async () => {
    const now = Math.floor(Date.now() / 1000);
    return {
      result: "success",
      provider: "Trading Academy development stand-in",
      base_code: "USD",
      time_last_update_unix: now,
      time_next_update_unix: now + 86_400,
      rates: { USD: 1, GHS: SIMULATED_GHS_PER_USD },
    };
  });
};
