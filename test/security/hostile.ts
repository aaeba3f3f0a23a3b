import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "../../src/compose.js";
import { explainChange } from "../../src/audit/explain.js";
import { loadConfig } from "../../src/config.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { explainReply } from "../../src/report/explain.js";
import { git } from "../helpers/git.js";
import { fixLocally, fixture } from "../pipeline/helpers.js";

/*
 * Real runs whose untrusted inputs are hostile Markdown: a repository whose test id and
 * assertion message carry `</details>`, `<img>`, `@org/team`, `#12` and unequal backtick
 * runs (test/fixtures/hostile-output), fixed by the pipeline; and a pull request whose
 * title, body and commit message carry the same, audited by /explain. The local sandbox
 * runs them (these tests are about what we post, not about isolation).
 */

/** Exactly what the fixture's test id and assertion message carry. */
export const HOSTILE = "</details><img src=x onerror=alert(1)> @org/team #12 ``` `` ` <!--";

/** The PR body a hostile contributor writes for /explain. */
export const HOSTILE_BODY = [
  `Fixes the doubling. ${HOSTILE}`,
  "",
  "</details></details><img src=y> cc @acme/security, see #7 and GH-8",
  "",
  "`unclosed ``span` and ```` more",
].join("\n");

/** The PR body (report.md) of a real run on the hostile fixture. */
export async function hostileReport(): Promise<string> {
  const { outcome } = fixLocally(fixture("hostile-output"), createOfflineEngine());
  const { result, report } = await outcome;
  if (!result.failingTests.some((t) => t.includes(HOSTILE))) {
    throw new Error(`the hostile test id did not reach the result: ${result.failingTests.join(", ")}`);
  }
  return report;
}

/** The /explain reply for a change whose title, description and commit message are hostile. */
export async function hostileExplainReply(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hypofix-hostile-"));
  try {
    cpSync(fixture("hostile-output"), dir, { recursive: true });
    git(dir, "init", "--quiet", "--initial-branch=main");
    git(dir, "add", ".");
    git(dir, "commit", "--quiet", "-m", "base");
    const file = join(dir, "calc.py");
    writeFileSync(file, readFileSync(file, "utf8").replace("x * 3", "x * 2"));
    git(dir, "commit", "--quiet", "-am", `Double correctly ${HOSTILE}`);
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const outcome = await explainChange(dir, {
      base: "HEAD~1",
      engine: "offline",
      workspace: (dir) => openWorkspace({ repoDir: dir, backend: "local", config: loadConfig() }),
      description: `${HOSTILE} title @octo\n\n${HOSTILE_BODY}`,
    });
    return explainReply(outcome.markdown, "writer");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The HTML a report may hold: only the tags Hypofix writes itself, and its report marker. */
export const OWN_HTML = /^(?:<!-- hypofix:report -->|(?:<\/?(?:details|summary|b|code)>|[^<]*)+)$/;
