import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const projectRoot = join(import.meta.dirname, "..", "..");

/** Runs an ES module in a node with V8's test functions and gc(); returns what it printed. */
function runWithV8Natives(source: string): string {
  const result = spawnSync(
    process.execPath,
    ["--allow-natives-syntax", "--expose-gc", "--import", "tsx", "--input-type=module", "--eval", source],
    { cwd: projectRoot, encoding: "utf8", timeout: 30_000 },
  );
  expect(result.stderr).toBe("");
  return result.stdout.trim();
}

describe("the kept tick (docs/performance.md, The tick's shape)", () => {
  it("gives the ticks after full collections the kept tick's hidden class", () => {
    const printed = runWithV8Natives(`
      import { executionAsyncResource } from "node:async_hooks";
      import { keptTickObject } from "./src/server/tick-shape.ts";
      const tickObject = () => new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
      await tickObject();
      for (let i = 0; i < 3; i++) globalThis.gc();
      const later = await tickObject();
      const kept = keptTickObject();
      console.log(JSON.stringify({ kept: kept !== undefined, sameMap: eval("%HaveSameMap(kept, later)") }));
    `);
    expect(JSON.parse(printed)).toEqual({ kept: true, sameMap: true });
  });

  it("is the first thing each entry imports, so it runs before the first full collection", () => {
    for (const entry of ["src/server/main.ts", "dev/main.ts"]) {
      const firstImport = readFileSync(join(projectRoot, entry), "utf8").match(/^import .*$/m)?.[0];
      expect(firstImport, entry).toMatch(/^import "[./]*(src\/server\/)?tick-shape\.ts";$/);
    }
  });
});
