// compose.yaml runs production: every setting that turns on an outside service (the names the
// start-up warnings give when one is missing) is passed from the .env file, so a compose
// deployment sends what the README's Deploying section says it does (docs/operations.md).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { missingServiceWarnings, readEnv } from "./env.ts";

const compose = readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8");

/** The settings production warns about when they are missing: every outside service's. */
function serviceSettings(): string[] {
  const env = readEnv({ NODE_ENV: "production", APP_URL: "https://academy.example", AUTH_SECRET: randomBytes(48).toString("base64"), DATABASE_URL: "postgres://academy@db:5432/academy" });
  return [...new Set(missingServiceWarnings(env).flatMap((warning) => warning.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []))];
}

describe("compose.yaml", () => {
  it("names the services' settings the warnings name, SMS included", () => {
    expect(serviceSettings()).toEqual(expect.arrayContaining(["SMTP_URL", "PAYSTACK_SECRET_KEY", "HUBTEL_CLIENT_ID", "HUBTEL_CLIENT_SECRET", "CHAT_WIDGET_URL"]));
  });

  it.each([...serviceSettings(), "MAIL_FROM", "HUBTEL_SENDER_ID", "METRICS_TOKEN"])("passes %s from the .env file", (name) => {
    expect(compose).toContain(`    ${name}: \${${name}:-}\n`);
  });
});
