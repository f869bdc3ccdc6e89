import * as z from "zod/mini";

const processFacts = {
  version: z.string(),
  uptimeSeconds: z.number(),
};

/** GET /api/health/live: the process answers (it does not ask the database). */
export const livenessSchema = z.object({ status: z.literal("ok"), ...processFacts });

/**
 * GET /api/health: ready to serve, which needs the database; and how each outside service is
 * provided. "degraded" is ready (200) with emails that the mail server has not taken yet: `mail`
 * says how many are failing (tried again later), present whenever the database answered.
 */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded", "unavailable"]),
  database: z.enum(["ok", "unreachable"]),
  mail: z.optional(z.object({ failing: z.number() })),
  ...processFacts,
  services: z.object({
    email: z.enum(["smtp", "development-mailbox", "missing"]),
    payments: z.enum(["paystack", "simulator", "missing"]),
    chat: z.enum(["configured", "missing"]),
    sms: z.enum(["hubtel", "development-mailbox", "missing"]),
  }),
});
