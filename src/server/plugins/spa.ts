// Serves the built browser app: hashed assets cached for a year, index.html for every page.
// Unknown /api routes answer JSON 404; unknown pages get the app's own 404 page with status 404.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { isClientRoute } from "../../shared/routes.ts";
import { webDistFolder } from "../paths.ts";
import { sendError } from "./errors.ts";

export async function registerSpa(app: FastifyInstance, options: { serveWeb: boolean }) {
  const indexPath = join(webDistFolder, "index.html");
  const indexHtml = options.serveWeb && existsSync(indexPath) ? readFileSync(indexPath) : null;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: webDistFolder,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each asset (scripts/precompress-web.ts).
      preCompressed: true,
      setHeaders(reply, path) {
        const immutable = path.startsWith(join(webDistFolder, "assets"));
        reply.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "public, max-age=300",
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    if (pathname.startsWith("/api/") || pathname === "/api" || !wantsPage || !indexHtml) {
      return sendError(reply, 404, "NOT_FOUND", `No route for ${request.method} ${pathname}.`);
    }
    return reply
      .code(isClientRoute(pathname) ? 200 : 404)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(indexHtml);
  });
}
