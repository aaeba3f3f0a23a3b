import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseShellWords } from "shell-quote";
import { parse } from "yaml";
import { z } from "zod";
import { UserError } from "./errors.js";
import { languageById, languageConfigKeys, languages, testSelectionOf } from "./lang/registry.js";

export const REPO_CONFIG_PATH = ".github/hypofix.yml";

const command = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).superRefine((c, ctx) => {
  const problem = argvProblem(c);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a path inside the repository");

/**
 * `.github/hypofix.yml`: what a repository may tell Hypofix, beside the keys its language
 * adds (`Language.configKeys`, e.g. Python's `python_version`). Unknown keys are an error, not ignored.
 */
const baseShape = {
  /** The repository's language (a registered language's id); absent: detected from its files. */
  language: z
    .string()
    .refine((id) => languageById(id) !== undefined, {
      error: () =>
        `must be one of: ${languages()
          .map((l) => l.id)
          .join(", ")}`,
    })
    .optional(),
  /**
   * How CI runs the tests, as a string (shell words, no shell) or an argv list. Hypofix runs
   * the tests itself, so only a command of the language's test runner with the options its
   * `testSelection` accepts is (Python: `pytest ...` / `python -m pytest ...`).
   */
  test_command: command
    .superRefine((c, ctx) => {
      try {
        testSelectionOf(commandArgv(c)!);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        ctx.addIssue({ code: "custom", message: err.oneLine() });
      }
    })
    .optional(),
  /** Run with network before tests, e.g. `pip install -e .`. */
  setup_command: command.optional(),
  /** Directories or files a patch may touch; empty means the whole repository (only the language's source files; tests, CI and build files never). */
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
  /**
   * Where a validated fix goes: `suggestions` posts suggested changes on the failing pull
   * request when its diff shows every changed line, else a fix pull request (a fork's: a
   * comment); `pull-request` skips the suggestions; `comment` only comments (as `mode: comment`).
   */
  delivery: z.enum(["suggestions", "pull-request", "comment"]).default("suggestions"),
  /** Open Hypofix pull requests a repository may have at once; past it a new fix is not opened, and its check run says why. */
  max_open_pull_requests: z.number().int().min(1).max(100).default(3),
  /**
   * Times in a row a failing check on a Hypofix pull request starts one more iteration on its
   * branch (0: never); past it the check run and the pull request's comment say why it stops.
   */
  max_ci_iterations: z.number().int().min(0).max(5).default(1),
  /** Reruns of a failing test before repair. */
  reruns: z.number().int().min(1).max(10).default(3),
  /** Where setup and tests run, relative to the repository root (a monorepo's project folder). */
  working_directory: relPath.optional(),
  /**
   * Head commits from forks: `comment` reproduces and explains in a comment (never a branch,
   * a pull request or a setup with network); `off` does not run them at all.
   */
  forks: z.enum(["comment", "off"]).default("comment"),
};

/** The configuration: the keys above, and each registered language's own (read with `languageSetting`). */
export type RepoConfig = z.infer<z.ZodObject<typeof baseShape>> & { readonly [key: string]: unknown };

/** The file's schema with the keys of the languages registered now. */
export function repoConfigSchema() {
  return z
    .object({ ...baseShape, ...languageConfigKeys() })
    .strict()
    .superRefine((config, ctx) => {
      // The configured language's runner must be the one the command runs.
      if (config.test_command === undefined || config.language === undefined) return;
      try {
        testSelectionOf(commandArgv(config.test_command)!, config.language);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        ctx.addIssue({ code: "custom", path: ["test_command"], message: err.oneLine() });
      }
    });
}

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema().parse({}) as RepoConfig;

/** Whether a validated fix may become a pull request: neither `mode: comment` nor `delivery: comment`. */
export function opensPullRequests(config: RepoConfig): boolean {
  return config.mode === "pull-request" && config.delivery !== "comment";
}

/** A language's own key of the configuration, when it is a string (e.g. `python_version`). */
export function languageSetting(config: RepoConfig, key: string | undefined): string | undefined {
  const value = key === undefined ? undefined : config[key];
  return typeof value === "string" ? value : undefined;
}

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
  const parsed = repoConfigSchema().safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`);
    throw new UserError(
      `${REPO_CONFIG_PATH} is invalid: ${problems.join("; ")}`,
      "see README, Per-repository configuration",
    );
  }
  return parsed.data as RepoConfig;
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
