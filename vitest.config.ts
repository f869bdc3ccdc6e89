import { defineConfig } from "vitest/config";

const apiTests = ["src/**/*.api.test.ts", "dev/**/*.api.test.ts"];
// Real server processes (start, signals, several instances): run one file at a time, after the build.
const processTests = ["src/**/*.process.test.ts", "scripts/**/*.process.test.ts"];
// Tests at scale (100,000 learners): PostgreSQL only, a CI step of their own (docs/testing.md).
const scaleTests = ["src/**/*.scale.test.ts"];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
// Limits are set for the CI machine with every lane running, not for an idle one: the niced Vitest
// steps get little processor while the browser tests run, and that machine has run a whole CI three
// times slower than usual. A test that takes 0.6 s alone has passed 20 s there (docs/testing.md).
// A test that hangs still fails, just later.
const TEST_TIMEOUT_MS = 60_000;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}", "dev/**/*.test.ts"],
          exclude: [...apiTests, ...processTests, ...scaleTests],
          testTimeout: TEST_TIMEOUT_MS,
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
          testTimeout: TEST_TIMEOUT_MS,
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
                testTimeout: TEST_TIMEOUT_MS,
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
