import { parse as parseShell } from "shell-quote";
import { UserError } from "../../../errors.js";
import { jsonRecord, record, str } from "../data.js";

/*
 * Which test runner a JavaScript project uses and the command it is started with, read from
 * its package.json (the `test` script, then its dependencies) and its config files' names.
 * Pure: the caller reads the files. The command keeps the project's own flags (a TypeScript
 * loader, `--experimental-vm-modules`), so TypeScript runs through the project's toolchain.
 */

export type JsRunner = "jest" | "vitest" | "mocha" | "node-test";

export interface RunnerCommand {
  runner: JsRunner;
  /** Variables the script sets before the command (`NODE_OPTIONS=... jest`). */
  env: Record<string, string>;
  /** The program: `node` for node:test and for a runner started as `node path/to/bin`. */
  program: string;
  /** Arguments before the runner's own (node's flags, a runner script path). */
  prefix: string[];
  /** The runner's own arguments from the script, less those that break the instruments. */
  args: string[];
  /** Options dropped because they break the instruments (watch mode, coverage, reporters). */
  setAside: string[];
  /** Where the command came from, for notes: `package.json scripts.test`. */
  source: string;
  /** Words of the script that are shell globs (`test/*.test.js`): npm's shell expands them, so ours does. */
  globs: string[];
}

const RUNNER_BINS: Record<string, JsRunner> = {
  jest: "jest",
  vitest: "vitest",
  mocha: "mocha",
  _mocha: "mocha",
};
/** Wrappers that start the next word as the command (their own options skipped). */
const WRAPPERS = new Set(["npx", "cross-env", "c8", "nyc", "env", "dotenv", "pnpm", "yarn", "exec"]);
const CONFIGS: [RegExp, JsRunner][] = [
  [/^vitest\.(config|workspace)\.[cm]?[jt]s$/, "vitest"],
  [/^jest\.config\.[cm]?[jt]s(on)?$/, "jest"],
  [/^\.mocharc(\.[a-z]+)?$/, "mocha"],
];
/** Options per runner that watch, collect coverage or change the report: ours are added instead. */
const DROPPED: Record<JsRunner, { flags: RegExp; withValue: RegExp }> = {
  jest: {
    flags: /^--(watch|watchAll|coverage|collectCoverage|json|silent|verbose)(=.*)?$/,
    withValue: /^--(outputFile|reporters|coverageReporters|coverageDirectory|testNamePattern|t)$|^-t$/,
  },
  vitest: {
    flags: /^--(watch|coverage(\..*)?|ui|silent)(=.*)?$|^--(reporter|outputFile|outputFile\..*)=.*$/,
    withValue: /^--(reporter|outputFile|testNamePattern|t)$|^-t$/,
  },
  mocha: {
    flags: /^--(watch|w|forbid-only)$|^--(reporter|reporter-option|grep|fgrep)=.*$/,
    withValue: /^--(reporter|reporter-option|reporter-options|grep|fgrep)$|^-[Rgf]$|^-O$/,
  },
  "node-test": {
    flags:
      /^--(watch|experimental-test-coverage|test-only)$|^--(test-reporter|test-reporter-destination|test-name-pattern)=.*$/,
    withValue: /^--(test-reporter|test-reporter-destination|test-name-pattern)$/,
  },
};

/** Words of a shell command (no expansion: globs and variables stay words), split at `&&`, `;`, `|`. */
function segments(script: string, globs: Set<string>): string[][] {
  const out: string[][] = [[]];
  for (const token of parseShell(script, (name) => `$${name}`)) {
    if (typeof token === "string") out.at(-1)!.push(token);
    else if ("op" in token && token.op === "glob") {
      out.at(-1)!.push(token.pattern);
      globs.add(token.pattern);
    } else if ("op" in token) out.push([]);
  }
  return out.filter((s) => s.length > 0);
}

/** The command of one script segment, when it starts a test runner. */
function commandOf(words: string[], source: string): RunnerCommand | undefined {
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
    if (assign) env[assign[1]!] = assign[2]!;
    else if (WRAPPERS.has(w) || (w.startsWith("-") && i > 0 && WRAPPERS.has(words[i - 1]!)) || w === "run")
      continue;
    else break;
  }
  const program = words[i];
  if (!program) return undefined;
  const rest = words.slice(i + 1);
  const bin = program.split("/").at(-1)!;
  if (RUNNER_BINS[bin])
    return {
      runner: RUNNER_BINS[bin],
      env,
      program: bin,
      prefix: [],
      args: rest,
      setAside: [],
      source,
      globs: [],
    };
  if (bin === "node" || bin === "tsx" || bin === "ts-node") {
    // `node [flags] path/to/jest.js ...` or `node [flags] --test [files]` (tsx takes node's flags).
    const script = rest.findIndex((w) => !w.startsWith("-"));
    const runnerScript =
      script >= 0
        ? /(?:^|\/)(jest|vitest|mocha|_mocha)(?:\/bin\/[\w.-]+|\.[cm]?js)?$/.exec(rest[script]!)
        : null;
    if (runnerScript && script >= 0) {
      return {
        runner: RUNNER_BINS[runnerScript[1]!]!,
        env,
        program: bin,
        prefix: rest.slice(0, script + 1),
        args: rest.slice(script + 1),
        setAside: [],
        source,
        globs: [],
      };
    }
    if (rest.includes("--test"))
      return {
        runner: "node-test",
        env,
        program: bin,
        prefix: [],
        args: rest,
        setAside: [],
        source,
        globs: [],
      };
  }
  return undefined;
}

