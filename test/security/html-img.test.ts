import { describe, expect, it } from "vitest";
import { rendered } from "../helpers/markdown.js";
import { hostileExplainReply, hostileReport } from "./hostile.js";

// Attack: `<img src=x onerror=...>` (or a Markdown image) in test output or a PR body becomes
// an image or raw HTML in what the bot posts. Read with a real Markdown parser (marked).
describe("<img> in untrusted text renders inert", () => {
  it("in the PR body of a real run", async () => {
    const r = rendered(await hostileReport());
    expect(r.images).toEqual([]);
    expect(r.html.filter((h) => /<img/i.test(h))).toEqual([]);
  }, 120_000);

  it("in an /explain reply", async () => {
    const r = rendered(await hostileExplainReply());
    expect(r.images).toEqual([]);
    expect(r.html.filter((h) => /<img/i.test(h))).toEqual([]);
    expect(r.prose.join("")).toContain("<img src=x onerror=alert(1)>");
  }, 120_000);
});
