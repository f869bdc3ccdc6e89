// The server names a page's built files in its Link header from PAGE_MODULES (spa.ts): they must be
// the files the browser's router loads for that page, or the page would preload code it never runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAGE_MODULES } from "../../shared/page-modules.ts";

describe("the pages' code the server names", () => {
  const router = readFileSync(join(process.cwd(), "src/web/router.tsx"), "utf8");
  const loads = Object.fromEntries(
    [...router.matchAll(/^ {2}(\w+): lazyPage\(\(\) => import\("\.\/([^"]+)"\)/gm)].map(([, id, module]) => [id, module]),
  );

  it("is what the router loads, for every page loaded on demand", () => {
    const named = Object.fromEntries(Object.entries(PAGE_MODULES).filter(([, module]) => module !== null));
    expect(Object.keys(loads).length).toBeGreaterThan(20);
    expect(loads).toEqual(named);
  });
});
