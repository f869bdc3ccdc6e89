// Serves the built browser app: hashed assets cached for a year, index.html for every page.
// Unknown /api routes answer JSON 404; unknown pages get the app's own 404 page with status 404.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Negotiator } from "@fastify/accept-negotiator";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { programPageReads } from "../../shared/program-page-reads.ts";
import { routeAt, ROUTES, type RouteId } from "../../shared/routes.ts";
import { webDistFolder } from "../paths.ts";
import { sendNoRoute } from "./errors.ts";

/** Written by vite-plugin-pwa from src/sw/service-worker.ts. */
const SERVICE_WORKER_FILE = "service-worker.js";

type Encoding = "br" | "gzip" | "identity";
type Shell = Partial<Record<Encoding, Buffer>> & { identity: Buffer };

/** index.html and the compressed copies the build wrote beside it, read once. */
function readShell(): Shell | null {
  const read = (suffix: string) => {
    const path = join(webDistFolder, `index.html${suffix}`);
    return existsSync(path) ? readFileSync(path) : undefined;
  };
  const identity = read("");
  return identity ? { identity, br: read(".br"), gzip: read(".gz") } : null;
}

/** What the build's manifest says of a file (vite.config.ts, `build.manifest`). */
type BuiltChunk = { file: string; css?: string[]; imports?: string[] };

/**
 * For each page whose code loads on demand, its built files that index.html does not already load
 * (its script, the scripts only it imports, its stylesheets), as Link header values. Empty without
 * a manifest (a build from before it was written): pages then load their code as they always did.
 */
function readPageCode(): Map<RouteId, string[]> {
  const byPage = new Map<RouteId, string[]>();
  const path = join(webDistFolder, ".vite", "manifest.json");
  if (!existsSync(path)) return byPage;
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, BuiltChunk>;
  const closure = (key: string, into = new Set<string>()) => {
    if (into.has(key)) return into;
    into.add(key);
    for (const imported of manifest[key]?.imports ?? []) closure(imported, into);
    return into;
  };
  const loadedByThePage = closure("index.html");
  for (const { id, page } of ROUTES) {
    if ("withTheApp" in page || !manifest[page.module]) continue;
    const chunks = [...closure(page.module)]
      .filter((key) => !loadedByThePage.has(key))
      .map((key) => manifest[key])
      .filter((chunk) => chunk !== undefined);
    byPage.set(id, [
      ...chunks.map((chunk) => `</${chunk.file}>; rel=modulepreload`),
      ...chunks.flatMap((chunk) => chunk.css ?? []).map((file) => `</${file}>; rel=preload; as=style`),
    ]);
  }
  return byPage;
}

const encodings = new Negotiator<Encoding>({ supportedValues: ["br", "gzip", "identity"], cache: new Map() });

/** The smallest copy of the shell the browser accepts. */
function shellFor(shell: Shell, request: FastifyRequest): { body: Buffer; encoding: Encoding } {
  const header = request.headers["accept-encoding"];
  const wanted = typeof header === "string" ? encodings.negotiate(header) : null;
  const body = wanted ? shell[wanted] : undefined;
  return wanted && body ? { body, encoding: wanted } : { body: shell.identity, encoding: "identity" };
}

export async function registerSpa(
  app: FastifyInstance,
  options: {
    serveWeb: boolean;
    /** For a page whose address names something (a certificate): false when it does not exist, answered 404. */
    pageExists?: (pathname: string) => Promise<boolean>;
  },
) {
  const indexHtml = options.serveWeb ? readShell() : null;
  const pageCode = indexHtml ? readPageCode() : new Map<RouteId, string[]>();

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: webDistFolder,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each asset (scripts/precompress-web.ts).
      preCompressed: true,
      // The ETag is what revalidates a file; a date and byte ranges beside it are bytes for nothing
      // on every file of a first visit (docs/performance.md, "Data").
      lastModified: false,
      acceptRanges: false,
      setHeaders(reply, path) {
        const immutable = path.startsWith(join(webDistFolder, "assets"));
        // The service worker is asked for on every visit and must be checked each time, so that a
        // new version reaches the learner (docs/decisions/020-offline-with-a-service-worker.md).
        // (`path` is the copy sent: service-worker.js.br or .gz, most of the time.)
        const worker = path.startsWith(join(webDistFolder, SERVICE_WORKER_FILE));
        reply.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : worker ? "no-cache" : "public, max-age=300",
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    if (pathname.startsWith("/api/") || pathname === "/api" || !wantsPage || !indexHtml) {
      return sendNoRoute(request, reply);
    }
    const { body, encoding } = shellFor(indexHtml, request);
    if (encoding !== "identity") reply.header("content-encoding", encoding);
    // Should the check fail (the database unreachable), the page is served and says so itself.
    const exists = options.pageExists ? await options.pageExists(pathname).catch(() => true) : true;
    const route = routeAt(pathname);
    const found = route !== undefined && exists;
    const preloads = found ? pagePreloads(pathname, pageCode.get(route.id) ?? []) : [];
    if (preloads.length > 0) reply.header("link", preloads.join(", "));
    return reply
      .code(found ? 200 : 404)
      .header("cache-control", "no-cache")
      .header("vary", "accept-encoding")
      .type("text/html; charset=utf-8")
      .send(body);
  });
}

/**
 * A page's own code, and a program's or a lesson's first API reads, named in the page's Link header
 * so that the browser asks for them with the page, not after the app's scripts have run
 * (docs/performance.md, "Data"). The reads are fetched as the app fetches them (same origin, with
 * its cookies), so the app's own request finds the answer; a learner without access gets the same
 * refusal the app would.
 */
function pagePreloads(pathname: string, code: string[]): string[] {
  const reads = programPageReads(pathname)?.paths ?? [];
  return [...code, ...reads.map((path) => `<${path}>; rel=preload; as=fetch; crossorigin`)];
}
