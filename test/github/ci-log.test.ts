import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePytestLog } from "../../src/lang/python/ci-log.js";
import { fetchFailedJobLogs } from "../../src/outbound/ci-log.js";

const ACTIONS_LOG = `2026-11-30T08:00:00.1234567Z ##[group]Run pytest
2026-11-30T08:00:01.0000000Z ============================= test session starts ==============================
2026-11-30T08:00:01.1000000Z collected 3 items
2026-11-30T08:00:01.2000000Z tests/test_calc.py \u001b[32m.\u001b[0m\u001b[31mF\u001b[0m\u001b[31mF\u001b[0m
2026-11-30T08:00:01.3000000Z =================================== FAILURES ===================================
2026-11-30T08:00:01.4000000Z ___________________________ test_mean[empty] ___________________________
2026-11-30T08:00:01.5000000Z     def test_mean(xs, expected):
2026-11-30T08:00:01.6000000Z >       assert mean(xs) == expected
2026-11-30T08:00:01.7000000Z E       ZeroDivisionError: division by zero
2026-11-30T08:00:01.8000000Z =========================== short test summary info ============================
2026-11-30T08:00:01.9000000Z FAILED tests/test_calc.py::test_mean[empty] - ZeroDivisionError: division by zero
2026-11-30T08:00:02.0000000Z FAILED tests/test_calc.py::TestOps::test_sub - assert 1 == -1
2026-11-30T08:00:02.1000000Z ERROR tests/test_io.py - ModuleNotFoundError: No module named 'yaml'
2026-11-30T08:00:02.2000000Z ========================= 2 failed, 1 passed in 0.12s ==========================`;

describe("parsePytestLog", () => {
  it("finds failing node ids (parametrized, class, collection errors) and the failure excerpt", () => {
    const facts = parsePytestLog(ACTIONS_LOG);
    expect(facts.failingTests).toEqual([
      "tests/test_calc.py::test_mean[empty]",
      "tests/test_calc.py::TestOps::test_sub",
      "tests/test_io.py",
    ]);
    // A file alone is a collection error: no test of its own to ask for.
    expect(facts.tests).toEqual([
      "tests/test_calc.py::test_mean[empty]",
      "tests/test_calc.py::TestOps::test_sub",
    ]);
    expect(facts.excerpt.split("\n")[0]).toMatch(/^=+ FAILURES =+$/);
    expect(facts.excerpt).toContain("E       ZeroDivisionError: division by zero");
    expect(facts.excerpt).not.toMatch(/2026-11-30T/);
    expect(facts.excerpt).not.toContain("\u001b[");
  });

  it("returns nothing for a log without a pytest failure", () => {
    expect(parsePytestLog("npm ERR! missing script: build\n")).toEqual({
      failingTests: [],
      tests: [],
      excerpt: "",
    });
  });

  it("cuts a long failure section and says so", () => {
    const long = ["=== FAILURES ===", ...Array.from({ length: 200 }, (_, i) => `line ${i}`)].join("\n");
    const facts = parsePytestLog(long, 10);
    expect(facts.excerpt.split("\n")).toHaveLength(11);
    expect(facts.excerpt).toMatch(/\[\.\.\. log cut \.\.\.\]$/);
  });
});

describe("fetchFailedJobLogs (GitHub API via nock)", () => {
  const octokit = new ProbotOctokit({
    auth: { token: "t" },
    retry: { enabled: false },
    throttle: { enabled: false },
  });
  const repo = { owner: "octo", repo: "calc" };
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it("downloads the logs of a workflow run's failed jobs only", async () => {
    nock("https://api.github.com")
      .get("/repos/octo/calc/actions/runs/55/jobs")
      .query(true)
      .reply(200, {
        total_count: 2,
        jobs: [
          { id: 1, conclusion: "success" },
          { id: 2, conclusion: "failure" },
        ],
      })
      .get("/repos/octo/calc/actions/jobs/2/logs")
      .reply(200, "FAILED tests/test_a.py::test_x - assert 0", { "content-type": "text/plain" });
    const text = await fetchFailedJobLogs(octokit, repo, { workflowRunId: 55 });
    expect(parsePytestLog(text).failingTests).toEqual(["tests/test_a.py::test_x"]);
    expect(nock.isDone()).toBe(true);
  });
});
