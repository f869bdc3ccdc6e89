import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipAllocator, register, registrationForm } from "../../src/server/testing/accounts.ts";
import { createTestApp, type TestApp } from "../../src/server/testing/test-app.ts";
import { randomSecret } from "../../src/server/testing/secrets.ts";

const nextIp = ipAllocator(25);

describe("development mailbox outside production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("lists the emails the app sent, as JSON and as a page with clickable links", async () => {
    const email = "mailbox@example.com";
    const registered = await register(t, registrationForm(email, { fullName: "Mail <Box>" }), nextIp());
    expect(registered.statusCode, registered.body).toBe(201);

    const json = await t.app.inject({ method: "GET", url: `/dev/mail/messages?to=${encodeURIComponent(" MAILBOX@example.com ")}` });
    expect(json.statusCode).toBe(200);
    const { messages } = json.json<{ messages: { to: string; subject: string; text: string }[] }>();
    expect(messages).toEqual([
      expect.objectContaining({ to: email, subject: "Verify your email for Trading Academy" }),
    ]);
    expect(messages[0]?.text).toMatch(/http:\/\/localhost:3000\/verify-email\?oobCode=/);

    const other = await t.app.inject({ method: "GET", url: "/dev/mail/messages?to=someone-else@example.com" });
    expect(other.json()).toEqual({ messages: [] });

    const page = await t.app.inject({ method: "GET", url: "/dev/mail" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).toContain("Verify your email for Trading Academy");
    expect(page.body).toMatch(/<a href="http:\/\/localhost:3000\/verify-email\?oobCode=[^"]+">/);
    // The user's name is shown escaped.
    expect(page.body).not.toContain("<Box>");
  });
});

describe("development mailbox in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { NODE_ENV: "production", AUTH_SECRET: randomSecret() },
    });
  });
  afterAll(() => t.close());

  it.each(["/dev/mail", "/dev/mail/messages", "/dev/fakes/google/.well-known/openid-configuration"])(
    "does not serve %s",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
    },
  );
});
