import { describe, expect, it } from "vitest";
import { rendered } from "../helpers/markdown.js";
import { hostileExplainReply, hostileReport } from "./hostile.js";

// Attack: `@org/team`, `@user`, `#12` or `GH-8` in a test id, output or PR body makes the bot
// notify a team or backlink an issue. Read with a real Markdown parser (marked).
describe("mentions and cross references in untrusted text render inert", () => {
  it("in the PR body of a real run", async () => {
    expect(rendered(await hostileReport()).mentions).toEqual([]);
  }, 120_000);

  it("in an /explain reply, where only the requester is mentioned", async () => {
    const reply = await hostileExplainReply();
    expect(rendered(reply).mentions).toEqual(["@writer"]);
    expect(reply.split("\n")[0]).toMatch(/^### /);
  }, 120_000);
});
