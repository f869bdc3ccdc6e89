// Payments credited and their amount on /metrics move once per credited payment (docs/operations.md,
// "Observability"): never for a replayed webhook, a repeated verify, or a payment that failed.
import { describe, expect, it } from "vitest";
import { ipAllocator } from "../testing/accounts.ts";
import { postWebhook, simulatePayment, useBillingApp } from "../testing/billing.ts";
import { metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../testing/metrics.ts";

const nextIp = ipAllocator(81);

describe("payment metrics", () => {
  const { t, api, user, buy, joinWaitlist, paidAtPaystack } = useBillingApp(
    nextIp,
    { subscriber: {}, waiter: {}, declined: {} },
    { env: { METRICS_TOKEN: TEST_METRICS_TOKEN } },
  );

  async function credited(kind: string, plan: string) {
    const text = await scrapeMetrics(t);
    return {
      count: metricValue(text, "payments_credited_total", { kind, plan }),
      pesewas: metricValue(text, "payments_credited_pesewas_total", { kind, plan }),
    };
  }

  it("counts a subscription credited by its webhook once, with its amount; replays change nothing", async () => {
    const subscriber = user("subscriber");
    const before = await credited("subscription", "intermediate");
    const reference = await buy(subscriber, "intermediate");
    const data = await paidAtPaystack(reference);
    expect(await credited("subscription", "intermediate")).toEqual(before);

    const event = { event: "charge.success", data };
    expect((await postWebhook(t, event)).statusCode).toBe(200);
    const after = await credited("subscription", "intermediate");
    expect(after).toEqual({ count: before.count + 1, pesewas: before.pesewas + data.amount });

    // Paystack retries, and the browser's verify arrives late: the payment is credited already.
    expect((await postWebhook(t, event)).statusCode).toBe(200);
    expect((await postWebhook(t, event)).statusCode).toBe(200);
    expect((await api.verify(subscriber, reference)).statusCode).toBe(200);
    expect(await credited("subscription", "intermediate")).toEqual(after);
  });

  it("counts a waitlist place credited by the browser's verify, by kind and plan", async () => {
    const waiter = user("waiter");
    const before = await credited("waitlist", "advanced");
    const otherKind = await credited("subscription", "advanced");
    const reference = await joinWaitlist(waiter, "advanced");
    const data = await paidAtPaystack(reference);

    expect((await api.verifyWaitlist(waiter, reference, "advanced")).statusCode).toBe(200);
    expect(await credited("waitlist", "advanced")).toEqual({ count: before.count + 1, pesewas: before.pesewas + data.amount });
    expect((await postWebhook(t, { event: "charge.success", data })).statusCode).toBe(200);
    expect(await credited("waitlist", "advanced")).toEqual({ count: before.count + 1, pesewas: before.pesewas + data.amount });
    expect(await credited("subscription", "advanced")).toEqual(otherKind);
  });

  it("does not count a declined payment", async () => {
    const declined = user("declined");
    const before = await credited("subscription", "intermediate");
    const reference = await buy(declined, "intermediate");
    await simulatePayment(t, reference, { outcome: "failed" });
    expect((await api.verify(declined, reference)).statusCode).toBe(402);
    expect(await credited("subscription", "intermediate")).toEqual(before);
  });
});
