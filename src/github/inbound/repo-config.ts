import type { Context } from "probot";
import { REPO_CONFIG_PATH, repoConfigSchema, type RepoConfig } from "../../repo-config.js";

export type ConfigLookup = { config: RepoConfig } | { problem: string };

/**
 * Reads `.github/hypofix.yml` through Probot's `context.config` (YAML, `_extends`
 * supported) and validates it. An invalid file is a problem to report, never a crash.
 */
export async function readRepoConfig(context: Context): Promise<ConfigLookup> {
  let raw: unknown;
  try {
    raw = await context.config("hypofix.yml");
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { problem: `${REPO_CONFIG_PATH} could not be read: ${message}` };
  }
  const parsed = repoConfigSchema.safeParse(raw ?? {});
  if (parsed.success) return { config: parsed.data };
  const issues = parsed.error.issues.map((i) => `\`${i.path.join(".") || "(top level)"}\`: ${i.message}`);
  return { problem: `${REPO_CONFIG_PATH} is invalid: ${issues.join("; ")}` };
}
