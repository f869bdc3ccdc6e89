// The import boundaries of docs/architecture.md hold for every way of writing an import: each
// probe is code the linter must refuse, linted as if it stood at the path given, with the project's
// own ESLint configuration (the type-aware rules aside: they need the file in a TypeScript project).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const BOUNDARY_RULES = new Set(["import-x/no-restricted-paths", "import-x/no-unresolved", "import-x/extensions", "no-restricted-imports"]);

const eslint = new ESLint({
  overrideConfig: { files: ["**/*.{ts,tsx}"], languageOptions: { parserOptions: { project: null } } },
  ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
});

/** The boundary rules that refuse `code` at `path`, each once. */
async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  const fatal = result?.messages.filter((message) => message.fatal) ?? [];
  if (fatal.length > 0) throw new Error(`${path} did not parse: ${fatal.map((message) => message.message).join("; ")}`);
  return [...new Set(result?.messages.map((message) => message.ruleId ?? ""))].sort();
}

describe("the import boundaries", () => {
  it("let a feature import another's seam, with its extension", async () => {
    expect(await refusals("src/web/features/learning/probe.tsx", `import { useVerifyPendingPayments } from "../billing/pending-payments.seam.ts";\nvoid useVerifyPendingPayments;\n`)).toEqual([]);
    expect(await refusals("src/server/features/billing/probe.ts", `import { setUserPlan } from "../users/users.seam.ts";\nvoid setUserPlan;\n`)).toEqual([]);
    expect(await refusals("src/sw/probe.ts", `import { Router } from "workbox-routing";\nimport { APP_SHELL_CACHE } from "../shared/offline.ts";\nvoid Router, APP_SHELL_CACHE;\n`)).toEqual([]);
  });

  it("refuse a cross-feature import of anything but a seam, on either side", async () => {
    expect(await refusals("src/web/features/learning/probe.tsx", `import { useVerifyPendingPayments } from "../billing/pending-payments.ts";\nvoid useVerifyPendingPayments;\n`)).toEqual([
      "import-x/no-restricted-paths",
    ]);
    expect(await refusals("src/server/features/billing/probe.ts", `import { setUserPlan } from "../users/users.service.ts";\nvoid setUserPlan;\n`)).toEqual([
      "import-x/no-restricted-paths",
    ]);
  });

  it("refuse an extensionless cross-feature import in the browser code", async () => {
    const refused = await refusals("src/web/features/learning/probe.tsx", `import { openCheckout } from "../billing/paystack-checkout";\nvoid openCheckout;\n`);
    expect(refused).toContain("import-x/no-restricted-paths");
    expect(refused).toContain("import-x/extensions");
  });

  it("refuse a .js cross-feature import in the server", async () => {
    const refused = await refusals("src/server/features/learning/probe.ts", `import { startCheckout } from "../billing/billing-checkout.js";\nvoid startCheckout;\n`);
    expect(refused).toContain("import-x/no-restricted-paths");
  });

  it("refuse a service worker import of a feature, of a package other than Workbox, and any import of the service worker", async () => {
    expect(await refusals("src/sw/probe.ts", `import { usePrograms } from "../web/features/learning/catalog-api.ts";\nvoid usePrograms;\n`)).toContain(
      "import-x/no-restricted-paths",
    );
    expect(await refusals("src/sw/probe.ts", `import { z } from "zod";\nvoid z;\n`)).toContain("no-restricted-imports");
    expect(await refusals("src/web/lib/probe.ts", `import "../../sw/service-worker.ts";\n`)).toContain("import-x/no-restricted-paths");
  });

  it("refuse an import that resolves to nothing", async () => {
    expect(await refusals("src/server/features/learning/probe.ts", `import { nothing } from "./no-such-file.ts";\nvoid nothing;\n`)).toContain(
      "import-x/no-unresolved",
    );
  });
});
