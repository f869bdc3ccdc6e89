// The front end: the gzipped JavaScript the browser loads for `/`, read from the built files, and
// Lighthouse's four category scores for a few pages, in Debian's Chromium.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags, type Result } from "lighthouse";

// ---------------------------------------------------------------------------------------------
// Bundle size

export type BundleFile = { path: string; via: string; bytes: number; gzipBytes: number };
export type Bundle = { scripts: BundleFile[]; styles: BundleFile[]; gzipTotal: number; bytesTotal: number };

function attribute(tag: string, name: string): string | null {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(tag)?.[1] ?? null;
}

/** Static imports and re-exports of a built ES module ("./x.js"); dynamic import() is left out. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bimport\s*(?:[\w$*{}\s,]*?\bfrom\s*)?(["'`])(\.{1,2}\/[^"'`]+)\1/g,
    /\bexport\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(["'`])(\.{1,2}\/[^"'`]+)\1/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) if (match[2]) found.add(match[2]);
  }
  return [...found];
}

export function measureFile(webDir: string, urlPath: string, via: string): BundleFile {
  const file = join(webDir, urlPath);
  if (!existsSync(file)) throw new Error(`${urlPath} (named by index.html or an import) is not in ${webDir}`);
  const content = readFileSync(file);
  return { path: urlPath, via, bytes: content.length, gzipBytes: gzipSync(content).length };
}

/**
 * What `/` loads before the app runs: index.html's module entry and modulepreload links, and
 * every module they import statically, each gzipped with zlib's default level.
 */
export function measureBundle(webDir: string): Bundle {
  const html = readFileSync(join(webDir, "index.html"), "utf8");
  const scripts = new Map<string, BundleFile>();
  const styles: BundleFile[] = [];
  const queue: { path: string; via: string }[] = [];

  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, "src");
    if (src && /type\s*=\s*["']module["']/i.test(tag)) queue.push({ path: src, via: "entry (script)" });
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, "rel");
    const href = attribute(tag, "href");
    if (!href || href.startsWith("http")) continue;
    if (rel === "modulepreload") queue.push({ path: href, via: "modulepreload" });
    if (rel === "stylesheet") styles.push(measureFile(webDir, href, "stylesheet"));
  }
  if (queue.length === 0) throw new Error(`no module script in ${join(webDir, "index.html")}`);

  for (let next = queue.shift(); next; next = queue.shift()) {
    const path = posix.normalize(next.path.split("?")[0] ?? next.path);
    if (scripts.has(path)) continue;
    const file = measureFile(webDir, path, next.via);
    scripts.set(path, file);
    const code = readFileSync(join(webDir, path), "utf8");
    for (const specifier of staticImports(code)) {
      queue.push({ path: posix.join(posix.dirname(path), specifier), via: `imported by ${posix.basename(path)}` });
    }
  }
  const list = [...scripts.values()];
  return {
    scripts: list,
    styles,
    gzipTotal: list.reduce((sum, file) => sum + file.gzipBytes, 0),
    bytesTotal: list.reduce((sum, file) => sum + file.bytes, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

export const LIGHTHOUSE_CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof LIGHTHOUSE_CATEGORIES)[number];

export type LighthousePage = { path: string; cookie?: string };

export type LighthouseResult = {
  path: string;
  signedIn: boolean;
  /** 0 to 100, null when Lighthouse could not score the category. */
  scores: Record<Category, number | null>;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Audits scored under 0.9, by category, for the categories not at 100. */
  failing: Partial<Record<Category, string[]>>;
  /** Same-origin scripts the page loaded, with the bytes that went over the wire for each. */
  scriptsLoaded: { path: string; transferBytes: number }[];
  warnings: string[];
  runs: number;
};

function numeric(lhr: Result, id: string): number {
  return lhr.audits[id]?.numericValue ?? Number.NaN;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function scriptsLoaded(lhr: Result, origin: string): { path: string; transferBytes: number }[] {
  const details: unknown = lhr.audits["network-requests"]?.details;
  const items = isRecord(details) && Array.isArray(details.items) ? details.items : [];
  const scripts: { path: string; transferBytes: number }[] = [];
  for (const item of items) {
    if (!isRecord(item) || item.resourceType !== "Script" || typeof item.url !== "string") continue;
    const url = new URL(item.url);
    const transferBytes = typeof item.transferSize === "number" ? item.transferSize : Number.NaN;
    if (url.origin === origin) scripts.push({ path: url.pathname, transferBytes });
  }
  return scripts;
}

function failingAudits(lhr: Result, category: Category): string[] {
  const refs = [...(lhr.categories[category]?.auditRefs ?? [])].sort((a, b) => b.weight - a.weight);
  const failing: string[] = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 0.9) continue;
    if (["notApplicable", "manual", "informative"].includes(audit.scoreDisplayMode)) continue;
    failing.push(`${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
  }
  return failing.slice(0, 6);
}

function summarize(lhr: Result, page: LighthousePage, origin: string, runs: number): LighthouseResult {
  const scores = Object.fromEntries(
    LIGHTHOUSE_CATEGORIES.map((category) => {
      const score = lhr.categories[category]?.score;
      return [category, typeof score === "number" ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;
  const failing: Partial<Record<Category, string[]>> = {};
  for (const category of LIGHTHOUSE_CATEGORIES) {
    if (scores[category] !== 100) failing[category] = failingAudits(lhr, category);
  }
  return {
    path: page.path,
    signedIn: Boolean(page.cookie),
    scores,
    metrics: {
      fcpMs: numeric(lhr, "first-contentful-paint"),
      lcpMs: numeric(lhr, "largest-contentful-paint"),
      tbtMs: numeric(lhr, "total-blocking-time"),
      cls: numeric(lhr, "cumulative-layout-shift"),
      speedIndexMs: numeric(lhr, "speed-index"),
    },
    failing,
    scriptsLoaded: scriptsLoaded(lhr, origin),
    warnings: [
      ...(lhr.runtimeError ? [`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`] : []),
      ...lhr.runWarnings.filter((warning) => warning !== lhr.runtimeError?.message),
    ],
    runs,
  };
}

/**
 * The app reads index.html once, at start-up: should dist/web be rebuilt while it runs, the page
 * names scripts that are gone and never paints. Said plainly here rather than as Lighthouse's NO_FCP.
 */
async function checkServedAssets(base: string): Promise<void> {
  const html = await (await fetch(`${base}/`)).text();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, "src");
    if (!src || src.startsWith("http")) continue;
    const response = await fetch(`${base}${src}`, { method: "HEAD" });
    if (!response.ok) {
      throw new Error(`the app's index.html names ${src}, which answers ${response.status}: was dist/web rebuilt while the app ran?`);
    }
  }
}

