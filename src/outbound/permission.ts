import type { GitHubClient, RepoRef } from "./publish.js";

/** GitHub permission levels that may trigger Hypofix (write access or more). */
export function canTrigger(permission: string): boolean {
  return permission === "admin" || permission === "maintain" || permission === "write";
}

/** A user's permission on the repository: `admin`, `write`, `read` or `none` (maintain counts as write, triage as read). */
export async function permissionOf(octokit: GitHubClient, repo: RepoRef, username: string): Promise<string> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    // Not role_name: a custom role has its own name, but `permission` is its base level.
    return data.permission;
  } catch (err) {
    // GitHub answers 404 for a user who is not a collaborator at all.
    if ((err as { status?: number }).status === 404) return "none";
    throw err;
  }
}
