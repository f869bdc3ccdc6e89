// TRUST_PROXY: a deployment behind a proxy on a public address names it, and that proxy's
// X-Forwarded-For then says who the client is; any other sender is the client itself, whatever
// it writes there. Seen the way a caller sees it: per-address limits count the right address
// (POST /api/accounts/forgot-password allows 30 in 10 minutes per address).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_ROUTE_LIMITS } from "../features/accounts/accounts.routes.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { expectRefused } from "../testing/attack-kit.ts";
import { randomSecret } from "../testing/secrets.ts";

const PRODUCTION = { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example" };
const PROXY = "203.0.113.10";
const PER_ADDRESS = ACCOUNT_ROUTE_LIMITS.forgotPassword.max;

/** An app in production with these settings, and forgot-password as a client sends it through `from`. */
function appWith(env: Record<string, string>) {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { ...PRODUCTION, ...env } });
  });
  afterAll(() => t.close());
  let n = 0;
  return (from: string, forwardedFor?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/accounts/forgot-password",
      remoteAddress: from,
      headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
      payload: { email: `nobody-${++n}@example.com` },
    });
}

describe("TRUST_PROXY naming a proxy on a public address", () => {
  const forgot = appWith({ TRUST_PROXY: PROXY });

  it("through the proxy, each client has its own allowance", async () => {
    for (let attempt = 1; attempt <= PER_ADDRESS; attempt++) {
      expect((await forgot(PROXY, "198.51.100.1")).statusCode, `attempt ${attempt}`).toBe(404);
    }
    expectRefused(await forgot(PROXY, "198.51.100.1"), 429);
    // Another client behind the same proxy is not affected.
    expect((await forgot(PROXY, "198.51.100.2")).statusCode).toBe(404);
  });

  it("through the proxy, a client rotating its own X-Forwarded-For entry is still one address", async () => {
    for (let attempt = 1; attempt <= PER_ADDRESS; attempt++) {
      expect((await forgot(PROXY, `192.0.2.${attempt}, 198.51.100.3`)).statusCode, `attempt ${attempt}`).toBe(404);
    }
    expectRefused(await forgot(PROXY, "192.0.2.99, 198.51.100.3"), 429);
  });

  it.each([
    ["an address that is not the proxy", "198.51.100.50"],
    ["a private-network address (trusted by default, not once TRUST_PROXY is set)", "10.1.2.3"],
  ])("%s is the client itself, whatever X-Forwarded-For says", async (_case, sender) => {
    for (let attempt = 1; attempt <= PER_ADDRESS; attempt++) {
      expect((await forgot(sender, `192.0.2.${attempt}`)).statusCode, `attempt ${attempt}`).toBe(404);
    }
    expectRefused(await forgot(sender, "192.0.2.99"), 429);
    // The proxy's clients are counted apart from it.
    expect((await forgot(PROXY, "198.51.100.4")).statusCode).toBe(404);
  });
});

describe("without TRUST_PROXY, a proxy on a public address is not trusted", () => {
  const forgot = appWith({});

  it("every client behind it shares the proxy's allowance", async () => {
    for (let attempt = 1; attempt <= PER_ADDRESS; attempt++) {
      expect((await forgot(PROXY, `198.51.100.${attempt}`)).statusCode, `attempt ${attempt}`).toBe(404);
    }
    expectRefused(await forgot(PROXY, "198.51.100.99"), 429);
  });
});

describe("TRUST_PROXY as a number of hops", () => {
  const forgot = appWith({ TRUST_PROXY: "2" });

  it("behind two proxies, the address the outer one saw is the client", async () => {
    // The client (203.0.113.77) writes an entry of its own; the outer proxy (198.51.100.60) appends
    // the client's address, and the inner one (10.0.0.2) the outer one's.
    for (let attempt = 1; attempt <= PER_ADDRESS; attempt++) {
      const response = await forgot("10.0.0.2", `192.0.2.${attempt}, 203.0.113.77, 198.51.100.60`);
      expect(response.statusCode, `attempt ${attempt}`).toBe(404);
    }
    expectRefused(await forgot("10.0.0.2", "192.0.2.99, 203.0.113.77, 198.51.100.60"), 429);
    expect((await forgot("10.0.0.2", "203.0.113.78, 198.51.100.60")).statusCode).toBe(404);
  });
});
