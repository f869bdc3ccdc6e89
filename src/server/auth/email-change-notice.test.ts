import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { emailChangeNotice } from "./email-change-notice.ts";

/** A link's token as the auth library signs it (the notice reads it after the library verified it). */
const token = (payload: Record<string, unknown>) =>
  new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("s".repeat(32)));

describe("emailChangeNotice", () => {
  const moved = { email: "new@example.com", name: "Ama" };

  it("is owed to the old address once the account has the address the link changed to", async () => {
    const link = await token({ email: "old@example.com", updateTo: "new@example.com", requestType: "change-email-verification" });
    expect(emailChangeNotice(link, moved)).toEqual({ email: "old@example.com", newEmail: "new@example.com", name: "Ama" });
    expect(emailChangeNotice(link, { ...moved, email: "NEW@example.com" })?.email).toBe("old@example.com");
  });

  it("is not owed for a sign-up's verification, another address, or what is not a token", async () => {
    expect(emailChangeNotice(await token({ email: "new@example.com" }), moved)).toBeNull();
    expect(emailChangeNotice(await token({ email: "old@example.com", updateTo: "other@example.com" }), moved)).toBeNull();
    expect(emailChangeNotice(await token({ email: "new@example.com", updateTo: "new@example.com" }), moved)).toBeNull();
    expect(emailChangeNotice("not-a-token", moved)).toBeNull();
  });
});
