import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import * as z from "zod/mini";
import { ADMIN_PAYMENTS_ENDPOINTS } from "../../../shared/contracts/admin.ts";
import { BILLING_ENDPOINTS, BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { chargeSuccessEventSchema, isValidWebhookSignature, refundWebhookEventSchema } from "../../integrations/paystack.ts";
import { route } from "../../plugins/endpoints.ts";
import { HttpError, sendError } from "../../plugins/errors.ts";
import { listPayments } from "./billing-admin-payments.ts";
import { getAutoRenewal, setAutoRenewal } from "./billing-auto-renewal.ts";
import { startCheckout } from "./billing-checkout.ts";
import { verifyAndCredit, type CreditResult } from "./billing-crediting.ts";
import { paymentHistory, paymentReceipt } from "./billing-history.ts";
import { getPrices } from "./billing-pricing.ts";
import { quoteSubscription } from "./billing-quote.ts";
import { handleRefundEvent, refundPayment } from "./billing-refunds.ts";
import { checkoutClosed, settleNamedByWebhook, verifyPendingPayments, type SettleDeps } from "./billing-settling.ts";
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

export function billingRoutes(deps: BillingDeps & Pick<FeatureDeps, "jobs" | "sessions">): FastifyPluginAsyncZod {
  const { db, env, jobs, sessions: { requireUser, adminOnly } } = deps;
  // The service logs with the request's logger: its lines carry the request id (docs/operations.md).
  const withLog = (request: FastifyRequest): BillingDeps => ({ ...deps, log: request.log });
  const settleDeps = (request: FastifyRequest): SettleDeps => {
    if (!deps.paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.serviceUnavailable);
    return { ...deps, paystack: deps.paystack, log: request.log };
  };
  return async (app) => {
    route(app, BILLING_ENDPOINTS.prices, {}, async (request) => getPrices(withLog(request), new Date()));

    await app.register(async (scope) => {
      const learner = scope.withTypeProvider<ZodTypeProvider>();
      learner.addHook("onRequest", requireUser);
      learner.addHook("onSend", noStore);

      // One address for the four actions declared in BILLING_ENDPOINTS (checkEligibility,
      // getSubscription, createSubscription, quoteSubscription): the body says which, and the
      // answer is that action's.
      const { checkEligibility: eligibility, getSubscription: current, createSubscription: checkout, quoteSubscription: quote } = BILLING_ENDPOINTS;
      learner.post(
        eligibility.path,
        {
          schema: {
            body: z.discriminatedUnion("action", [eligibility.body, current.body, checkout.body, quote.body]),
            response: { 200: z.union([eligibility.response, current.response, checkout.response, quote.response]) },
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
              return getSubscription(db, user, now);
            case "create_subscription":
              return startCheckout(withLog(request), user, { kind: "subscription", plan: body.planId }, now);
            case "quote_subscription":
              return quoteSubscription(withLog(request), user, body.planId, now);
          }
        },
      );

      // The same answer as the action get_subscription, as a GET: what the Subscription page
      // reads, so that the service worker can keep it for the page offline (docs/product.md, "Offline").
      route(learner, BILLING_ENDPOINTS.subscription, { config: subscriptionRateLimit }, async (request) =>
        getSubscription(db, signedInUser(request), new Date()),
      );

      // Automatic renewal of a card payer's plan (docs/subscriptions.md, "Automatic renewal").
      route(learner, BILLING_ENDPOINTS.autoRenewal, { config: subscriptionRateLimit }, async (request) =>
        getAutoRenewal(withLog(request), signedInUser(request), new Date()),
      );
      route(learner, BILLING_ENDPOINTS.setAutoRenewal, { config: paymentRateLimit }, async (request) =>
        setAutoRenewal(withLog(request), signedInUser(request), request.body.enabled, new Date()),
      );

      route(learner, BILLING_ENDPOINTS.verifySubscription, { config: paymentRateLimit }, async (request) => {
        const result = await verifyAndCredit(withLog(request), signedInUser(request), request.query.reference, "subscription", new Date());
        return verified(result, BILLING_MESSAGES.verified);
      });

      route(learner, BILLING_ENDPOINTS.verifyWaitlist, { config: paymentRateLimit }, async (request) => {
        const result = await verifyAndCredit(withLog(request), signedInUser(request), request.body.reference, "waitlist", new Date());
        return verified(result, BILLING_MESSAGES.waitlistVerified);
      });

      route(learner, BILLING_ENDPOINTS.waitlist, {}, async (request) => getWaitlistStatus(db, signedInUser(request), new Date()));

      route(learner, BILLING_ENDPOINTS.waitlistCheckout, { config: paymentRateLimit }, async (request) =>
        startCheckout(withLog(request), signedInUser(request), { kind: "waitlist", plan: request.body.plan }, new Date()),
      );

      // The checkout ended, or the learner came back: the server asks Paystack itself
      // (docs/subscriptions.md, "Asking Paystack"). The browser says when, never what happened.
      route(learner, BILLING_ENDPOINTS.checkoutClosed, { config: paymentRateLimit }, async (request) => {
        const result = await checkoutClosed(settleDeps(request), signedInUser(request), request.params.reference, new Date());
        if (result.status === "success") jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
        return result;
      });

      route(learner, BILLING_ENDPOINTS.verifyPending, { config: subscriptionRateLimit }, async (request) => {
        // Without Paystack nothing can have been paid since.
        if (!deps.paystack) return { settled: [] };
        const result = await verifyPendingPayments(settleDeps(request), signedInUser(request), new Date());
        if (result.settled.some((payment) => payment.status === "success")) {
          jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
        }
        return result;
      });

      // The learner's own payments and receipts (docs/product.md, "Subscription page").
      route(learner, BILLING_ENDPOINTS.history, {}, async (request) => paymentHistory(db, signedInUser(request), request.query.page));

      route(learner, BILLING_ENDPOINTS.receipt, {}, async (request) =>
        paymentReceipt(db, env.business, signedInUser(request), request.params.reference),
      );
    });

    // The console's Payments tab and an administrator's refund (docs/subscriptions.md, "Refunds"),
    // behind the admin guard of every /api/admin route.
    await app.register(
      adminOnly(async (admin) => {
        route(admin, ADMIN_PAYMENTS_ENDPOINTS.list, {}, async (request) => listPayments(deps.db, request.query));

        route(admin, ADMIN_PAYMENTS_ENDPOINTS.refund, { config: paymentRateLimit }, async (request) => {
          const { payment, refund } = await refundPayment(
            withLog(request),
            { paymentId: request.params.id, ...request.body, actorId: signedInUser(request).id },
            new Date(),
          );
          jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
          return {
            payment: { id: payment.id, amountMinor: payment.amountMinor, refundedMinor: payment.refundedMinor, status: payment.status },
            refund: { id: refund.id, amountMinor: refund.amountMinor, status: refund.status },
          };
        });
      }),
    );

    await app.register(paystackWebhook(deps));
  };
}

/** Paystack retries a webhook not answered 200 every 3 minutes at first (docs/integrations.md). */
const WEBHOOK_RETRY_AFTER_SECONDS = 180;

/**
 * POST /api/paystack/webhook: the signature is checked on the raw bytes before anything is
 * parsed; charge.success only names the payment, which the server then asks Verify about
 * (settleNamedByWebhook), and the refund events go through billing-refunds.ts. Paystack retries
 * until it gets a 2xx, and repeats are harmless (the reference is credited once). When Verify
 * does not answer, the webhook is answered 503, so that Paystack sends it again.
 */
function paystackWebhook(deps: BillingDeps & Pick<FeatureDeps, "jobs">): FastifyPluginAsync {
  const { jobs } = deps;
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
        if (outcome === "counted") jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
        return reply.code(200).send({ received: true });
      }
      const charge = chargeSuccessEventSchema.safeParse(json);
      if (!charge.success || !deps.paystack) return reply.code(200).send({ received: true });
      const outcome = await settleNamedByWebhook({ ...deps, paystack: deps.paystack, log: request.log }, charge.data.data.reference, new Date());
      if (outcome === "unavailable") {
        reply.header("retry-after", String(WEBHOOK_RETRY_AFTER_SECONDS));
        return sendError(reply, 503, "PAYSTACK_UNAVAILABLE", "Paystack did not answer about this payment. Send the event again later.");
      }
      if (outcome === "credited") jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(200).send({ received: true });
    });
  };
}
