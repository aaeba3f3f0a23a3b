import { describe, expect, it } from "vitest";
import { rendered } from "../helpers/markdown.js";
import { HOSTILE, hostileExplainReply, hostileReport } from "./hostile.js";

// Attack: text with backtick runs of different lengths ("``` `` `") closes Hypofix's code spans
// early, so what follows is parsed as Markdown and raw HTML. Read with a real parser (marked).
describe("unequal backtick runs cannot break out of code", () => {
  it("the PR body of a real run quotes the hostile test id whole, in one code span", async () => {
    const r = rendered(await hostileReport());
    const quoted = r.code.filter((c) => c.includes("</details>"));
    expect(quoted.length).toBeGreaterThan(0);
    for (const c of quoted) expect(c).toContain(HOSTILE);
    expect(r.html.join("")).not.toContain("onerror");
  }, 120_000);

  it("an /explain reply keeps a PR body's unbalanced backticks as text", async () => {
    const r = rendered(await hostileExplainReply());
    expect(r.html.join("")).not.toContain("onerror");
    expect(r.html.join("")).not.toContain("<!--");
  }, 120_000);
});