/** BENCH_LIGHTHOUSE_JSON=folder keeps every run's full report there, to find what an audit blames. */
function keepReport(lhr: Result, path: string, run: number): void {
  const folder = process.env.BENCH_LIGHTHOUSE_JSON;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  const name = path.replaceAll(/[^a-z0-9]+/gi, "-").replaceAll(/^-|-$/g, "") || "home";
  writeFileSync(join(folder, `${name}-${run}.json`), JSON.stringify(lhr));
}

export type LighthouseOptions = { chromiumPath: string; runsPerPage: number; log: (line: string) => void };

export const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu"];

/**
 * Lighthouse's default (mobile) configuration, with its simulated throttling, on each page; of
 * several runs, the one with the median performance score is kept.
 */
export async function runLighthouse(
  base: string,
  pages: LighthousePage[],
  options: LighthouseOptions,
): Promise<{ version: string; results: LighthouseResult[] }> {
  if (!existsSync(options.chromiumPath)) throw new Error(`no Chromium at ${options.chromiumPath}`);
  await checkServedAssets(base);
  const chrome = await chromeLauncher.launch({ chromePath: options.chromiumPath, chromeFlags: CHROMIUM_FLAGS });
  const results: LighthouseResult[] = [];
  let version = "unknown";
  try {
    for (const page of pages) {
      const runs: Result[] = [];
      for (let run = 0; run < options.runsPerPage; run++) {
        const flags: Flags = {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: [...LIGHTHOUSE_CATEGORIES],
          ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
        };
        // A run that ends in a runtime error (e.g. NO_FCP) is tried once more.
        let lhr: Result | undefined;
        for (let attempt = 1; attempt <= 2; attempt++) {
          const answer = await lighthouse(`${base}${page.path}`, flags);
          if (!answer) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          lhr = answer.lhr;
          if (!lhr.runtimeError) break;
          options.log(`  lighthouse ${page.path} run ${run + 1}: ${lhr.runtimeError.code}${attempt === 1 ? ", trying again" : ""}`);
        }
        if (!lhr) continue;
        version = lhr.lighthouseVersion;
        keepReport(lhr, page.path, run + 1);
        runs.push(lhr);
        options.log(`  lighthouse ${page.path} run ${run + 1}: performance ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}`);
      }
      runs.sort(
        (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
      );
      const median = runs[Math.floor(runs.length / 2)];
      if (median) results.push(summarize(median, page, base, runs.length));
    }
  } finally {
    chrome.kill();
  }
  return { version, results };
}
