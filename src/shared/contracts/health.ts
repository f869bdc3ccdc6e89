import * as z from "zod/mini";

const processFacts = {
  version: z.string(),
  uptimeSeconds: z.number(),
};

/** GET /api/health/live: the process answers (it does not ask the database). */
export const livenessSchema = z.object({ status: z.literal("ok"), ...processFacts });

/** GET /api/health: ready to serve, which needs the database; and how each outside service is provided. */
export const healthSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["ok", "unreachable"]),
  ...processFacts,
  services: z.object({
    email: z.enum(["smtp", "development-mailbox", "missing"]),
    payments: z.enum(["paystack", "simulator", "missing"]),
    chat: z.enum(["configured", "missing"]),
    sms: z.enum(["hubtel", "development-mailbox", "missing"]),
  }),
});
