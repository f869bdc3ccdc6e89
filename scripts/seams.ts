// The seams table of docs/architecture.md, made from the `*.seam.ts` files themselves: each seam's
// path, what it offers (its exports), which features import it and why it is shared (its opening
// comment). `npm run docs:seams` writes it into the page; a unit test (src/seams.test.ts) fails when
// the page and the files disagree.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(import.meta.dirname, "..");
const SIDES = ["server", "web"] as const;
export const ARCHITECTURE = join(ROOT, "docs/architecture.md");
const START = "<!-- seams: made by `npm run docs:seams` from the *.seam.ts files -->";
const END = "<!-- seams: end -->";

type Seam = { side: (typeof SIDES)[number]; path: string; offers: string[]; usedBy: string[]; why: string };

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The opening comment, as one sentence or more, without the "Catalog's seam:" that names it. */
function why(source: string): string {
  const lines = source.split("\n");
  const comment = lines.slice(0, lines.findIndex((line) => !line.startsWith("//"))).map((line) => line.replace(/^\/\/ ?/, ""));
  return comment.join(" ").replace(/^[^:]*seam: /, "");
}

function exportedNames(source: string): string[] {
  return [...source.matchAll(/export\s*\{([^}]*)\}/g)]
    .flatMap((match) => (match[1] ?? "").split(","))
    .map((name) => name.trim().replace(/^type\s+/, ""))
    .filter(Boolean)
    .sort((a, b) => a.localeCompare(b));
}

export function findSeams(): Seam[] {
  return SIDES.flatMap((side) => {
    const src = join(ROOT, "src", side);
    const features = join(src, "features");
    const files = sourceFiles(src);
    return files
      .filter((file) => file.endsWith(".seam.ts"))
      .map((seamFile) => {
        const owner = relative(features, seamFile).split("/")[0];
        const importers = files.filter((file) => {
          const source = readFileSync(file, "utf8");
          return [...source.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)].some((match) => resolve(file, "..", match[1] ?? "") === seamFile);
        });
        // A feature by its folder; outside the features (the CLI), by the folder under src/<side>.
        const userOf = (file: string) => {
          const [top = "", feature = ""] = relative(src, file).split("/");
          return top === "features" ? feature : `${top}/`;
        };
        const usedBy = [...new Set(importers.map(userOf))].filter((user) => user !== owner).sort();
        const source = readFileSync(seamFile, "utf8");
        return { side, path: relative(features, seamFile), offers: exportedNames(source), usedBy, why: why(source) };
      })
      .sort((a, b) => a.path.localeCompare(b.path));
  });
}

export function seamsTable(seams: Seam[] = findSeams()): string {
  const rows = seams.map(
    (seam) => `| ${seam.side} \`${seam.path}\` | ${seam.offers.map((name) => `\`${name}\``).join(", ")} | ${seam.usedBy.join(", ") || "nobody yet"} | ${seam.why} |`,
  );
  return [START, "", "| seam | offers | used by | why it is shared |", "|---|---|---|---|", ...rows, "", END].join("\n");
}

/** The table as docs/architecture.md has it now, or null when the page has lost its markers. */
export function tableInPage(page = readFileSync(ARCHITECTURE, "utf8")): string | null {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  return start === -1 || end === -1 ? null : page.slice(start, end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = readFileSync(ARCHITECTURE, "utf8");
  const current = tableInPage(page);
  if (current === null) throw new Error(`docs/architecture.md has no seams table between its markers (${START} ... ${END})`);
  writeFileSync(ARCHITECTURE, page.replace(current, seamsTable()));
  console.log("docs/architecture.md: seams table written");
}
