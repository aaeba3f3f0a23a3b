import { satisfies, valid } from "@renovatebot/pep440";
import { decode as parseIni } from "ini";
import { parse as parseToml } from "smol-toml";
import type { SetupPlan } from "../types.js";

/*
 * What a Python project says about its environment, read from its files as text
 * (pure: the caller reads the files). Used by the environment phase.
 */

/** Files whose content decides an environment: a change to any of them builds a new one. */
export const DEPENDENCY_FILE =
  /^(requirements[^/]*\.txt|pyproject\.toml|setup\.cfg|setup\.py|poetry\.lock|uv\.lock|Pipfile\.lock)$/;

/** Extras tried, in order, for `pip install -e '.[extra]'`. */
export const TEST_EXTRAS = ["test", "tests", "dev"] as const;

/**
 * The setup when the configuration names none (README, "Setup"): first every
 * requirements*.txt of the working directory (requirements.txt, then the others
 * by name), then, when the directory is an installable project (pyproject.toml with
 * [project] or [build-system], or setup.py), `pip install -e '.[extra]'` with
 * the first of test, tests, dev it declares, else `pip install -e .`. Nothing: undefined.
 */
export function detectSetup(files: ReadonlyMap<string, string>): SetupPlan | undefined {
  const requirements = [...files.keys()]
    .filter((name) => /^requirements[^/]*\.txt$/.test(name))
    .sort((a, b) => (a === "requirements.txt" ? -1 : b === "requirements.txt" ? 1 : a.localeCompare(b)));
  const commands = requirements.map((name) => ["pip", "install", "-r", name]);
  const found = [...requirements];
  const project = installable(files);
  if (project) {
    const extras = declaredExtras(files);
    const extra = TEST_EXTRAS.find((e) => extras.has(e));
    commands.push(["pip", "install", "-e", extra ? `.[${extra}]` : "."]);
    found.push(extra ? `${project} [${extra}]` : project);
  }
  return commands.length > 0 ? { commands, source: `detected: ${found.join(", ")}` } : undefined;
}

/**
 * The file that makes the directory pip-installable, if one does. A setup.cfg alone
 * never does: pip refuses a folder with neither setup.py nor pyproject.toml, and many
 * repositories keep a setup.cfg only for tool settings ([tool:pytest], [flake8]).
 */
function installable(files: ReadonlyMap<string, string>): string | undefined {
  const pyproject = tomlOf(files.get("pyproject.toml"));
  if (pyproject && ("project" in pyproject || "build-system" in pyproject)) return "pyproject.toml";
  if (files.has("setup.py")) return "setup.py";
  return undefined;
}

/** Extras named in pyproject.toml ([project.optional-dependencies], Poetry's extras) and setup.cfg. */
export function declaredExtras(files: ReadonlyMap<string, string>): Set<string> {
  const names = new Set<string>();
  const pyproject = tomlOf(files.get("pyproject.toml"));
  const project = record(pyproject?.project);
  for (const key of Object.keys(record(project?.["optional-dependencies"]) ?? {})) names.add(key);
  const poetry = record(record(pyproject?.tool)?.poetry);
  for (const key of Object.keys(record(poetry?.extras) ?? {})) names.add(key);
  const cfg = files.get("setup.cfg");
  if (cfg !== undefined) {
    // ini nests [options.extras_require] under options; an indented continuation line parses as a key set to true.
    const extras = record(record(parseIni(cfg).options)?.extras_require) ?? {};
    for (const [key, value] of Object.entries(extras)) if (typeof value === "string") names.add(key.trim());
  }
  return names;
}

/** `requires-python` of pyproject.toml ([project], else Poetry's `python` dependency). */
export function requiresPython(pyprojectText: string | undefined): string | undefined {
  const pyproject = tomlOf(pyprojectText);
  const declared = record(pyproject?.project)?.["requires-python"];
  if (typeof declared === "string") return declared;
  const poetryPython = record(record(record(pyproject?.tool)?.poetry)?.dependencies)?.python;
  return typeof poetryPython === "string" && !/[\^~*]/.test(poetryPython) ? poetryPython : undefined;
}

/**
 * The Python minor version a failed CI job ran, from its log: pytest's session
 * header first (what the tests ran on), then actions/setup-python's lines.
 */
export function pythonFromCiLog(log: string | undefined): string | undefined {
  if (!log) return undefined;
  const patterns = [
    /platform \S+ -- Python (3\.\d+)/,
    /Successfully set up CPython \((3\.\d+)/,
    /python-version:\s*["']?(3\.\d+)\b/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(log);
    if (match) return match[1];
  }
  return undefined;
}

/** Sorts "3.9" < "3.11" < "3.13". */
export function compareMinor(a: string, b: string): number {
  const [a1 = 0, a2 = 0] = a.split(".").map(Number);
  const [b1 = 0, b2 = 0] = b.split(".").map(Number);
  return a1 - b1 || a2 - b2;
}

/** True when some release of minor version `version` (x.y.0 or a late x.y.z) satisfies the specifier. */
export function minorSatisfies(version: string, specifier: string): boolean {
  return [`${version}.0`, `${version}.99`].some((v) => valid(v) !== null && satisfies(v, specifier));
}

export interface PythonChoice {
  version: string;
  /** Why this version: "python_version", "requires-python", "CI log", "default". */
  reason: "python_version" | "requires-python" | "CI log" | "default";
  /** What was asked, when the available images could not match it exactly. */
  asked?: string;
}

/**
 * Picks the Python of the environment among the `available` minor versions:
 * `python_version` of the configuration, else pyproject's `requires-python` (the
 * default when it satisfies it, else the oldest that does), else the CI job's
 * version, else the default. An asked version without an image gets the next newer
 * one (or the newest), and the choice says what was asked.
 */
export function choosePython(options: {
  available: string[];
  fallback: string;
  configured?: string;
  requires?: string;
  ciLog?: string;
}): PythonChoice {
  const available = [...new Set(options.available)].sort(compareMinor);
  const nearest = (asked: string) =>
    available.find((v) => compareMinor(v, asked) >= 0) ?? available[available.length - 1] ?? options.fallback;
  const pick = (asked: string, reason: PythonChoice["reason"]): PythonChoice => {
    const version = available.includes(asked) ? asked : nearest(asked);
    return version === asked ? { version, reason } : { version, reason, asked };
  };
  if (options.configured) return pick(options.configured, "python_version");
  if (options.requires) {
    const spec = options.requires;
    if (minorSatisfies(options.fallback, spec))
      return { version: options.fallback, reason: "requires-python" };
    const match = available.find((v) => minorSatisfies(v, spec));
    return match
      ? { version: match, reason: "requires-python" }
      : {
          version: available[available.length - 1] ?? options.fallback,
          reason: "requires-python",
          asked: spec,
        };
  }
  const fromCi = pythonFromCiLog(options.ciLog);
  if (fromCi) return pick(fromCi, "CI log");
  return { version: options.fallback, reason: "default" };
}

function tomlOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return parseToml(text);
  } catch {
    return undefined; // a broken pyproject.toml is pip's error to report, in the setup's log
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