/** The runner's arguments without the options that break the instruments; what was dropped. */
function withoutDropped(runner: JsRunner, args: string[]): { args: string[]; setAside: string[] } {
  const { flags, withValue } = DROPPED[runner];
  const kept: string[] = [];
  const setAside: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (withValue.test(a) && i + 1 < args.length) {
      setAside.push(`${a} ${args[++i]}`);
    } else if (flags.test(a)) setAside.push(a);
    else kept.push(a);
  }
  // Vitest's bare command watches outside CI; `run` makes it one pass.
  if (runner === "vitest" && !["run", "bench", "related"].includes(kept[0] ?? "")) {
    if (kept[0] === "watch" || kept[0] === "dev") setAside.push(kept.shift()!);
    kept.unshift("run");
  }
  return { args: kept, setAside };
}

/** The runner a project's dependencies or config files name, when its test script names none. */
function runnerFromProject(pkg: Record<string, unknown>, names: string[]): JsRunner | undefined {
  const deps = { ...record(pkg.dependencies), ...record(pkg.devDependencies) };
  for (const r of ["vitest", "jest", "mocha"] as const) if (r in deps) return r;
  if (pkg.jest !== undefined) return "jest";
  for (const [pattern, runner] of CONFIGS) if (names.some((n) => pattern.test(n))) return runner;
  return undefined;
}

/** The default command of a runner found by dependency or config. */
function defaultCommand(runner: JsRunner, source: string): RunnerCommand {
  const program = runner === "node-test" ? "node" : runner;
  return {
    runner,
    env: {},
    program,
    prefix: [],
    args: runner === "node-test" ? ["--test"] : [],
    setAside: [],
    source,
    globs: [],
  };
}

/**
 * The test command of a project from its package.json text and the names in its folder:
 * the runner its `test` script starts, else the one its dependencies or config files name,
 * else `node --test`. A configured `test_command` (argv) comes first when given.
 */
export function detectRunner(input: {
  packageJson?: string;
  names: string[];
  testCommand?: string[];
}): RunnerCommand {
  if (input.testCommand && input.testCommand.length > 0) {
    const command = commandOf(input.testCommand, "test_command");
    if (!command) throw runnerError(input.testCommand.join(" "));
    return finish(command);
  }
  const pkg = jsonRecord(input.packageJson) ?? {};
  const script = str(record(pkg.scripts)?.test);
  if (script) {
    const globs = new Set<string>();
    for (const words of segments(script, globs)) {
      const command = commandOf(words, "package.json scripts.test");
      if (command)
        return finish({
          ...command,
          globs: [...command.args, ...command.prefix].filter((w) => globs.has(w)),
        });
    }
  }
  const runner = runnerFromProject(pkg, input.names);
  return finish(
    defaultCommand(runner ?? "node-test", runner ? "package.json dependencies" : "default (node --test)"),
  );
}

function finish(command: RunnerCommand): RunnerCommand {
  const { args, setAside } = withoutDropped(command.runner, command.args);
  return { ...command, args, setAside: [...command.setAside, ...setAside] };
}

function runnerError(command: string): UserError {
  return new UserError(
    `test_command ${JSON.stringify(command)} does not start Jest, Vitest, Mocha or node --test`,
    "name the runner directly, e.g. `jest`, `vitest run`, `mocha`, or `node --test test/`",
  );
}

/**
 * The test selection of a configured `test_command` (argv), as `runTests` takes it: the files
 * and folders it names (the words after the runner that are not options or their values);
 * none: the whole suite. Throws a UserError when the command starts no test runner.
 */
export function jsTestSelection(command: string[]): string[] {
  const found = commandOf(command, "test_command");
  if (!found) throw runnerError(command.join(" "));
  const { args } = withoutDropped(found.runner, found.args);
  return args.filter(
    (a, i) =>
      !a.startsWith("-") &&
      !(found.runner === "vitest" && i === 0 && a === "run") &&
      // A word after an option without `=` is that option's value (`--require tsx`), unless it names a test file.
      (i === 0 || !args[i - 1]!.startsWith("-") || /\*|\/$|\.[cm]?[jt]sx?$/.test(a)),
  );
}
