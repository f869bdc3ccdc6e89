import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_RECORDS_ENDPOINTS } from "../../../shared/contracts/admin.ts";
import { unsentMail } from "../../emails/outbox.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { adminSummary, listAudit, listMessages, listWaitlist } from "./admin-records.service.ts";

export const adminRecordsRoutes = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  route(app, ADMIN_RECORDS_ENDPOINTS.summary, {}, async () => adminSummary(db));
  route(app, ADMIN_RECORDS_ENDPOINTS.waitlist, {}, async (request) => listWaitlist(db, request.query.page, request.query.cohort));
  route(app, ADMIN_RECORDS_ENDPOINTS.audit, {}, async (request) => listAudit(db, request.query));
  route(app, ADMIN_RECORDS_ENDPOINTS.messages, {}, async (request) => listMessages(db, request.query.page));
  route(app, ADMIN_RECORDS_ENDPOINTS.unsentMail, {}, async () => unsentMail(db));
};
