/**
 * The import-direction check (`npx tsx scripts/check-layers.ts`, run by `npm test`):
 * every module under src/ belongs to one layer, and imports only from its own layer
 * or one below it. docs/architecture.md explains the layers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Top to bottom. A path ending in "/" is a folder; otherwise one file. */
export const LAYERS: { name: string; paths: string[] }[] = [
  { name: "composition", paths: ["cli.ts", "compose.ts", "commands/"] },
  { name: "github/inbound", paths: ["github/inbound/"] },
  { name: "queue", paths: ["queue/"] },
  { name: "github/outbound", paths: ["github/outbound/"] },
  { name: "pipeline", paths: ["pipeline.ts", "pipeline/"] },
  { name: "debug", paths: ["debug/"] },
  { name: "localize", paths: ["localize/"] },
  { name: "audit", paths: ["audit/"] },
  { name: "lang/python", paths: ["lang/python/"] },
  { name: "lang/javascript", paths: ["lang/javascript/"] },
  { name: "llm", paths: ["llm/"] },
  { name: "sandbox", paths: ["sandbox/"] },
  { name: "report", paths: ["report/"] },
  {
    name: "base",
    paths: ["config.ts", "errors.ts", "log.ts", "result.ts", "repo-config.ts", "text.ts", "metrics.ts"],
  },
];

export interface Violation {
  file: string;
  /** The import as written, or "" when the file belongs to no layer. */
  imports: string;
  problem: string;
}

/** The layer index of a src-relative path, or -1. */
export function layerOf(path: string): number {
  return LAYERS.findIndex((l) => l.paths.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p)));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every import of a module under `srcDir` that reaches up a layer, and every module outside the layers. */
export function checkLayers(srcDir: string): Violation[] {
  const violations: Violation[] = [];
  for (const file of sourceFiles(srcDir)) {
    const rel = relative(srcDir, file).split("\\").join("/");
    const own = layerOf(rel);
    if (own < 0) {
      violations.push({
        file: rel,
        imports: "",
        problem: "belongs to no layer (add it to scripts/check-layers.ts)",
      });
      continue;
    }
    const imports = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
    for (const { fileName } of imports) {
      if (!fileName.startsWith(".")) continue;
      const target = relative(srcDir, resolve(dirname(file), fileName))
        .split("\\")
        .join("/")
        .replace(/\.js$/, ".ts");
      if (target.startsWith("..")) {
        violations.push({ file: rel, imports: fileName, problem: "reaches outside src/" });
        continue;
      }
      const layer = layerOf(target);
      if (layer >= 0 && layer < own) {
        violations.push({
          file: rel,
          imports: fileName,
          problem: `${LAYERS[own]!.name} may not import ${LAYERS[layer]!.name}, a layer above it`,
        });
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
  const violations = checkLayers(src);
  for (const v of violations) {
    process.stderr.write(`layers: src/${v.file}${v.imports ? ` imports ${v.imports}` : ""}: ${v.problem}\n`);
  }
  if (violations.length > 0) process.exit(1);
  process.stderr.write(`layers: ${LAYERS.length} layers, every import points down\n`);
}
