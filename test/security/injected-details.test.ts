import { describe, expect, it } from "vitest";
import { markdownProblems, rendered } from "../helpers/markdown.js";
import { HOSTILE, hostileExplainReply, hostileReport, OWN_HTML } from "./hostile.js";

// Attack: a test id, an assertion message or a PR body holding `</details>` (or `<!--`) closes
// or swallows Hypofix's own folded sections. Read with a real Markdown parser (marked).
describe("an injected </details> renders inert", () => {
  it("in the PR body of a real run, every HTML tag is one Hypofix wrote, and they balance", async () => {
    const report = await hostileReport();
    const r = rendered(report);
    expect(markdownProblems(report)).toEqual([]);
    for (const html of r.html) expect(html).toMatch(OWN_HTML);
    // The hostile text is still shown, as code or escaped prose.
    expect(r.code.some((c) => c.includes(HOSTILE))).toBe(true);
  }, 120_000);

  it("in an /explain reply quoting a hostile PR title, body and commit message", async () => {
    const reply = await hostileExplainReply();
    const r = rendered(reply);
    expect(markdownProblems(reply)).toEqual([]);
    for (const html of r.html) expect(html).toMatch(OWN_HTML);
    // The test output quoted as evidence carries the hostile text: shown, as text.
    expect(r.prose.join("")).toContain("</details><img src=x onerror=alert(1)>");
  }, 120_000);
});
