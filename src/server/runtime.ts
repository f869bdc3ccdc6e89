// The Node release the server runs on (docs/operations.md, "Runtime"): a supported LTS, the one
// package.json's engines name. An older one stops the server at start with one line.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./paths.ts";

/** The oldest major release of Node the server starts on: the first of package.json's engines. */
export const OLDEST_SUPPORTED_NODE = oldestNodeMajor(readFileSync(join(projectRoot, "package.json"), "utf8"));

function oldestNodeMajor(manifestText: string): number {
  const manifest = JSON.parse(manifestText) as { engines?: { node?: string } };
  const range = manifest.engines?.node ?? "";
  const major = /^>=\s*(\d+)/.exec(range)?.[1];
  if (!major) throw new Error(`package.json: engines.node must read ">=N", not "${range}"`);
  return Number(major);
}

/** Why this Node cannot run the server, in one line, or null when it can. */
export function unsupportedNodeProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split(".")[0]);
  if (major >= OLDEST_SUPPORTED_NODE) return null;
  return `Node ${version} is past its end of life: run the server on Node ${OLDEST_SUPPORTED_NODE} or newer.`;
}
