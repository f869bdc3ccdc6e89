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

test("every page's shell is sent compressed when the browser accepts it, and never cached stale", async ({ request }) => {
  const plain = await request.get("/program", { headers: { "accept-encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  const html = await plain.text();
  expect(html).toContain('<div id="root">');

  const cases: [string, string, string | undefined][] = [
    ["/", "gzip, deflate, br", "br"],
    ["/login", "gzip", "gzip"],
    ["/program", "br;q=0, gzip", "gzip"],
    ["/no-such-page", "br", "br"],
    ["/about", "deflate", undefined],
  ];
  for (const [path, accepted, sent] of cases) {
    const response = await request.get(path, { headers: { "accept-encoding": accepted } });
    expect(response.status(), path).toBe(path === "/no-such-page" ? 404 : 200);
    expect(response.headers()["content-encoding"], `${path} with ${accepted}`).toBe(sent);
    expect(response.headers()["vary"]).toContain("accept-encoding");
    expect(response.headers()["cache-control"]).toBe("no-cache");
    expect(await response.text(), path).toBe(html);
  }
});
