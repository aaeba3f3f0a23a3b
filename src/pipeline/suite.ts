import { commandArgv, type RepoConfig } from "../repo-config.js";

/** Test ids or paths the suite is limited to, from `test_command: pytest tests/unit`. */
export function suiteSelection(config: RepoConfig): string[] | undefined {
  const argv = commandArgv(config.test_command);
  if (!argv) return undefined;
  const args = argv.filter(
    (a, i) =>
      !(i === 0 && /pytest$/.test(a)) &&
      !(a === "-m" && argv[i + 1] === "pytest") &&
      a !== "pytest" &&
      !a.startsWith("-"),
  );
  return args.length > 0 ? args : undefined;
}
