import fs from "node:fs";
import js from "@eslint/js";
import drizzle from "eslint-plugin-drizzle";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers and seams are explained in docs/architecture.md; this file is what keeps them.
//   shared <- server, shared <- web; the two sides never import each other.
//   Inside a side: the composition root (app, router, shell) <- features <- platform.
//   A feature never imports another feature, except through a seam: a `*.seam.ts` file of that
//   feature, which says why it is shared and re-exports what it offers (docs/architecture.md,
//   "Seams", a table made from these files).
const SEAMS = "*/*.seam.ts";

// What only the composition root may import: it wires features and platform together.
const COMPOSITION = {
  server: ["app.ts", "main.ts", "start.ts", "cli"],
  web: ["main.tsx", "router.tsx", "shell"],
};

// Files only tests and development use; nothing that ships imports them.
const TEST_AND_DEVELOPMENT = ["dev/**", "e2e/**", "scripts/**", "src/server/testing/**", "src/web/testing/**", "src/**/*.test.{ts,tsx}"];
const TEST_FILES = ["**/*.test.{ts,tsx}", "src/server/testing/**", "src/web/testing/**"];

// One zone per forbidden source: the plugin does not mix files, folders and globs in one zone.
const forbid = (target, froms, message) => froms.map((from) => ({ target, from, message }));
const globOf = (path) => (fs.statSync(path).isDirectory() ? `${path}/**` : path);

function layerZones(side) {
  const root = `./src/${side}`;
  const topLevel = fs.readdirSync(root).filter((name) => !/\.test\.tsx?$/.test(name));
  const composition = COMPOSITION[side].map((name) => globOf(`${root}/${name}`));
  const platform = topLevel
    .filter((name) => !["features", "testing", ...COMPOSITION[side]].includes(name))
    .filter((name) => /\.tsx?$/.test(name) || fs.statSync(`${root}/${name}`).isDirectory())
    .map((name) => globOf(`${root}/${name}`));
  const features = fs
    .readdirSync(`${root}/features`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return [
    // With a glob for `from`, the exceptions are globs matched against the imported file's full path.
    ...features.map((feature) => ({
      target: `${root}/features/${feature}`,
      from: `${root}/features/**`,
      except: [feature + "/**", SEAMS].map((glob) => `${import.meta.dirname}/src/${side}/features/${glob}`),
      message: "A feature does not import another feature, except through its `*.seam.ts` files (docs/architecture.md, \"Seams\").",
    })),
    ...platform.flatMap((target) =>
      forbid(target, [`${root}/features/**`, ...composition], "Platform code (lib, ui, db, auth, jobs, ...) does not import features or the composition root."),
    ),
    ...forbid(`${root}/features/**`, composition, "Features do not import the composition root (app, router, shell)."),
  ];
}

const noImport = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ["dist", "node_modules", "data", "drizzle", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { "import-x": importX },
    settings: {
      // TypeScript's own resolution, with each side's tsconfig: an import the compiler accepts
      // resolves here too, however it is written, so no boundary is passed unseen.
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ noWarnOnMultipleProjects: true, project: ["tsconfig.server.json", "tsconfig.web.json", "tsconfig.sw.json", "tsconfig.test.json"] }),
      ],
      // no-cycle follows imports into TypeScript files, so it must parse them.
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      eqeqeq: ["error", "always"],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      // Every import resolves, and a file of ours is named with its extension, as Node and Vite
      // load it (.ts, .tsx; never .js for a .ts file).
      "import-x/no-unresolved": "error",
      "import-x/extensions": ["error", "ignorePackages", { checkTypeImports: true }],
      // date-fns's index loads every one of its 250 functions, and Node 24 reads its 200 KB
      // package.json again for each file: 1.5 s at every start (docs/performance.md, "Start-up").
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value=/^\\.{1,2}\\/.*\\.js$/]",
          message: "Import our TypeScript file by its own name (.ts), as the rest of the code does.",
        },
        "error",
        { selector: "ImportDeclaration[source.value='date-fns']", message: 'Import one function from its own path: import { addDays } from "date-fns/addDays".' },
      ],
    },
  },
  {
    // Type-aware rules: a promise is awaited, returned or explicitly voided, never dropped.
    files: ["**/*.{ts,tsx}"],
    languageOptions: {
      parserOptions: {
        project: ["./tsconfig.server.json", "./tsconfig.web.json", "./tsconfig.sw.json", "./tsconfig.test.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...layerZones("server"),
            ...layerZones("web"),
            ...forbid("./src/**", TEST_AND_DEVELOPMENT.map((path) => `./${path}`), "What ships never imports development stand-ins, browser tests, scripts or test helpers."),
            // The service worker: Workbox and shared/ only, and nothing imports it (decision 020).
            ...forbid("./src/sw", ["./src/server", "./src/web"], "The service worker imports Workbox and shared/ only."),
            ...["./src/server", "./src/web", "./src/shared"].flatMap((target) =>
              forbid(target, ["./src/sw"], "Nothing imports the service worker: vite-plugin-pwa builds it on its own."),
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/server/**/*.ts"],
    plugins: { drizzle },
    rules: {
      "drizzle/enforce-delete-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      "drizzle/enforce-update-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      ...noImport(["**/web/**"], "The server does not import browser code."),
    },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: noImport(["**/server/**", "**/web/**", "node:*"], "shared/ is pure: no server, browser or Node imports."),
  },
  {
    // The service worker: Workbox and shared/ (docs/decisions/020-offline-with-a-service-worker.md).
    files: ["src/sw/**/*.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!workbox-[a-z-]+$|\\.)", message: "The service worker imports Workbox and shared/ only." }] },
      ],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noImport(["**/server/**", "node:*"], "The browser does not import server code."),
    },
  },
);
