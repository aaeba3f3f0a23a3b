import type { Logger } from "pino";
import { canTrigger } from "../outbound/permission.js";
import type { RepoHost } from "../outbound/repo-host.js";
import { refusalReply } from "../report/check-run.js";

/**
 * Whether `login` may run a command here (write access); if not, the one refusal reply per
 * user and pull request is posted, and why is returned.
 */
export async function refusedCommand(
  host: RepoHost,
  prNumber: number,
  login: string,
  log: Logger,
): Promise<string | undefined> {
  const permission = await host.permission(login);
  if (canTrigger(permission)) return undefined;
  // Keyed by the login (case-insensitive on GitHub): a later command finds this reply and posts none.
  const key = `refused:${login.toLowerCase().replace(/[^a-z0-9-]/g, "")}`;
  await host.comment(prNumber, refusalReply(login), key);
  log.info({ permission }, "command refused: no write access");
  return `${login} has ${permission} access, not write`;
}
