// What only development and tests serve: the local stand-ins for outside services and the
// development mailbox. The development entry (main.ts here) and the API tests hand it to buildApp;
// the production entry does not know it exists (docs/architecture.md, Entries).
import type { FastifyInstance } from "fastify";
import type { FeatureDeps } from "../src/server/feature.ts";
import { exchangeRateFake } from "./fakes/exchange-rate.ts";
import { devFakesRoutes } from "./fakes/fakes.routes.ts";
import { devMailRoutes } from "./mailbox/dev-mail.routes.ts";
import { devTimeTravelRoutes } from "./time-travel/time-travel.routes.ts";

export async function registerDevelopmentTools(app: FastifyInstance, { env, db }: FeatureDeps): Promise<void> {
  await app.register(
    devFakesRoutes,
    env.paystack.mode === "simulator"
      ? { paystack: { secretKey: env.paystack.secretKey, webhookUrl: `${env.appUrl}/api/paystack/webhook` } }
      : {},
  );
  await app.register(exchangeRateFake, { prefix: "/dev/fakes/exchange-rate" });
  await app.register(devMailRoutes({ db }));
  await app.register(devTimeTravelRoutes({ db }));
}
