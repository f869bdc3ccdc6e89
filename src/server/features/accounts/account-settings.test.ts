import { describe, expect, it } from "vitest";
import { redactPerson } from "./account-deletion.ts";
import { describeUserAgent } from "./account-settings.service.ts";

describe("describeUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36", "Chrome on Windows"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0", "Edge on Windows"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "Safari on iOS"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on macOS"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36", "Chrome on Linux"],
    ["curl/8.5.0", "Unknown device"],
    [null, "Unknown device"],
  ])("%s reads as %s", (userAgent, device) => {
    expect(describeUserAgent(userAgent)).toBe(device);
  });
});

describe("redactPerson", () => {
  const person = { email: "ama.m@example.com", name: "Ama Mensah" };

  it("replaces the email in any case and the name as a whole word, in values only", () => {
    expect(
      redactPerson(
        { reason: "asked by AMA.M@example.com", list: ["Ama Mensah paid", "Ama Mensahs"], "Ama Mensah": 3, n: 1 },
        person,
      ),
    ).toEqual({ reason: "asked by [deleted account]", list: ["[deleted account] paid", "Ama Mensahs"], "Ama Mensah": 3, n: 1 });
  });

  it("leaves a one-letter name alone", () => {
    expect(redactPerson("A plan set", { email: "x@example.com", name: "A" })).toBe("A plan set");
  });
});
