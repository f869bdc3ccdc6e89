// SMS settings on /account (docs/product.md, "SMS"), behind requireUser; the console's list of the
// SMS that have not gone through, behind requireAdmin.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { SMS_ENDPOINTS, SMS_MESSAGES } from "../../../shared/contracts/sms.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { confirmSmsCode, failingSmsMessages, removeSmsNumber, requestSmsCode, saveSmsPreferences, smsSettings } from "./sms.service.ts";

export const smsRoutes = ({ db, env, sessions: { requireUser, requireAdmin } }: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  await app.register(async (scope) => {
    scope.addHook("onRequest", requireUser);
    scope.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });
    const settingsOf = async (userId: string, message?: string) => ({ settings: await smsSettings(db, userId), message });
    const deps = { db, secret: env.authSecret };

    route(scope, SMS_ENDPOINTS.settings, {}, async (request) => settingsOf(signedInUser(request).id));

    route(scope, SMS_ENDPOINTS.sendCode, {}, async (request) => {
      const userId = signedInUser(request).id;
      const { message } = await requestSmsCode(deps, { userId, phone: request.body.phone, ip: request.ip, now: new Date() });
      return settingsOf(userId, message);
    });

    route(scope, SMS_ENDPOINTS.confirm, {}, async (request) => {
      const userId = signedInUser(request).id;
      const message = await confirmSmsCode(deps, { userId, code: request.body.code, now: new Date() });
      return settingsOf(userId, message);
    });

    route(scope, SMS_ENDPOINTS.savePreferences, {}, async (request) => {
      const userId = signedInUser(request).id;
      await saveSmsPreferences(db, userId, request.body);
      return settingsOf(userId, SMS_MESSAGES.preferencesSaved);
    });

    route(scope, SMS_ENDPOINTS.removeNumber, {}, async (request) => {
      const userId = signedInUser(request).id;
      await removeSmsNumber(db, userId);
      return settingsOf(userId, SMS_MESSAGES.removed);
    });
  });

  await app.register(async (scope) => {
    scope.addHook("onRequest", requireAdmin);
    route(scope, SMS_ENDPOINTS.failing, {}, async () => failingSmsMessages(db));
  });
};
