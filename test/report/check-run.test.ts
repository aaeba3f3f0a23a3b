import { describe, expect, it } from "vitest";
import { checkRunEnd, checkRunProgress } from "../../src/report/check-run.js";

describe("check-run text", () => {
  it("lists the phases done so far, untrusted lines made inert", () => {
    expect(checkRunProgress([])).toEqual({
      title: "Working: fetching the commit",
      summary: "The job has started.",
    });
    const running = checkRunProgress([{ phase: "localize", line: "top suspect <img src=x> @org/team" }]);
    expect(running.title).toBe("Working: localize done");
    expect(running.summary).toContain("- **localize**: top suspect \\<img src=x\\>");
    expect(running.summary).not.toContain("@org/team");
  });

  it("links our own pull request live, and anything that is not a plain URL inert", () => {
    const end = checkRunEnd("t", "fixed:", [], {
      link: { label: "#17", url: "https://github.example/o/r/pull/17" },
    });
    expect(end.summary).toBe("fixed: [#17](https://github.example/o/r/pull/17)");
    const odd = checkRunEnd("t", "fixed:", [], { link: { label: "#17", url: "javascript:alert(1)" } });
    expect(odd.summary).not.toContain("](");
  });
});
