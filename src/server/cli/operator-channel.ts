// While a server holds the embedded database, operator commands go through it: the server
// writes its port and a random token to a file in the data folder that only its owner can read,
// and accepts commands that carry the token.
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";

/** In the data folder while a server runs (a restore leaves it out). */
export const OPERATOR_CHANNEL_FILE = "operator.json";
const channelSchema = z.object({ port: z.int(), token: z.string() });
export type OperatorChannel = z.infer<typeof channelSchema>;

export function newOperatorToken(): string {
  return randomBytes(32).toString("hex");
}

export function openOperatorChannel(dataDir: string, channel: OperatorChannel): () => void {
  const path = join(dataDir, OPERATOR_CHANNEL_FILE);
  writeFileSync(path, JSON.stringify(channel), { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

export function readOperatorChannel(dataDir: string): OperatorChannel | null {
  try {
    const parsed = channelSchema.safeParse(JSON.parse(readFileSync(join(dataDir, OPERATOR_CHANNEL_FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
