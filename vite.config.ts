import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// `npm run dev:web` forwards API calls to the server of `npm run dev:server` (API_PORT, default 3000).
const apiOrigin = `http://localhost:${process.env.API_PORT ?? "3000"}`;

/**
 * Writes the app's stylesheet into index.html rather than linking it, so that the page paints its
 * header (index.html's shell) as soon as it arrives, a round trip earlier. index.html is sent
 * uncompressed: kept under about 13 KB, it still arrives in the first round trip, which is why the
 * styles of the track and plan pages travel with their own code instead.
 *
 * A chunk loaded lazily from another lazy chunk (a lesson's questions, from the track page) lists
 * the entry's stylesheet among what it needs before it runs; that file is gone, and the page has
 * its rules already. Its name is swapped for the entry's script, which the page has loaded too (a
 * modulepreload of it costs no request).
 */
function inlineStylesheet(): Plugin {
  const inlined = new Set<string>();
  return {
    name: "inline-stylesheet",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (link, fileName: string) => {
          const stylesheet = bundle[fileName];
          if (stylesheet?.type !== "asset" || typeof stylesheet.source !== "string") return link;
          // The file itself is no longer needed. (Rollup's bundle is a record keyed by file name.)
          // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
          delete bundle[fileName];
          inlined.add(fileName);
          return `<style>${stylesheet.source}</style>`;
        });
      },
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) return;
        for (const chunk of chunks) {
          for (const fileName of inlined) chunk.code = chunk.code.replaceAll(`"${fileName}"`, `"${entry.fileName}"`);
        }
      },
    },
  };
}

/**
 * The web app manifest and the service worker (docs/decisions/020-offline-with-a-service-worker.md):
 * Workbox's modules in src/sw/service-worker.ts, bundled by vite-plugin-pwa, which lists the app
 * files for it to precache: only the two scripts every page starts with, which the first visit has
 * just downloaded; index.html and a page's own code are kept as they are fetched, so that
 * installing the worker costs a first visit no download of its own (docs/performance.md, "Data"). The app registers the worker itself (lib/service-worker.ts).
 */
const pwa = VitePWA({
  strategies: "injectManifest",
  srcDir: "../sw",
  filename: "service-worker.ts",
  registerType: "prompt",
  injectRegister: false,
  manifestFilename: "manifest.webmanifest",
  includeManifestIcons: false,
  manifest: {
    name: "Trading Academy",
    short_name: "Trading Academy",
    description: "Learn to trade in three 4-week programs of videos and quizzes, from your first chart to professional strategies.",
    id: "/",
    start_url: "/program",
    scope: "/",
    display: "standalone",
    // --navy in styles.css, as index.html's theme-color.
    theme_color: "#0b1f3a",
    background_color: "#ffffff",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  },
  injectManifest: {
    globPatterns: ["assets/index-*.js", "assets/vendor-*.js", "assets/app-*.js"],
    // Hashed names: the precache may take them from the browser's cache, not download them again.
    dontCacheBustURLsMatching: /^assets\//,
    rollupFormat: "es",
    minify: true,
    sourcemap: false,
  },
});

export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [react(), inlineStylesheet(), pwa],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    // No source maps: the browser code is public, its sources need not be (docs/operations.md).
    sourcemap: false,
    // Which built files a page's code is (.vite/manifest.json): the server names a program's and a
    // lesson's in the page's Link header (src/server/plugins/spa.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // The libraries every page needs travel together in one cacheable file.
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|zod)[\\/]/ },
            { name: "app", test: /src[\\/](web[\\/](lib|ui[\\/]toast|session)|shared[\\/](plans|section-title|offline|formatters|quiz-option|contracts[\\/](errors|session|site|learning)))/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": apiOrigin, "/dev": apiOrigin },
  },
});
