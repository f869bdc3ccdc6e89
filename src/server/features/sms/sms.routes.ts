// SMS settings on /account (docs/product.md, "SMS"), behind requireUser; the console's list of the
// SMS that have not gone through, behind requireAdmin.
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import {
  failingSmsSchema,
  SMS_MESSAGES,
  smsConfirmRequestSchema,
  smsPhoneRequestSchema,
  smsPreferencesSchema,
  smsSettingsResponseSchema,
} from "../../../shared/contracts/sms.ts";
import { requireAdmin, requireUser, signedInUser } from "../../auth/session.ts";
import { confirmSmsCode, failingSmsMessages, removeSmsNumber, requestSmsCode, saveSmsPreferences, smsSettings } from "./sms.service.ts";

export const smsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.addHook("onRequest", requireUser);
    scope.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });
    const settingsOf = async (userId: string, message?: string) => ({ settings: await smsSettings(app.db, userId), message });
    const deps = { db: app.db, secret: app.env.authSecret };

    scope.get("/api/accounts/sms", { schema: { response: { 200: smsSettingsResponseSchema } } }, async (request) =>
      settingsOf(signedInUser(request).id),
    );

    scope.post(
      "/api/accounts/sms/number",
      { schema: { body: smsPhoneRequestSchema, response: { 200: smsSettingsResponseSchema } } },
      async (request) => {
        const userId = signedInUser(request).id;
        const { message } = await requestSmsCode(deps, { userId, phone: request.body.phone, ip: request.ip, now: new Date() });
        return settingsOf(userId, message);
      },
    );

    scope.post(
      "/api/accounts/sms/confirm",
      { schema: { body: smsConfirmRequestSchema, response: { 200: smsSettingsResponseSchema } } },
      async (request) => {
        const userId = signedInUser(request).id;
        const message = await confirmSmsCode(deps, { userId, code: request.body.code, now: new Date() });
        return settingsOf(userId, message);
      },
    );

    scope.put(
      "/api/accounts/sms/preferences",
      { schema: { body: smsPreferencesSchema, response: { 200: smsSettingsResponseSchema } } },
      async (request) => {
        const userId = signedInUser(request).id;
        await saveSmsPreferences(app.db, userId, request.body);
        return settingsOf(userId, SMS_MESSAGES.preferencesSaved);
      },
    );

    scope.delete("/api/accounts/sms/number", { schema: { response: { 200: smsSettingsResponseSchema } } }, async (request) => {
      const userId = signedInUser(request).id;
      await removeSmsNumber(app.db, userId);
      return settingsOf(userId, SMS_MESSAGES.removed);
    });
  });

  await app.register(async (scope) => {
    scope.addHook("onRequest", requireAdmin);
    scope.get("/api/admin/sms/failing", { schema: { response: { 200: failingSmsSchema } } }, async () => failingSmsMessages(app.db));
  });
};
