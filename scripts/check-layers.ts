/**
 * The import-direction check (`npx tsx scripts/check-layers.ts`, run by `npm test`):
 * every module under src/ belongs to one layer, and imports only from its own layer
 * or one below it; and no folder takes part in an import cycle with its siblings (a
 * layer that is a folder must not need what needs it). docs/architecture.md explains
 * the layers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Top to bottom. A path ending in "/" is a folder; otherwise one file. */
export const LAYERS: { name: string; paths: string[] }[] = [
  { name: "composition", paths: ["cli.ts", "compose.ts", "commands/"] },
  { name: "inbound", paths: ["inbound/"] },
  { name: "queue", paths: ["queue/"] },
  { name: "outbound", paths: ["outbound/"] },
  { name: "pipeline", paths: ["pipeline/"] },
  { name: "debug", paths: ["debug/"] },
  { name: "localize", paths: ["localize/"] },
  { name: "audit", paths: ["audit/"] },
  { name: "repo-config", paths: ["repo-config.ts"] },
  { name: "lang", paths: ["lang/"] },
  { name: "llm", paths: ["llm/"] },
  { name: "sandbox", paths: ["sandbox/"] },
  { name: "report", paths: ["report/"] },
  {
    name: "base",
    paths: ["config.ts", "errors.ts", "log.ts", "result.ts", "text.ts", "metrics.ts"],
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

/** Each module under `srcDir` (src-relative, `/`-separated) with the src-relative modules it imports. */
function importGraph(srcDir: string): Map<string, { imports: string; target: string }[]> {
  const graph = new Map<string, { imports: string; target: string }[]>();
  for (const file of sourceFiles(srcDir)) {
    const rel = relative(srcDir, file).split("\\").join("/");
    const edges = ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.filter(({ fileName }) => fileName.startsWith("."))
      .map(({ fileName }) => ({
        imports: fileName,
        target: relative(srcDir, resolve(dirname(file), fileName))
          .split("\\")
          .join("/")
          .replace(/\.js$/, ".ts"),
      }));
    graph.set(rel, edges);
  }
  return graph;
}

/** Every import of a module under `srcDir` that reaches up a layer, and every module outside the layers. */
export function checkLayers(srcDir: string): Violation[] {
  const violations: Violation[] = [];
  const graph = importGraph(srcDir);
  for (const [rel, imports] of graph) {
    const own = layerOf(rel);
    if (own < 0) {
      violations.push({
        file: rel,
        imports: "",
        problem: "belongs to no layer (add it to scripts/check-layers.ts)",
      });
      continue;
    }
    for (const { imports: fileName, target } of imports) {
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
  return [...violations, ...folderCycles(graph)];
}

/** The first path segment below `folder` ("" for src/ itself) of `path`, or undefined when `path` is not under it. */
function childOf(folder: string, path: string): string | undefined {
  const prefix = folder === "" ? "" : `${folder}/`;
  if (!path.startsWith(prefix) || path.startsWith("..")) return undefined;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? rest : `${rest.slice(0, slash)}/`;
}

/**
 * Import cycles between the entries of one folder (its files, and its subfolders taken whole)
 * that pass through a subfolder: a folder that imports from a sibling which imports from it
 * (e.g. `queue/` and `github/`, where `github/inbound` needs the queue and the queue needs
 * `github/outbound`). A cycle among plain files of one folder is a module's business, not a layer's.
 */
export function folderCycles(graph: Map<string, { imports: string; target: string }[]>): Violation[] {
  const folders = new Set<string>([""]);
  for (const file of graph.keys()) {
    const parts = file.split("/").slice(0, -1);
    parts.forEach((_, i) => folders.add(parts.slice(0, i + 1).join("/")));
  }
  const violations: Violation[] = [];
  for (const folder of [...folders].sort()) {
    // The folder's entries and, for each, the siblings it imports from, with one import as the witness.
    const edges = new Map<string, Map<string, { file: string; imports: string }>>();
    for (const [file, imports] of graph) {
      const from = childOf(folder, file);
      if (from === undefined) continue;
      for (const { imports: spec, target } of imports) {
        const to = childOf(folder, target);
        if (to === undefined || to === from) continue;
        const out = edges.get(from) ?? new Map<string, { file: string; imports: string }>();
        if (!out.has(to)) out.set(to, { file, imports: spec });
        edges.set(from, out);
      }
    }
    for (const cycle of stronglyConnected(edges)) {
      if (cycle.length < 2 || !cycle.some((entry) => entry.endsWith("/"))) continue;
      const members = new Set(cycle);
      const at = (name: string) => (folder === "" ? name : `${folder}/${name}`);
      const names = [...cycle].sort().map(at);
      for (const from of [...cycle].sort()) {
        for (const [to, witness] of edges.get(from) ?? []) {
          if (!members.has(to)) continue;
          violations.push({
            file: witness.file,
            imports: witness.imports,
            problem: `folder-level import cycle between ${names.join(", ")}: ${at(from)} imports ${at(to)}`,
          });
        }
      }
    }
  }
  return violations;
}

/** Tarjan's strongly connected components of a small graph. */
function stronglyConnected(edges: Map<string, Map<string, unknown>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return components;
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
