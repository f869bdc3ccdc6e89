// What only development and tests serve: the local stand-ins for outside services and the
// development mailbox. app.ts imports this module only outside production, so a production
// process never loads it (docs/operations.md, Production).
import type { FastifyInstance } from "fastify";
import { exchangeRateFake } from "../../dev/fakes/exchange-rate.ts";
import { devFakesRoutes } from "../../dev/fakes/fakes.routes.ts";
import { devMailRoutes } from "./features/dev-mail/dev-mail.routes.ts";

export async function registerDevelopmentTools(app: FastifyInstance): Promise<void> {
  const { env } = app;
  await app.register(
    devFakesRoutes,
    env.paystack.mode === "simulator"
      ? { paystack: { secretKey: env.paystack.secretKey, webhookUrl: `${env.appUrl}/api/paystack/webhook` } }
      : {},
  );
  await app.register(exchangeRateFake, { prefix: "/dev/fakes/exchange-rate" });
  await app.register(devMailRoutes);
}
