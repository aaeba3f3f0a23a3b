import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseShellWords } from "shell-quote";
import { parse } from "yaml";
import { z } from "zod";
import { UserError } from "./errors.js";

export const REPO_CONFIG_PATH = ".github/hypofix.yml";

const command = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).superRefine((c, ctx) => {
  const problem = argvProblem(c);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a path inside the repository");

/** `.github/hypofix.yml`: what a repository may tell Hypofix. Unknown keys are an error, not ignored. */
export const repoConfigSchema = z
  .object({
    language: z.literal("python").default("python"),
    /**
     * How CI runs the tests, as a string (shell words, no shell) or an argv list. Hypofix runs
     * pytest itself, so only `pytest ...` / `python -m pytest ...` with the options of
     * `testSelection` are accepted.
     */
    test_command: command
      .superRefine((c, ctx) => {
        try {
          testSelection(c);
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          ctx.addIssue({ code: "custom", message: err.oneLine() });
        }
      })
      .optional(),
    /** Run with network before tests, e.g. `pip install -e .`. */
    setup_command: command.optional(),
    /** Directories or files a patch may touch; empty means the whole repository (only .py; tests, CI and build files never). */
    source_paths: z.array(relPath).default([]),
    /** Directories or files never localized into nor patched. */
    ignore_paths: z.array(relPath).default([]),
    /** Scientific-debugging steps (`s` in the paper) for the llm engine. */
    max_iterations: z.number().int().min(1).max(20).default(3),
    /** Patch candidates the llm engine asks for. */
    patches: z.number().int().min(1).max(20).default(10),
    /** Experiments the offline engine may run. */
    max_experiments: z.number().int().min(1).max(1000).default(80),
    /** Open a pull request with a validated fix, or only comment. */
    mode: z.enum(["pull-request", "comment"]).default("pull-request"),
    /** Reruns of a failing test before repair. */
    reruns: z.number().int().min(1).max(10).default(3),
    /** Python minor version of the environment, e.g. "3.13"; else requires-python, the CI job's, the default. */
    python_version: z
      .union([z.string(), z.number()])
      .transform(String)
      .pipe(
        z
          .string()
          .regex(
            /^3\.([6-9]|1\d)$/,
            'must be a Python minor version such as "3.11" (quoted: unquoted 3.10 is the number 3.1)',
          ),
      )
      .optional(),
    /** Where setup and tests run, relative to the repository root (a monorepo's project folder). */
    working_directory: relPath.optional(),
    /**
     * Head commits from forks: `comment` reproduces and explains in a comment (never a branch,
     * a pull request or a setup with network); `off` does not run them at all.
     */
    forks: z.enum(["comment", "off"]).default("comment"),
  })
  .strict();

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema.parse({});

/** Parses the file's text; anything invalid is one UserError naming every problem. */
export function parseRepoConfig(text: string): RepoConfig {
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new UserError(`${REPO_CONFIG_PATH} is not valid YAML: ${message}`, "fix the file or delete it");
  }
  return validateRepoConfig(data);
}

/** Validates configuration data (the parsed file, or what the App's loader merged); one UserError for every problem. */
export function validateRepoConfig(data: unknown): RepoConfig {
  const parsed = repoConfigSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`);
    throw new UserError(
      `${REPO_CONFIG_PATH} is invalid: ${problems.join("; ")}`,
      "see README, Per-repository configuration",
    );
  }
  return parsed.data;
}

/** Reads `.github/hypofix.yml` from a checkout; defaults when there is none. */
export async function loadRepoConfig(repoDir: string): Promise<RepoConfig> {
  const text = await readFile(join(repoDir, REPO_CONFIG_PATH), "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  return text === undefined ? DEFAULT_REPO_CONFIG : parseRepoConfig(text);
}

/** Why a command cannot be turned into argv (shell operators, globs, comments), or undefined. */
function argvProblem(c: string | string[]): string | undefined {
  if (Array.isArray(c)) return undefined;
  const words = parseShellWords(c, (name) => `$${name}`);
  const special = words.find((w) => typeof w !== "string");
  if (!special) return words.length === 0 ? "is empty" : undefined;
  if ("comment" in special) return "must not contain a comment (#)";
  if (special.op === "glob")
    return `must not contain a glob (${special.pattern}): no shell expands it; name the files or folders`;
  return `must be one command without shell operators (found ${special.op}): no shell runs it`;
}

/**
 * The argv form of a command: a string is split into shell words (quotes respected,
 * `$VAR` kept literally, no shell ever runs it); the schema refuses operators and globs.
 */
export function commandArgv(c: string | string[] | undefined): string[] | undefined {
  if (c === undefined) return undefined;
  if (Array.isArray(c)) return c;
  const problem = argvProblem(c);
  if (problem) throw new UserError(`the command ${JSON.stringify(c)} ${problem}`);
  return parseShellWords(c, (name) => `$${name}`) as string[];
}

/** pytest options that choose tests: kept, with their value. */
const SELECTING = new Set(["-k", "-m", "--deselect", "--ignore"]);
/** Output and stop options: accepted and dropped, because Hypofix runs the whole selection its own way. */
const IGNORED =
  /^(-[qvxslr]+[a-zA-Z]*|--quiet|--verbose|--exitfirst|--showlocals|--no-header|--strict-markers|--disable-warnings|--(tb|capture|color|maxfail|durations)=\S+)$/;
const IGNORED_WITH_VALUE = new Set(["--tb", "--maxfail", "--durations", "--capture", "--color"]);
const PYTHON = /^python(3(\.\d+)?)?$/;

/**
 * The pytest arguments a `test_command` selects tests with: paths and node ids,
 * `-k EXPR`, `-m MARK`, `--deselect ID`, `--ignore PATH`. Forms: `pytest ...`,
 * `py.test ...`, `python -m pytest ...` (also `python3`, `python3.11`). Output
 * options (`-q`, `-v`, `-x`, `--tb=short`, ...) are accepted and dropped; anything
 * else is a UserError saying what is supported.
 */
export function testSelection(c: string | string[]): string[] {
  const argv = commandArgv(c)!;
  const rest =
    argv[0] === "pytest" || argv[0] === "py.test"
      ? argv.slice(1)
      : PYTHON.test(argv[0] ?? "") && argv[1] === "-m" && argv[2] === "pytest"
        ? argv.slice(3)
        : undefined;
  const supported =
    "pytest [paths or node ids] [-k EXPR] [-m MARK] [--deselect ID] [--ignore PATH] [-q|-v|-x]";
  if (!rest) {
    throw new UserError(`must run pytest, not ${JSON.stringify(argv.join(" "))}`, `use ${supported}`);
  }
  const selection: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith("--")
      ? splitLong(arg)
      : [arg.slice(0, 2), arg.slice(2) || undefined];
    if (SELECTING.has(flag)) {
      const value = inline ?? rest[++i];
      if (value === undefined || value === "")
        throw new UserError(`${flag} needs a value`, `use ${supported}`);
      if ((flag === "--deselect" || flag === "--ignore") && !insideRepo(value)) {
        throw new UserError(`${flag} ${value} must be a path inside the repository`);
      }
      selection.push(flag, value);
    } else if (IGNORED_WITH_VALUE.has(arg)) {
      i++;
    } else if (IGNORED.test(arg)) {
      continue;
    } else if (arg.startsWith("-")) {
      throw new UserError(`the pytest option ${arg} is not supported`, `use ${supported}`);
    } else if (!insideRepo(arg)) {
      throw new UserError(`${arg} must be a path or node id inside the repository`);
    } else {
      selection.push(arg);
    }
  }
  return selection;
}

function splitLong(arg: string): [string, string | undefined] {
  const eq = arg.indexOf("=");
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function insideRepo(path: string): boolean {
  const file = path.split("::")[0]!;
  return !file.startsWith("/") && !file.split("/").includes("..");
}
