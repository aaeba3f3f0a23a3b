import { UserError } from "../../errors.js";

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
export function testSelection(argv: string[]): string[] {
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
