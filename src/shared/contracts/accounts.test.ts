import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, providerErrorMessage } from "./accounts.ts";

// docs/product.md, "Accounts": a failed return from Google or MQL5 is told in words, never as a code.
describe("providerErrorMessage", () => {
  it("uses the spec's sentences for a cancelled consent and an email that has another sign-in", () => {
    expect(providerErrorMessage("google", "access_denied")).toBe("Sign in was cancelled");
    expect(providerErrorMessage("mql5", "access_denied")).toBe("Sign in was cancelled");
    expect(providerErrorMessage("mql5", "account_not_linked")).toBe(AUTH_MESSAGES.googleAccountExists);
  });

  it("asks to try again after a return that matches no sign-in (back button, two tabs, too slow)", () => {
    for (const code of ["state_mismatch", "state_not_found", "please_restart_the_process"]) {
      expect(providerErrorMessage(null, code)).toBe(AUTH_MESSAGES.providerStale);
      expect(providerErrorMessage("google", code)).toBe(AUTH_MESSAGES.providerStale);
    }
  });

  it("names the provider where it helps", () => {
    expect(providerErrorMessage("google", "email_not_verified")).toContain("Your Google account's email address is not verified yet.");
    expect(providerErrorMessage("mql5", "server_error")).toBe("MQL5 could not be reached. Please try again in a few minutes.");
    expect(providerErrorMessage("google", "email_not_found")).toMatch(/^Google did not share your email address/);
  });

  it("never shows the code itself", () => {
    for (const provider of ["google", "mql5", null] as const) {
      for (const code of ["unable_to_get_user_info", "invalid_code", "UNKNOWN", "signup_disabled"]) {
        const message = providerErrorMessage(provider, code);
        expect(message).not.toContain(code);
        expect(message).toMatch(/^[A-Z].*\.$/);
      }
    }
    expect(providerErrorMessage("mql5", "invalid_code")).toBe("Failed to sign in with MQL5.");
    expect(providerErrorMessage(null, "invalid_code")).toBe(AUTH_MESSAGES.authFailed);
  });
});
