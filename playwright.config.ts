import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Browser tests drive Debian's Chromium; they never download a browser and never skip quietly.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  throw new Error(
    `No Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

// E2E_PORT lets two runs share a machine: each gets its own server, database and output folder.
const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://localhost:${PORT}`;
export const E2E_DATA_DIR = `test-results/e2e-data-${PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  // In CI a failed test is tried once more: one that then passes is counted flaky, and npm test's
  // table names it (docs/testing.md), so a timing race is seen without failing every change.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: `test-results/playwright-${PORT}`,
  use: {
    baseURL: E2E_BASE_URL,
    // The app's service worker (docs/decisions/020-offline-with-a-service-worker.md) would answer
    // requests some tests intercept or count; only the suites about it allow it.
    serviceWorkers: "block",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // Outside hosts (the YouTube embeds) fail at once instead of waiting on this machine's
        // resolver: the suite runs offline, and "network idle" must not depend on a DNS timeout.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
      ],
    },
  },
  webServer: {
    // A fresh embedded database every run, on the built app, as `npm start` serves it.
    command: `rm -rf ${E2E_DATA_DIR} && node dist/node/dev/main.js`,
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: "warn",
      CHAT_WIDGET_URL: `${E2E_BASE_URL}/dev/fakes/chat-widget.js`,
      // The lesson's player: the stand-in of the IFrame Player API, whose playback a test drives
      // (a test that blocks it sees the lesson as YouTube out of reach leaves it).
      YOUTUBE_IFRAME_API_URL: `${E2E_BASE_URL}/dev/fakes/youtube/iframe_api`,
      YOUTUBE_THUMBNAIL_URL: `${E2E_BASE_URL}/dev/fakes/youtube/vi/`,
      // Sign-in providers: the app's own development stand-ins, speaking the real protocols.
      GOOGLE_CLIENT_ID: "e2e-google-client",
      GOOGLE_CLIENT_SECRET: "e2e-google-secret",
      GOOGLE_DISCOVERY_URL: `${E2E_BASE_URL}/dev/fakes/google/.well-known/openid-configuration`,
      MQL5_CLIENT_ID: "e2e-mql5-client",
      MQL5_CLIENT_SECRET: "e2e-mql5-secret",
      MQL5_AUTHORIZE_URL: `${E2E_BASE_URL}/dev/fakes/mql5/en/oauth/login`,
      MQL5_TOKEN_URL: `${E2E_BASE_URL}/dev/fakes/mql5/api/oauth/access_token`,
      MQL5_USERINFO_URL: `${E2E_BASE_URL}/dev/fakes/mql5/api/oauth/user_info`,
    },
  },
});
