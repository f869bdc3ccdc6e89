import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminSummarySchema,
  auditListSchema,
  auditQuerySchema,
  messageListSchema,
  pageQuerySchema,
  paymentListSchema,
  paymentsQuerySchema,
  waitlistListSchema,
  waitlistQuerySchema,
} from "../../../shared/contracts/admin.ts";
import { adminSummary, listAudit, listMessages, listPayments, listWaitlist } from "./admin-records.service.ts";

export const adminRecordsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/api/admin/summary", { schema: { response: { 200: adminSummarySchema } } }, async () => adminSummary(app.db));

  app.get(
    "/api/admin/waitlist",
    { schema: { querystring: waitlistQuerySchema, response: { 200: waitlistListSchema } } },
    async (request) => listWaitlist(app.db, request.query.page, request.query.cohort),
  );

  app.get(
    "/api/admin/payments",
    { schema: { querystring: paymentsQuerySchema, response: { 200: paymentListSchema } } },
    async (request) => listPayments(app.db, request.query),
  );

  app.get(
    "/api/admin/audit",
    { schema: { querystring: auditQuerySchema, response: { 200: auditListSchema } } },
    async (request) => listAudit(app.db, request.query),
  );

  app.get(
    "/api/admin/messages",
    { schema: { querystring: pageQuerySchema, response: { 200: messageListSchema } } },
    async (request) => listMessages(app.db, request.query.page),
  );
};
