// Reads /metrics as Prometheus would: with the bearer token, as text exposition lines.
import { expect } from "vitest";
import type { TestApp } from "./test-app.ts";
import { randomSecret } from "./secrets.ts";

/** A METRICS_TOKEN for test apps (`env: { METRICS_TOKEN: TEST_METRICS_TOKEN }`). */
export const TEST_METRICS_TOKEN = randomSecret();

export async function scrapeMetrics(t: TestApp): Promise<string> {
  const response = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

/** Each sample line `name{label="value",...} number`, parsed. */
function samples(text: string) {
  return text
    .split("\n")
    .map((line) => /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, name = "", labels = "", value = ""]) => ({
      name,
      labels: Object.fromEntries([...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, key = "", label = ""]) => [key, label])),
      value: Number(value),
    }));
}

function findSample(text: string, name: string, labels: Record<string, string>) {
  return samples(text).find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The value of the first sample with this name and (at least) these labels; 0 when there is none. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return findSample(text, name, labels)?.value ?? 0;
}

/** Whether a sample with this name and these labels is reported. */
export function hasMetric(text: string, name: string, labels: Record<string, string> = {}): boolean {
  return findSample(text, name, labels) !== undefined;
}
