// Attack suite (docs/product.md, "When a request counts against a limit"): a page on another site
// puts a hundred <img> tags on itself, and every browser behind one carrier address GETs our
// limited routes with them. Those requests spend no per-address allowance: the site's own requests
// from that address still have all of theirs. What a limit guards (a link's token, a session, a
// certificate number) is counted for itself, from wherever the requests come.
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import { DEFAULT_LIBRARY_LIMIT, LIBRARY_LIMITS } from "../auth/auth-limits.ts";
import { certificates } from "../db/schema.ts";
import { newCertificateId } from "../features/learning/certificates.ts";
import { CERTIFICATE_LOOKUPS } from "../features/learning/certificates.routes.ts";
import { createTestUsers, ipAllocator, limitAnswer, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(72);

/** How browsers mark a request another site made: an <img> or a link, a sibling's, a fetch() with its Origin. */
const ANOTHER_SITE: Record<string, string>[] = [
  { "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "same-site" },
  { origin: "https://evil.test" },
  { origin: "null", "sec-fetch-site": "cross-site" },
];
const THE_SITE = { "sec-fetch-site": "same-origin" };

function expectAnswered(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).not.toBe(429);
  expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(500);
}

describe("GETs another site makes", () => {
  let t: TestApp;
  let user: (key: "holder" | "victim" | "neighbour") => TestUser;
  let certificate = "";

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, { holder: {}, victim: {}, neighbour: {} });
    certificate = newCertificateId();
    await t.database.db
      .insert(certificates)
      .values({ id: certificate, userId: user("holder").id, holderName: "Ama Mensah", programId: "beginner", programTitle: "Beginner Program" });
  });
  afterAll(() => t.close());

  const get = (url: string, ip: string, headers: Record<string, string>, cookie?: string): Promise<LightMyRequestResponse> => {
    const options: InjectOptions = { method: "GET", url, headers: cookie ? { ...headers, cookie } : headers, remoteAddress: ip };
    return t.app.inject(options);
  };
  const markOf = (n: number) => ANOTHER_SITE[n % ANOTHER_SITE.length] ?? {};

  describe.each([
    // The review's three: a verification link's endpoint, the session's, a certificate's.
    { route: "/api/auth/verify-email", attacked: "/api/auth/verify-email?token=x", own: "/api/auth/verify-email?token=mine", max: DEFAULT_LIBRARY_LIMIT.max },
    { route: "/api/auth/get-session", attacked: "/api/auth/get-session", own: "/api/auth/get-session", max: DEFAULT_LIBRARY_LIMIT.max },
    { route: "/api/certificates/:id", attacked: "/api/certificates/TA-0000000000", own: "", max: CERTIFICATE_LOOKUPS.max },
  ])("$route", ({ attacked, own, max }) => {
    it("a hundred and more from other sites leave the site's own requests from that address their whole allowance", async () => {
      const carrier = nextIp();
      for (let n = 0; n <= DEFAULT_LIBRARY_LIMIT.max; n++) await get(attacked, carrier, markOf(n));
      const mine = own || `/api/certificates/${certificate}`;
      // The site's own, from the same address: as many as the limit allows anyone.
      const answers = [];
      for (let n = 0; n < Math.min(max, DEFAULT_LIBRARY_LIMIT.max); n++) answers.push(await get(mine, carrier, THE_SITE));
      for (const [n, answer] of answers.entries()) expectAnswered(answer, `the site's request ${n + 1}`);
    }, 120_000);
  });

  it("the site's own GETs from one address are still counted per address", async () => {
    const ip = nextIp();
    for (let n = 0; n < DEFAULT_LIBRARY_LIMIT.max; n++) expectAnswered(await get("/api/auth/get-session", ip, THE_SITE), `request ${n + 1}`);
    // Sent without any mark (no browser): counted the same.
    const limited = await get("/api/auth/get-session", ip, {});
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.requests));
  }, 60_000);

  it.each([
    ["a verification link", (token: string) => `/api/auth/verify-email?token=${token}`],
    ["a reset link", (token: string) => `/api/auth/reset-password/${token}?callbackURL=%2Freset-password`],
  ])("guesses at one token of %s are counted for that token, from any address and any site", async (_what, urlOf) => {
    for (let n = 0; n < DEFAULT_LIBRARY_LIMIT.max; n++) expectAnswered(await get(urlOf("a-guessed-token"), nextIp(), markOf(n)), `guess ${n + 1}`);
    const limited = await get(urlOf("a-guessed-token"), nextIp(), THE_SITE);
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.linkRequests));
    expect(limited.headers["retry-after"]).toEqual(expect.stringMatching(/^\d+$/));
    // Another token is not.
    expectAnswered(await get(urlOf("another-token"), nextIp(), THE_SITE), "another token");
  }, 60_000);

  it("new passwords posted with one reset token are counted for that token, from any address", async () => {
    const post = (ip: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/reset-password", payload: { token: "a-posted-guess", newPassword: "a new password" }, remoteAddress: ip });
    for (let n = 0; n < LIBRARY_LIMITS["/reset-password"].max; n++) expectAnswered(await post(nextIp()), `guess ${n + 1}`);
    const limited = await post(nextIp());
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.linkRequests));
  }, 60_000);

  it("a session's requests are counted for that session, from any address and any site", async () => {
    const carrier = nextIp();
    // Top-level navigations carry a Lax cookie: another site can open the page a hundred times.
    for (let n = 0; n < DEFAULT_LIBRARY_LIMIT.max; n++) {
      expectAnswered(await get("/api/auth/get-session", nextIp(), markOf(n), user("victim").cookie), `request ${n + 1}`);
    }
    const limited = await get("/api/auth/get-session", carrier, THE_SITE, user("victim").cookie);
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.deviceRequests));
    // Another learner behind the same address is not affected.
    const neighbour = await get("/api/auth/get-session", carrier, THE_SITE, user("neighbour").cookie);
    expect(neighbour.statusCode, neighbour.body).toBe(200);
    expect(neighbour.json()).toMatchObject({ user: { email: user("neighbour").email } });
  }, 60_000);

  it("lookups of one certificate number are counted for that number, from any address and any site", async () => {
    const unknown = "TA-0000000001";
    for (let n = 0; n < CERTIFICATE_LOOKUPS.max; n++) {
      const response = await get(`/api/certificates/${unknown}`, nextIp(), markOf(n));
      expect(response.statusCode, `lookup ${n + 1}`).toBe(404);
    }
    const limited = await get(`/api/certificates/${unknown.toLowerCase()}`, nextIp(), THE_SITE);
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.headers["retry-after"]).toEqual(expect.stringMatching(/^\d+$/));
    const known = await get(`/api/certificates/${certificate}`, nextIp(), markOf(0));
    expect(known.statusCode, known.body).toBe(200);
    expect(known.json()).toMatchObject({ id: certificate, holderName: "Ama Mensah" });
  }, 120_000);
});
