import nock from "nock";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../../src/compose.js";
import { explainChange } from "../../src/audit/explain.js";
import { loadConfig } from "../../src/config.js";
import { createChatModel } from "../../src/llm/openai-model.js";
import type { ChatModel } from "../../src/llm/types.js";
import { buildFixtureRepo } from "./fixture-repo.js";

// nock intercepts every HTTP request while active, and breaks dockerode's hijacked exec streams (the sandbox's
// writeFile), so interception is on only while the model is asked; the openai client keeps the `fetch` it finds
// when built, so it is built then too. The real client meets the recorded completion, the sandbox the real engine.
nock.restore();
const config = loadConfig({
  HYPOFIX_LLM_BASE_URL: "http://llm.test:8000/v1",
  HYPOFIX_LLM_API_KEY: "sk-test",
});
const repo = buildFixtureRepo("audit-shop");
afterAll(() => repo.cleanup());

function interceptedOnlyDuringCalls(): ChatModel {
  let model: ChatModel | undefined;
  return {
    get usage() {
      return model?.usage ?? { llmCalls: 0, promptTokens: 0, completionTokens: 0 };
    },
    async refusal() {
      return undefined;
    },
    async complete(request) {
      nock.activate();
      try {
        model = createChatModel(config);
        return await model.complete(request);
      } finally {
        nock.restore();
      }
    },
  };
}

describe("hypofix explain, llm engine (real openai client, nock-recorded completion, docker sandbox)", () => {
  it("runs the model's claim tests on both sides and judges each claim by them", async () => {
    const recorded = JSON.parse(
      readFileSync(
        fileURLToPath(new URL("../fixtures/audit-llm/silent-claims.nock.json", import.meta.url)),
        "utf8",
      ),
    ) as nock.Definition[];
    let prompt = "";
    const [scope] = nock.define(recorded);
    scope!.on("request", (_req, _interceptor, body: string) => (prompt = body));
    const model = interceptedOnlyDuringCalls();
    const { audit: a, verdict } = await explainChange(repo.dir, {
      base: "base",
      head: "silent",
      engine: "llm",
      workspace: (dir) => openWorkspace({ repoDir: dir, backend: "docker", config }),
      model,
      differential: { testTimeoutMs: 5_000 },
    });
    expect(scope!.isDone()).toBe(true);
    expect(prompt).toContain("+        return max(0, total - 10)");
    expect(prompt).toContain("No other behaviour changes.");
    // How a claim test imports the changed module and builds its classes.
    expect(prompt).toContain("- `shop/pricing.py`: `from shop.pricing import ...`\\n  - `Cart()`");
    expect(prompt).toContain("a Python repository");
    expect(prompt).toContain("one small pytest test file");
    expect(model.usage).toEqual({ llmCalls: 1, promptTokens: 1187, completionTokens: 312 });

    const [invalid, fix, preserve] = a.claims;
    // The first test does not parse: it is not run, and the claim falls back to the offline check.
    expect(invalid?.evidence).toContain("the generated test was not run: it does not parse as Python");
    expect(invalid?.verdict).toBe("confirmed");
    expect(fix?.verdict).toBe("confirmed");
    expect(fix?.evidence).toContain(
      "`test_tenoff_under_ten_gives_zero` passes after the change; before the change it was failed",
    );
    expect(preserve?.verdict).toBe("contradicted");
    expect(preserve?.evidence).toContain(
      "`test_no_code_keeps_total` fails after the change (failed: assert 20 == 20.49",
    );
    expect(preserve?.evidence).toContain("before the change it passed");
    expect(verdict).toBe("contradicted");
    // Claim tests are evidence for claims, not behaviour changes of the repository.
    expect(a.behaviourChanges.every((b) => !b.subject.includes(".hypofix-audit"))).toBe(true);
  });
});
