import { defineConfig } from "vitest/config";

const apiTests = ["src/**/*.api.test.ts", "dev/**/*.api.test.ts"];
// Real server processes (start, signals, several instances): run one file at a time, after the build.
const processTests = ["src/**/*.process.test.ts", "scripts/**/*.process.test.ts"];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}", "dev/**/*.test.ts"],
          exclude: [...apiTests, ...processTests],
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
                env: { TEST_DB: "postgres" },
                testTimeout: 20_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
