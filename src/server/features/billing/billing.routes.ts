import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import * as z from "zod/mini";
import { paymentParamsSchema, refundRequestSchema, refundResponseSchema } from "../../../shared/contracts/admin.ts";
import {
  autoRenewalRequestSchema,
  autoRenewalSchema,
  BILLING_MESSAGES,
  checkoutClosedSchema,
  checkoutSchema,
  eligibilitySchema,
  historyQuerySchema,
  paymentHistorySchema,
  pendingVerifiedSchema,
  pricesResponseSchema,
  receiptParamsSchema,
  receiptSchema,
  subscriptionRequestSchema,
  subscriptionQuoteSchema,
  subscriptionSchema,
  verifyResponseSchema,
  verifyWaitlistRequestSchema,
  waitlistCheckoutRequestSchema,
  waitlistStatusSchema,
} from "../../../shared/contracts/billing.ts";
import { requireAdmin, requireUser, signedInUser } from "../../auth/session.ts";
import { isValidWebhookSignature, refundWebhookEventSchema, webhookEventSchema } from "../../integrations/paystack.ts";
import { HttpError, sendError } from "../../plugins/errors.ts";
import { getAutoRenewal, setAutoRenewal } from "./billing-auto-renewal.ts";
import { startCheckout } from "./billing-checkout.ts";
import { creditPayment, verifyAndCredit, type CreditResult } from "./billing-crediting.ts";
import { paymentHistory, paymentReceipt } from "./billing-history.ts";
import { getPrices } from "./billing-pricing.ts";
import { quoteSubscription } from "./billing-quote.ts";
import { handleRefundEvent, refundPayment } from "./billing-refunds.ts";
import { checkoutClosed, verifyPendingPayments, type SettleDeps } from "./billing-settling.ts";
import { getWaitlistStatus } from "./billing-waitlist.ts";
import { eligibilityFor, getSubscription, type BillingDeps } from "./billing.service.ts";

function verified(result: Extract<CreditResult, { payment: unknown }>, message: string) {
  const { payment, periodEnd } = result;
  return {
    status: "success" as const,
    success: true as const,
    message,
    data: {
      reference: payment.reference,
      amount: payment.amountMinor,
      currency: payment.currency,
      plan: payment.plan,
      kind: payment.kind,
      currentPeriodEnd: payment.kind === "subscription" ? (periodEnd?.toISOString() ?? null) : null,
    },
  };
}

const paymentRateLimit = { rateLimit: { max: 20, timeWindow: "1 minute" } };
// Each view of /subscription asks up to five questions of this route (the subscription, and each
// paid plan's eligibility and quote): 60 a minute leaves room for a learner clicking about.
// Counted per learner, not per address (docs/product.md, "Timings and limits"): the page asks
// several questions as it opens, and learners on one mobile network share an address. The learner is known by then: the
// scope's requireUser runs before a route's own hooks.
const subscriptionRateLimit = {
  rateLimit: {
    max: 60,
    timeWindow: "1 minute",
    keyGenerator: (request: FastifyRequest) => (request.user ? `learner:${request.user.id}` : request.ip),
  },
};

/** A learner's or an admin's answers are theirs alone: never kept by a cache. */
async function noStore(_request: FastifyRequest, reply: FastifyReply) {
  reply.header("cache-control", "no-store");
}

