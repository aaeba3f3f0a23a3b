import type { Language } from "../lang/types.js";
import { commandArgv, type RepoConfig } from "../repo-config.js";

/** The test-runner arguments the suite is limited to, from `test_command` (Python: paths, node ids, `-k`, `-m`). */
export function suiteSelection(config: RepoConfig, language: Language): string[] | undefined {
  if (config.test_command === undefined) return undefined;
  const args = language.testSelection(commandArgv(config.test_command)!);
  return args.length > 0 ? args : undefined;
}
