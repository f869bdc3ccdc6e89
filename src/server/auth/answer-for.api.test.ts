// Whose answer a read is (docs/product.md, "Offline"): the service worker keeps a learner's reads for
// offline and serves one only to the user the server named it for, so every signed-in read it keeps
// must name its user, and a public read or an answer without a session no one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_FOR, isCachedApiRead } from "../../shared/offline.ts";
import { createSignedInUser, ipAllocator, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(187);

/** Every read the worker keeps, as a learner's pages ask for them. */
const SIGNED_IN_READS = [
  "/api/me",
  "/api/programs/beginner",
  "/api/programs/beginner/positions",
  "/api/progress",
  "/api/accounts/sessions",
  "/api/accounts/sms",
  "/api/subscription",
  "/api/subscription/auto-renewal",
  "/api/payments",
];
const PUBLIC_READS = ["/api/site", "/api/programs", "/api/prices"];

describe("the answer-for header", () => {
  let t: TestApp;
  let learner: TestUser;
  let lesson: string;
  beforeAll(async () => {
    t = await createTestApp();
    learner = await createSignedInUser(t, { email: "answer-for@example.com", nextIp });
    const track = await t.app.inject({ url: "/api/programs/beginner", headers: { cookie: learner.cookie } });
    const [first] = track.json<{ modules: { id: string }[] }>().modules;
    lesson = `/api/programs/beginner/modules/${first?.id ?? ""}`;
  });
  afterAll(() => t.close());

  const whose = async (url: string, cookie?: string) => {
    const response = await t.app.inject({ url, remoteAddress: nextIp(), headers: cookie ? { cookie } : {} });
    return { status: response.statusCode, for: response.headers[ANSWER_FOR] ?? null };
  };

  it("names the signed-in learner on every signed-in read the worker keeps", async () => {
    for (const url of [...SIGNED_IN_READS, lesson]) {
      expect(isCachedApiRead(url), url).toBe(true);
      expect(await whose(url, learner.cookie), url).toEqual({ status: 200, for: learner.id });
    }
  });

  it("names no one on the public reads, signed in or not", async () => {
    for (const url of PUBLIC_READS) {
      expect(isCachedApiRead(url), url).toBe(true);
      expect(await whose(url, learner.cookie), url).toEqual({ status: 200, for: null });
      expect(await whose(url), url).toEqual({ status: 200, for: null });
    }
  });

  it("names no one without a session: the session's answer and the 401s", async () => {
    expect(await whose("/api/me")).toEqual({ status: 200, for: null });
    for (const url of SIGNED_IN_READS.filter((path) => path !== "/api/me")) {
      expect(await whose(url), url).toEqual({ status: 401, for: null });
    }
  });

  it("names no one on a write's answer, which no worker keeps", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `${lesson}/watched`,
      remoteAddress: nextIp(),
      headers: { cookie: learner.cookie, origin: t.services.env.appUrl },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[ANSWER_FOR]).toBeUndefined();
  });
});
