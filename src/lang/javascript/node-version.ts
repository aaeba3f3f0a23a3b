import { gtr, intersects, major, rcompare, satisfies, validRange } from "semver";
import { jsonRecord, list, record, yamlRecord } from "./data.js";

/*
 * Which Node.js the environment of a JavaScript project gets, from what its files
 * and its CI say (pure: the caller reads the files and lists the images present).
 */

/** The Node major used when nothing names one. */
export const DEFAULT_NODE = "20";

/** nvm's and setup-node's names of the LTS lines (`lts/iron`). */
const LTS_CODENAMES: Record<string, number> = {
  argon: 4,
  boron: 6,
  carbon: 8,
  dubnium: 10,
  erbium: 12,
  fermium: 14,
  gallium: 16,
  hydrogen: 18,
  iron: 20,
  jod: 22,
  krypton: 24,
};

export type NodeReason =
  | "node_version"
  | "CI log"
  | ".nvmrc"
  | ".node-version"
  | ".tool-versions"
  | "volta"
  | "workflow"
  | "engines"
  | "default";

export interface NodeChoice {
  /** One of the available versions, e.g. "20.20.2". */
  version: string;
  reason: NodeReason;
  /** What was asked, when no available version satisfies it. */
  asked?: string;
}

export interface NodeSources {
  /** Full versions of the Node images present (their org.hypofix.node labels). */
  available: string[];
  /** Used when no source names a version; default DEFAULT_NODE. */
  fallback?: string;
  /** A version the configuration names. */
  configured?: string;
  /** The failed CI job's log. */
  ciLog?: string;
  /** Texts of the files, when present. */
  nvmrc?: string;
  nodeVersionFile?: string;
  toolVersions?: string;
  packageJson?: string;
  /** Texts of the repository's workflow files (.github/workflows/*.yml). */
  workflows?: string[];
}

/**
 * The Node of the environment among the available versions, from the first source
 * that names one: the configuration, the version the failed CI job ran (its log), the
 * project's pins (.nvmrc, .node-version, asdf's .tool-versions, Volta's `volta.node`),
 * the workflows' `actions/setup-node` versions, `engines.node`, else the fallback. Pins
 * outrank the ranges: they say what the project runs, a range only what it allows.
 * A source is matched by the newest available version that satisfies it, else by the
 * newest of a major it allows (a pin to 18.17.0 gets 18.20.8), else by the next newer
 * version (or the newest), and the choice then says what was asked. A value that is no
 * version or range (a typo, `lts/-1`) is passed over. Undefined when nothing is available.
 */
export function chooseNode(sources: NodeSources): NodeChoice | undefined {
  const available = [...new Set(sources.available)].sort(rcompare);
  if (available.length === 0) return undefined;
  const manifest = jsonRecord(sources.packageJson);
  const workflowSpecs = [...new Set((sources.workflows ?? []).flatMap(setupNodeVersions))];
  const candidates: [NodeReason, string | undefined][] = [
    ["node_version", sources.configured],
    ["CI log", nodeFromCiLog(sources.ciLog)],
    [".nvmrc", versionFileSpec(sources.nvmrc)],
    [".node-version", versionFileSpec(sources.nodeVersionFile)],
    [".tool-versions", toolVersionsNode(sources.toolVersions)],
    ["volta", stringAt(manifest, "volta", "node")],
    ["workflow", workflowSpecs.length > 0 ? workflowSpecs.join(" || ") : undefined],
    ["engines", stringAt(manifest, "engines", "node")],
    ["default", sources.fallback ?? DEFAULT_NODE],
  ];
  for (const [reason, spec] of candidates) {
    if (spec === undefined) continue;
    const match = matchNode(spec, available);
    if (match) return { version: match.version, reason, ...(match.exact ? {} : { asked: spec }) };
  }
  return { version: available[0]!, reason: "default" };
}

/**
 * The available version a spec (a version, a semver range, `lts/*`, `lts/<codename>`,
 * `node`, several joined by `||`) gets, with whether it satisfies the spec. Undefined
 * when the spec is not one.
 */
export function matchNode(
  spec: string,
  available: string[],
): { version: string; exact: boolean } | undefined {
  const versions = [...available].sort(rcompare);
  const alternatives = spec
    .split("||")
    .map((part) => toRange(part.trim()))
    .filter((r) => r !== undefined);
  if (alternatives.length === 0 || versions.length === 0) return undefined;
  const admits = (v: string) => alternatives.some((r) => r.admits(v));
  const exact = versions.find(admits);
  if (exact) return { version: exact, exact: true };
  const sameMajor = versions.find((v) => alternatives.some((r) => r.admitsMajor(major(v))));
  if (sameMajor) return { version: sameMajor, exact: false };
  const newer = versions.filter((v) => alternatives.every((r) => r.below(v)));
  return { version: newer[newer.length - 1] ?? versions[0]!, exact: false };
}

