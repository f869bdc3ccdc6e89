// After `vite build`: writes a .br and a .gz beside every text asset of dist/web, so the server
// hands browsers compressed files (@fastify/static preCompressed) without compressing per request.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { webDistFolder } from "../src/server/paths.ts";

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const folder = process.argv[2] ?? webDistFolder;
let written = 0;
for (const file of await filesUnder(folder)) {
  if (!COMPRESSIBLE.test(file) || file.endsWith(".map")) continue;
  const content = await readFile(file);
  if (content.byteLength < 1024) continue;
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  written++;
}
console.log(`precompressed ${written} files in ${folder}`);
