// MQL5's user-info endpoint, read once an OAuth sign-in has its access token (docs/integrations.md,
// "MQL5 sign-in (OAuth 2.0)").

export type Mql5User = { id: string; email: string; name: string; emailVerified: boolean };

/** The MQL5 account behind an access token; null when MQL5 refuses or answers without an id and email. */
export async function fetchMql5User(userInfoUrl: string, accessToken: string): Promise<Mql5User | null> {
  const response = await fetch(userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) return null;
  const profile: unknown = await response.json();
  if (typeof profile !== "object" || profile === null) return null;
  const { id, login, email } = profile as Record<string, unknown>;
  if ((typeof id !== "string" && typeof id !== "number") || typeof email !== "string") return null;
  // MQL5 confirms an account's email before it can be used.
  return { id: String(id), email, name: typeof login === "string" ? login : email, emailVerified: true };
}
