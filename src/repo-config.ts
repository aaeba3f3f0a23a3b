import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { UserError } from "./errors.js";

export const REPO_CONFIG_PATH = ".github/hypofix.yml";

const command = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a path inside the repository");

/** `.github/hypofix.yml`: what a repository may tell Hypofix. Unknown keys are an error, not ignored. */
export const repoConfigSchema = z
  .object({
    language: z.literal("python").default("python"),
    /** pytest arguments or a command; Hypofix runs pytest itself, so only `pytest ...` forms are accepted. */
    test_command: command.optional(),
    /** Run with network before tests, e.g. `pip install -e .`. */
    setup_command: command.optional(),
    /** Directories or files a patch may touch; empty means the whole repository (tests and .github/ never). */
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

/** The argv form of a command: a string is split on whitespace (no shell). */
export function commandArgv(c: string | string[] | undefined): string[] | undefined {
  if (c === undefined) return undefined;
  return Array.isArray(c) ? c : c.trim().split(/\s+/);
}
