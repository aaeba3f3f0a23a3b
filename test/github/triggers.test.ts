import { describe, expect, it } from "vitest";
import {
  canTrigger,
  parseCommand,
  triggerFromCheckRun,
  triggerFromWorkflowRun,
} from "../../src/github/inbound/triggers.js";
import { examplePayload } from "./payloads.js";

type Payload = Parameters<typeof triggerFromCheckRun>[0] & Record<string, unknown>;
type RunPayload = Parameters<typeof triggerFromWorkflowRun>[0] & Record<string, unknown>;

const failedCheckRun = () =>
  examplePayload<Payload>(
    "check_run",
    (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === "failure",
  );

describe("triggerFromCheckRun", () => {
  it("turns a failed check run into a ci-failure job for its sha and pull request", () => {
    const payload = { ...failedCheckRun(), installation: { id: 99 } };
    expect(triggerFromCheckRun(payload)).toEqual({
      job: {
        kind: "ci-failure",
        installationId: 99,
        repo: { owner: "Codertocat", name: "Hello-World" },
        headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        checkRunId: payload.check_run.id,
        headBranch: "changes",
        prNumber: 2,
        trigger: "ci",
      },
    });
  });

  it("ignores successes, its own check runs and payloads without an installation", () => {
    const ok = examplePayload<Payload>(
      "check_run",
      (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === "success",
    );
    expect(triggerFromCheckRun({ ...ok, installation: { id: 1 } })).toEqual({
      ignored: "conclusion is success",
    });
    const own = { ...failedCheckRun(), installation: { id: 1 } };
    expect(triggerFromCheckRun(own, own.check_run.app!.id)).toEqual({
      ignored: "check run is Hypofix's own",
    });
    expect(triggerFromCheckRun(failedCheckRun())).toEqual({ ignored: "payload has no installation" });
  });
});

describe("triggerFromWorkflowRun", () => {
  const completed = () =>
    examplePayload<RunPayload>(
      "workflow_run",
      (p) =>
        p.action === "completed" && (p.workflow_run as { pull_requests: unknown[] }).pull_requests.length > 0,
    );

  it("turns a failed workflow run into the same kind of job", () => {
    const payload = completed();
    payload.workflow_run.conclusion = "failure";
    const trigger = triggerFromWorkflowRun({ ...payload, installation: { id: 5 } });
    expect(trigger).toMatchObject({
      job: { kind: "ci-failure", installationId: 5, headSha: payload.workflow_run.head_sha, prNumber: 2 },
    });
  });

  it("ignores a successful run", () => {
    expect(triggerFromWorkflowRun({ ...completed(), installation: { id: 5 } })).toEqual({
      ignored: "conclusion is success",
    });
  });
});

describe("parseCommand", () => {
  it("finds a command at the start of any line", () => {
    expect(parseCommand("/explain")).toBe("explain");
    expect(parseCommand("thanks!\n  /fix please")).toBe("fix");
  });
  it("ignores commands inside text and unknown commands", () => {
    expect(parseCommand("please run /explain")).toBeNull();
    expect(parseCommand("/explainer")).toBeNull();
    expect(parseCommand("/deploy")).toBeNull();
  });
});

describe("canTrigger", () => {
  it("allows write access and above only", () => {
    expect(["admin", "maintain", "write"].every(canTrigger)).toBe(true);
    expect(["triage", "read", "none"].some(canTrigger)).toBe(false);
  });
});
