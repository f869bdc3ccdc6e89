// The running release, from package.json: reported by the health answers and the metrics.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./paths.ts";

const manifest: unknown = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8"));

export const appVersion =
  typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string"
    ? manifest.version
    : "unknown";
