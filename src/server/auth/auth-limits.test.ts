// The limits' numbers and words (docs/product.md, "Limits").
import { describe, expect, it } from "vitest";
import { LIMIT_MESSAGES, waitText } from "../../shared/contracts/accounts.ts";
import { ACCOUNT_ROUTE_LIMITS } from "../features/accounts/accounts.routes.ts";
import { ACCOUNT_MAIL_WINDOW_MS } from "./account-mail-limit.ts";
import { DEFAULT_LIBRARY_LIMIT, LIBRARY_LIMITS, libraryLimitMessage, SIGN_UPS_PER_ADDRESS } from "./auth-limits.ts";
import { RETENTION } from "../jobs/retention.ts";
import { LOCKOUT_WINDOW_MS } from "./login-lockout.ts";

describe("auth limits", () => {
  it("every counter in rate_limits has a window within the hour the retention job keeps it (docs/operations.md)", () => {
    const windows = [
      LOCKOUT_WINDOW_MS,
      ACCOUNT_MAIL_WINDOW_MS,
      SIGN_UPS_PER_ADDRESS.windowMs,
      ACCOUNT_ROUTE_LIMITS.register.timeWindow,
      ACCOUNT_ROUTE_LIMITS.forgotPassword.timeWindow,
      ACCOUNT_ROUTE_LIMITS.changeEmail.timeWindow,
      ...[DEFAULT_LIBRARY_LIMIT, ...Object.values(LIBRARY_LIMITS)].map((rule) => rule.window * 1000),
    ];
    expect(Math.max(...windows)).toBeLessThanOrEqual(RETENTION.rateLimitMs);
  });

  it("a room of 40 fits every per-address allowance a sign-up and a first login use", () => {
    expect(SIGN_UPS_PER_ADDRESS.max).toBeGreaterThanOrEqual(40);
    expect(ACCOUNT_ROUTE_LIMITS.register.max).toBeGreaterThanOrEqual(40);
    expect(LIBRARY_LIMITS["/sign-in/email"].max).toBeGreaterThanOrEqual(80);
    expect(LIBRARY_LIMITS["/sign-in/social"].max).toBeGreaterThanOrEqual(40);
    // ...and still no address creates accounts by the hundred.
    expect(SIGN_UPS_PER_ADDRESS.max).toBeLessThan(100);
  });

  it("says what was limited: only password matters speak of passwords", () => {
    const minutes = 4 * 60_000;
    const byAddress = (ms: number) => ({ by: "address", ms }) as const;
    expect(libraryLimitMessage("/sign-in/email", byAddress(minutes))).toBe("Too many sign-in attempts from your network. Please try again in 4 minutes.");
    expect(libraryLimitMessage("/sign-in/social", byAddress(minutes))).toBe(LIMIT_MESSAGES.signIns(minutes));
    expect(libraryLimitMessage("/send-verification-email", byAddress(minutes))).toBe(LIMIT_MESSAGES.verificationRequests(minutes));
    expect(libraryLimitMessage("/reset-password", byAddress(minutes))).toBe(LIMIT_MESSAGES.resetAttempts(minutes));
    expect(libraryLimitMessage("/get-session", byAddress(30_000))).toBe("Too many requests from your network. Please try again in 30 seconds.");
    // A link's or a device's own count speaks of it, not of the network.
    expect(libraryLimitMessage("/verify-email", { by: "link", ms: 30_000 })).toBe("Too many requests with this link. Please try again in 30 seconds.");
    expect(libraryLimitMessage("/get-session", { by: "device", ms: minutes })).toBe("Too many requests from this device. Please try again in 4 minutes.");
    for (const path of ["/sign-in/email", "/sign-in/social", "/send-verification-email", "/get-session"]) {
      expect(libraryLimitMessage(path, byAddress(minutes)), path).not.toMatch(/password/i);
    }
    expect(LIMIT_MESSAGES.lockedOut(minutes)).toMatch(/reset your password/);
  });

  it("puts the wait in whole seconds or minutes, rounded up", () => {
    expect(waitText(0)).toBe("1 second");
    expect(waitText(1_000)).toBe("1 second");
    expect(waitText(1_001)).toBe("2 seconds");
    expect(waitText(59_000)).toBe("59 seconds");
    expect(waitText(60_000)).toBe("1 minute");
    expect(waitText(61_000)).toBe("2 minutes");
    expect(waitText(15 * 60_000)).toBe("15 minutes");
  });
});
