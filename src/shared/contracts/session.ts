// The session as the browser sees it: small on purpose, because every page loads it.
import * as z from "zod/mini";
import { PLANS, TRACKS } from "../plans.ts";
import { endpoint } from "./endpoint.ts";

/** The signed-in user as the browser sees it. `plan` is the effective plan, decided by the server. */
export const meUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  provider: z.nullable(z.enum(["email", "google", "mql5"])),
  plan: z.enum(PLANS),
  accessLevel: z.string(),
  tracks: z.array(z.enum(TRACKS)),
  isAdmin: z.boolean(),
  subscriptionEnd: z.nullable(z.string()),
});
export type MeUser = z.infer<typeof meUserSchema>;

export const meResponseSchema = z.object({
  user: z.nullable(meUserSchema),
  /**
   * This device's session was ended from another one (signed out from the account page, a new
   * password): said once, then the cookie is gone (docs/accounts.md, "Signed out elsewhere").
   */
  signedOutElsewhere: z.optional(z.boolean()),
});

/** Sign-in, sign-out, verify and reset answers whose body the browser does not read: the status says it all. */
export const authAcknowledgementSchema = z.unknown();

/** A POST to the auth library that sends nothing but an empty JSON body, `{}`. */
export const emptyBodySchema = z.object({});

/**
 * Who is signed in (never kept by a cache), and signing out, which every page's header offers: the
 * auth library's own route (src/shared/contracts/auth-library.ts has the others), declared here so
 * that the first page load does not carry the account forms' schemas.
 */
export const SESSION_ENDPOINTS = {
  me: endpoint({ method: "GET", path: "/api/me", response: meResponseSchema }),
  signOut: endpoint({ method: "POST", path: "/api/auth/sign-out", body: emptyBodySchema, response: authAcknowledgementSchema }),
};
