import { testSelection, type RepoConfig } from "../repo-config.js";

/** The pytest arguments the suite is limited to, from `test_command` (paths, node ids, `-k`, `-m`). */
export function suiteSelection(config: RepoConfig): string[] | undefined {
  if (config.test_command === undefined) return undefined;
  const args = testSelection(config.test_command);
  return args.length > 0 ? args : undefined;
}