export function billingRoutes(deps: BillingDeps): FastifyPluginAsyncZod {
  // The service logs with the request's logger: its lines carry the request id (docs/operations.md).
  const withLog = (request: FastifyRequest): BillingDeps => ({ ...deps, log: request.log });
  const settleDeps = (request: FastifyRequest): SettleDeps => {
    if (!deps.paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.serviceUnavailable);
    return { ...deps, paystack: deps.paystack, log: request.log };
  };
  return async (app) => {
    app.get("/api/prices", { schema: { response: { 200: pricesResponseSchema } } }, async (request) =>
      getPrices(withLog(request), new Date()),
    );

    await app.register(async (scope) => {
      const learner = scope.withTypeProvider<ZodTypeProvider>();
      learner.addHook("onRequest", requireUser);
      learner.addHook("onSend", noStore);

      learner.post(
        "/api/subscription-management",
        {
          schema: {
            body: subscriptionRequestSchema,
            response: { 200: z.union([eligibilitySchema, subscriptionSchema, checkoutSchema, subscriptionQuoteSchema]) },
          },
          config: subscriptionRateLimit,
        },
        async (request) => {
          const user = signedInUser(request);
          const now = new Date();
          const body = request.body;
          switch (body.action) {
            case "check_eligibility":
              return eligibilityFor(user, body.planId ?? null, now);
            case "get_subscription":
              return getSubscription(app.db, user, now);
            case "create_subscription":
              return startCheckout(withLog(request), user, { kind: "subscription", plan: body.planId }, now);
            case "quote_subscription":
              return quoteSubscription(withLog(request), user, body.planId, now);
          }
        },
      );

      // The same answer as the action get_subscription, as a GET: what the Subscription page
      // reads, so that the service worker can keep it for the page offline (docs/product.md, "Offline").
      learner.get(
        "/api/subscription",
        { schema: { response: { 200: subscriptionSchema } }, config: subscriptionRateLimit },
        async (request) => getSubscription(app.db, signedInUser(request), new Date()),
      );

      // Automatic renewal of a card payer's plan (docs/subscriptions.md, "Automatic renewal").
      learner.get(
        "/api/subscription/auto-renewal",
        { schema: { response: { 200: autoRenewalSchema } }, config: subscriptionRateLimit },
        async (request) => getAutoRenewal(withLog(request), signedInUser(request), new Date()),
      );
      learner.put(
        "/api/subscription/auto-renewal",
        { schema: { body: autoRenewalRequestSchema, response: { 200: autoRenewalSchema } }, config: paymentRateLimit },
        async (request) => setAutoRenewal(withLog(request), signedInUser(request), request.body.enabled, new Date()),
      );

      learner.get(
        "/api/verify-paystack",
        {
          schema: {
            querystring: z.object({ reference: z.string().check(z.minLength(1), z.maxLength(100)) }),
            response: { 200: verifyResponseSchema },
          },
          config: paymentRateLimit,
        },
        async (request) => {
          const result = await verifyAndCredit(withLog(request), signedInUser(request), request.query.reference, "subscription", new Date());
          return verified(result, BILLING_MESSAGES.verified);
        },
      );

      learner.post(
        "/api/verify-paystack",
        { schema: { body: verifyWaitlistRequestSchema, response: { 200: verifyResponseSchema } }, config: paymentRateLimit },
        async (request) => {
          const result = await verifyAndCredit(withLog(request), signedInUser(request), request.body.reference, "waitlist", new Date());
          return verified(result, BILLING_MESSAGES.waitlistVerified);
        },
      );

      learner.get("/api/waitlist", { schema: { response: { 200: waitlistStatusSchema } } }, async (request) =>
        getWaitlistStatus(app.db, signedInUser(request), new Date()),
      );

      learner.post(
        "/api/waitlist/checkout",
        { schema: { body: waitlistCheckoutRequestSchema, response: { 200: checkoutSchema } }, config: paymentRateLimit },
        async (request) => startCheckout(withLog(request), signedInUser(request), { kind: "waitlist", plan: request.body.plan }, new Date()),
      );

      // The checkout ended, or the learner came back: the server asks Paystack itself
      // (docs/subscriptions.md, "Asking Paystack"). The browser says when, never what happened.
      learner.post(
        "/api/payments/:reference/closed",
        { schema: { params: receiptParamsSchema, response: { 200: checkoutClosedSchema } }, config: paymentRateLimit },
        async (request) => {
          const result = await checkoutClosed(settleDeps(request), signedInUser(request), request.params.reference, new Date());
          if (result.status === "success") app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
          return result;
        },
      );

      learner.post(
        "/api/payments/pending/verify",
        { schema: { response: { 200: pendingVerifiedSchema } }, config: subscriptionRateLimit },
        async (request) => {
          // Without Paystack nothing can have been paid since.
          if (!deps.paystack) return { settled: [] };
          const result = await verifyPendingPayments(settleDeps(request), signedInUser(request), new Date());
          if (result.settled.some((payment) => payment.status === "success")) {
            app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
          }
          return result;
        },
      );

      // The learner's own payments and receipts (docs/product.md, "Subscription page").
      learner.get(
        "/api/payments",
        { schema: { querystring: historyQuerySchema, response: { 200: paymentHistorySchema } } },
        async (request) => paymentHistory(app.db, signedInUser(request), request.query.page),
      );

      learner.get(
        "/api/payments/:reference",
        { schema: { params: receiptParamsSchema, response: { 200: receiptSchema } } },
        async (request) => paymentReceipt(app.db, app.env.business, signedInUser(request), request.params.reference),
      );
    });

    // An administrator's refund (docs/subscriptions.md, "Refunds"). Under /api/admin, behind the
    // same admin guard as the console's other routes, but here: it is billing's to move money.
    await app.register(async (scope) => {
      const admin = scope.withTypeProvider<ZodTypeProvider>();
      admin.addHook("onRequest", requireAdmin);
      admin.addHook("onSend", noStore);
      admin.post(
        "/api/admin/payments/:id/refund",
        {
          schema: { params: paymentParamsSchema, body: refundRequestSchema, response: { 200: refundResponseSchema } },
          config: paymentRateLimit,
        },
        async (request) => {
          const { payment, refund } = await refundPayment(
            withLog(request),
            { paymentId: request.params.id, ...request.body, actorId: signedInUser(request).id },
            new Date(),
          );
          app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
          return {
            payment: { id: payment.id, amountMinor: payment.amountMinor, refundedMinor: payment.refundedMinor, status: payment.status },
            refund: { id: refund.id, amountMinor: refund.amountMinor, status: refund.status },
          };
        },
      );
    });

    await app.register(paystackWebhook(deps));
  };
}

