import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Language } from "../types.js";
import { parsePytestLog } from "./ci-log.js";
import { parsePythonExperiment, PYTHON_NAMES, pythonFiles } from "./files.js";
import { choosePython, DEPENDENCY_FILE, detectSetup, requiresPython } from "./project.js";
import { createPythonRuntime } from "./runtime.js";
import { testSelection } from "./test-command.js";
import { PYTHON_HELPERS_DIR } from "./test-files.js";
import { PYTHON_PROMPTS } from "./prompt-words.js";

export { CANDIDATE_FAMILIES, generateCandidates } from "./candidates.js";
export type { CandidateFamily } from "./candidates.js";
export { parsePythonExperiment, PYTHON_SYNTAX, pythonFiles } from "./files.js";
export { createPythonRuntime, pythonOf, type PythonRuntimeOptions } from "./runtime.js";
export { PYTHON_HELPERS_DIR } from "./test-files.js";

/** Python's in-sandbox command runner (the protocol of sandbox/supervisor.ts). */
export const PYTHON_SUPERVISOR = fileURLToPath(new URL("./supervisor.py", import.meta.url));

/**
 * PID 1 of a Python sandbox: reaps orphans so zombies never eat into the pid limit; not
 * dumpable, so the tests cannot open its /proc/1/mem.
 */
const INIT = [
  "import ctypes, os, time",
  "if ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0) != 0:",
  "    raise SystemExit('hypofix init: prctl(PR_SET_DUMPABLE, 0) failed')",
  "while True:",
  "    try:",
  "        os.wait()",
  "    except ChildProcessError:",
  "        time.sleep(0.5)",
].join("\n");

/** Python's minor versions whose sandbox images are looked for. */
export const PYTHON_VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13", "3.14"] as const;

/** `.github/hypofix.yml`'s Python key: the environment's minor version. */
const pythonVersion = z
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
  .optional();

/** Names that say a repository is a Python project. */
const PYTHON_MARKERS =
  /^(pyproject\.toml|setup\.py|setup\.cfg|requirements[^/]*\.txt|Pipfile|tox\.ini|conftest\.py)$/;

/** Python and pytest: the default language, and the first behind the port. */
export const python: Language = {
  ...PYTHON_NAMES,
  prompts: PYTHON_PROMPTS,
  detect: ({ names }) =>
    names.some((n) => PYTHON_MARKERS.test(n)) ? 1 : names.some((n) => n.endsWith(".py")) ? 0.5 : 0,
  environment: {
    images: { label: "org.hypofix.python", versions: PYTHON_VERSIONS, tagSuffix: "-py" },
    imageBase: (config) => config.sandbox.image,
    defaultVersion: "3.11",
    dependencyFile: DEPENDENCY_FILE,
    versionKey: "python_version",
    chooseVersion: ({ available, fallback, configured, dependencyFiles, ciLog }) => {
      const requires = requiresPython(dependencyFiles.get("pyproject.toml"));
      return choosePython({
        available,
        fallback,
        ...(configured ? { configured } : {}),
        ...(requires ? { requires } : {}),
        ...(ciLog ? { ciLog } : {}),
      });
    },
    detectSetup,
    // pip's quiet, cache-free defaults; a company mirror reaches pip through the egress proxy's
    // credential-free URLs (sandbox/egress.ts), never from here.
    setupEnv: () => ({
      PIP_NO_CACHE_DIR: "1",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PIP_NO_INPUT: "1",
      PIP_PROGRESS_BAR: "off",
    }),
  },
  configKeys: {
    /** Python minor version of the environment, e.g. "3.13"; else requires-python, the CI job's, the default. */
    python_version: pythonVersion,
  },
  testSelection,
  parseCiLog: (log) => parsePytestLog(log),
  files: pythonFiles,
  parseExperiment: parsePythonExperiment,
  sandbox: {
    helpers: { dir: PYTHON_HELPERS_DIR, ignore: [".gitkeep", "__pycache__"] },
    // -I: no user site-packages, PYTHON* variables or cwd on the path; /tmp (HOME) is the tests'.
    init: ["python3", "-I", "-c", INIT],
    supervisor: ["python3", "-I", "-u", "-c", readFileSync(PYTHON_SUPERVISOR, "utf8")],
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" },
  },
  createRuntime: (sandbox, options) => createPythonRuntime(sandbox, options),
};
