// Secrets for tests that run production: fresh and random each run, as production requires
// (docs/operations.md, "Configuration"); never a value written in the repository.
import { randomBytes } from "node:crypto";

/** 48 characters of base64url: about 34 different ones, never a published value. */
export function randomSecret(): string {
  return randomBytes(36).toString("base64url");
}

/** A wrong copy of a secret, one character off: the first, so it is sure to differ. */
export function oneCharacterOff(secret: string): string {
  return `${secret.startsWith("A") ? "B" : "A"}${secret.slice(1)}`;
}
