import { expect, test } from "@playwright/test";

test("scripts are sent compressed and cached for a year", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  expect(entry, "the page's entry script").toMatch(/^\/assets\/index-[\w-]+\.js$/);

  for (const encoding of ["br", "gzip"]) {
    const response = await request.get(entry ?? "", { headers: { "accept-encoding": encoding } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-encoding"]).toBe(encoding);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(await response.text()).toContain("import");
  }
});