interface NodeRange {
  admits: (version: string) => boolean;
  admitsMajor: (major: number) => boolean;
  /** True when every version the range allows is older than `version`. */
  below: (version: string) => boolean;
}

function toRange(text: string): NodeRange | undefined {
  const spec = text.toLowerCase();
  if (["node", "latest", "current", "stable", "*"].includes(spec)) return semverRange("*");
  if (spec === "lts" || spec === "lts/*") {
    // Every LTS line has an even major.
    return {
      admits: (v) => major(v) % 2 === 0,
      admitsMajor: (m) => m % 2 === 0,
      below: () => false,
    };
  }
  const lts = /^lts\/([a-z]+)$/.exec(spec);
  if (lts) {
    const line = LTS_CODENAMES[lts[1]!];
    return line === undefined ? undefined : semverRange(String(line));
  }
  return semverRange(spec);
}

function semverRange(spec: string): NodeRange | undefined {
  const range = validRange(spec);
  if (range === null) return undefined;
  return {
    admits: (v) => satisfies(v, range),
    admitsMajor: (m) => intersects(range, `${m}.x`),
    below: (v) => gtr(v, range),
  };
}

/** The version an .nvmrc or .node-version names: its first line that is not a comment. */
export function versionFileSpec(text: string | undefined): string | undefined {
  const line = text
    ?.split(/\r?\n/)
    .map((l) => l.replace(/#.*/, "").trim())
    .find((l) => l.length > 0);
  return line || undefined;
}

/** The `nodejs` (or `node`) line of asdf's / mise's .tool-versions: its first version. */
export function toolVersionsNode(text: string | undefined): string | undefined {
  for (const line of text?.split(/\r?\n/) ?? []) {
    const [tool, version] = line.replace(/#.*/, "").trim().split(/\s+/);
    if ((tool === "nodejs" || tool === "node") && version) return version;
  }
  return undefined;
}

/**
 * The Node version a failed CI job ran, from its log: actions/setup-node's
 * "Environment details" (`node: v18.20.4`), the tool cache it used or the version it
 * acquired, else the `node-version` input it was given.
 */
export function nodeFromCiLog(log: string | undefined): string | undefined {
  if (!log) return undefined;
  // Each line of a downloaded Actions log starts with a timestamp.
  const text = log.replace(/^\uFEFF?\d{4}-\d\d-\d\dT[\d:.]+Z ?/gm, "");
  const patterns = [
    /^\s*node: v(\d+\.\d+\.\d+)\s*$/m,
    /Found in cache @ \S*?[\\/]node[\\/](\d+\.\d+\.\d+)[\\/]/,
    /Acquiring (\d+\.\d+\.\d+) - /,
    /^\s*node-version:\s*["']?([^"'\s]+)/m,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * The `node-version` inputs of the actions/setup-node steps of a workflow, with
 * `${{ matrix.X }}` expanded over the job's matrix (and its `include` entries) and
 * `${{ env.X }}` from the job's or the workflow's `env`. A broken workflow gives none.
 */
export function setupNodeVersions(workflowText: string): string[] {
  const workflow = yamlRecord(workflowText);
  const found: string[] = [];
  for (const job of Object.values(record(record(workflow)?.jobs) ?? {})) {
    const env = { ...record(record(workflow)?.env), ...record(record(job)?.env) };
    const matrix = record(record(record(job)?.strategy)?.matrix);
    for (const step of list(record(job)?.steps)) {
      const uses = record(step)?.uses;
      if (typeof uses !== "string" || !/^actions\/setup-node@/.test(uses)) continue;
      const input = record(record(step)?.with)?.["node-version"];
      if (input === undefined || input === null) continue;
      for (const value of expand(String(input), matrix, env)) found.push(value);
    }
  }
  return [...new Set(found.map((v) => v.trim()).filter((v) => v.length > 0))];
}

function expand(
  input: string,
  matrix: Record<string, unknown> | undefined,
  env: Record<string, unknown>,
): string[] {
  const expression = /\$\{\{\s*(matrix|env)\.([\w-]+)\s*\}\}/.exec(input);
  if (!expression) return input.includes("${{") ? [] : [input];
  const [whole, scope, key] = expression as unknown as [string, string, string];
  const values =
    scope === "env"
      ? [env[key]]
      : [...list(matrix?.[key]), ...list(matrix?.include).map((entry) => record(entry)?.[key])];
  return values
    .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
    .flatMap((v) => expand(input.replace(whole, String(v)), matrix, env));
}

function stringAt(value: Record<string, unknown> | undefined, ...keys: string[]): string | undefined {
  let at: unknown = value;
  for (const key of keys) at = record(at)?.[key];
  return typeof at === "string" && at.trim() ? at.trim() : undefined;
}
