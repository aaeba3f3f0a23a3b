/** Scores a repaired copy of a corpus bug the way the repair benchmark reports it:
 * plausible = the bug's visible suite passes; correct = plausible and the held-out tests
 * (never shown to the engine) pass too. */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addHeldout, bugDir, type Bug } from "../corpus-tools/manifest.js";
import { runPytest, type PytestOutcome } from "./pytest.js";

export interface Score {
  plausible: boolean;
  correct: boolean;
  /** Visible tests failing after the patch (empty when plausible). */
  visibleFailing: string[];
  /** Held-out tests failing; only run when plausible. */
  heldoutFailing: string[];
  /** Collection errors, timeouts, unexpected pytest exits. */
  errors: string[];
}

function problems(run: PytestOutcome, what: string): string[] {
  return [...(run.timedOut ? [`${what} timed out`] : []), ...run.errors.map((e) => `${what}: ${e}`)];
}

/** Scores `projectDir` (a patched copy of `bug`), working on a scratch copy whose tests/
 * are reset to the corpus's, so a patch that edits the tests gains nothing. */
export async function scoreProject(
  bug: Bug,
  projectDir: string,
  options: { timeoutMs?: number } = {},
): Promise<Score> {
  const scratch = await mkdtemp(join(tmpdir(), `score-${bug.id}-`));
  try {
    await cp(projectDir, scratch, { recursive: true });
    await rm(join(scratch, "tests"), { recursive: true, force: true });
    await cp(join(bugDir(bug), "tests"), join(scratch, "tests"), { recursive: true });
    const visible = await runPytest(scratch, [], options);
    const errors = problems(visible, "visible suite");
    const plausible = errors.length === 0 && visible.failing.length === 0 && visible.exitCode === 0;
    if (!plausible)
      return { plausible, correct: false, visibleFailing: visible.failing, heldoutFailing: [], errors };
    const heldout = await runPytest(scratch, [await addHeldout(bug, scratch)], options);
    const heldoutErrors = problems(heldout, "held-out tests");
    return {
      plausible,
      correct: heldoutErrors.length === 0 && heldout.failing.length === 0 && heldout.exitCode === 0,
      visibleFailing: [],
      heldoutFailing: heldout.failing,
      errors: heldoutErrors,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
