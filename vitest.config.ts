import { defineConfig } from "vitest/config";

const apiTests = ["src/**/*.api.test.ts", "dev/**/*.api.test.ts"];
// Real server processes (start, signals, several instances): run one file at a time, after the build.
const processTests = ["src/**/*.process.test.ts", "scripts/**/*.process.test.ts"];
// Tests at scale (100,000 learners): PostgreSQL only, a CI step of their own (docs/testing.md).
const scaleTests = ["src/**/*.scale.test.ts"];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}", "dev/**/*.test.ts"],
          exclude: [...apiTests, ...processTests, ...scaleTests],
          // CI runs this step beside typecheck, lint and the browser tests on two cores: a page test
          // that takes 1 s on an idle machine has taken over 5 s there (docs/testing.md).
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "process",
          include: processTests,
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "api-pglite",
          include: apiTests,
          // Every API test file builds its own app on its own database, so files share a worker's
          // loaded modules: a fresh process per file cost some 2 s of imports each (docs/performance.md, "Start-up").
          isolate: false,
          globalSetup: ["src/server/testing/pglite-template.setup.ts"],
          env: { TEST_DB: "pglite" },
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: "api-postgres",
                include: apiTests,
                isolate: false,
                globalSetup: ["src/server/testing/postgres-template.setup.ts"],
                env: { TEST_DB: "postgres" },
                testTimeout: 20_000,
                hookTimeout: 60_000,
              },
            },
            {
              test: {
                name: "scale",
                include: scaleTests,
                env: { TEST_DB: "postgres" },
                testTimeout: 120_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
