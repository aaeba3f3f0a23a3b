import { composeConfigGet } from "@probot/octokit-plugin-config";
import type { Octokit } from "@octokit/core";
import { UserError } from "../errors.js";
import { REPO_CONFIG_PATH, validateRepoConfig, type RepoConfig } from "../repo-config.js";
import type { RepoRef } from "./publish.js";

export type ConfigLookup = { config: RepoConfig } | { problem: string };

/**
 * `.github/hypofix.yml` as Probot reads configuration: from the repository's
 * default branch, else from the owner's `.github` repository, following
 * `_extends` (keys of the extending file win). Never from a checkout, so a
 * fork's head cannot bring its own. An unreadable or invalid file is a problem
 * to report, not an exception.
 */
export async function readRepoConfig(octokit: Octokit, repo: RepoRef): Promise<ConfigLookup> {
  let raw: Record<string, unknown>;
  try {
    const { config } = await composeConfigGet(octokit, { ...repo, path: REPO_CONFIG_PATH });
    raw = config;
  } catch (err) {
    // An API failure is the job's to retry; what the loader itself refuses (YAML, `_extends`) is the user's.
    if ((err as { status?: number }).status !== undefined || !(err instanceof Error)) throw err;
    const message = err.message.split("\n")[0]!.replace(/^\[@probot\/octokit-plugin-config\] /, "");
    return { problem: `${REPO_CONFIG_PATH} could not be read: ${message}` };
  }
  try {
    return { config: validateRepoConfig(raw) };
  } catch (err) {
    if (err instanceof UserError) return { problem: err.oneLine() };
    throw err;
  }
}