/**
 * POST /api/paystack/webhook: the signature is checked on the raw bytes before anything is
 * parsed; charge.success goes through the same crediting as a verify call, and the refund events
 * through billing-refunds.ts. Paystack retries
 * until it gets a 2xx, and repeats are harmless (the reference is credited once).
 */
function paystackWebhook(deps: BillingDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    app.post("/api/paystack/webhook", async (request, reply) => {
      const raw = request.body;
      const secretKey = deps.env.paystack.mode === "disabled" ? null : deps.env.paystack.secretKey;
      const signature = request.headers["x-paystack-signature"];
      if (
        !secretKey ||
        !Buffer.isBuffer(raw) ||
        !isValidWebhookSignature(raw, typeof signature === "string" ? signature : undefined, secretKey)
      ) {
        return sendError(reply, 401, "INVALID_SIGNATURE", "Invalid webhook signature.");
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch {
        return sendError(reply, 400, "VALIDATION", "The request body is not valid JSON.");
      }
      const refund = refundWebhookEventSchema.safeParse(json);
      if (refund.success) {
        const outcome = await handleRefundEvent(deps, refund.data, new Date());
        if (outcome === "counted") app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
        return reply.code(200).send({ received: true });
      }
      const event = webhookEventSchema.safeParse(json);
      if (!event.success || event.data.event !== "charge.success") return reply.code(200).send({ received: true });
      const result = await creditPayment(deps, event.data.data, new Date());
      if (result.outcome === "mismatch") {
        request.log.error({ reference: event.data.data.reference }, "webhook payment does not match the stored payment");
      }
      if (result.outcome === "credited") app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(200).send({ received: true });
    });
  };
}
