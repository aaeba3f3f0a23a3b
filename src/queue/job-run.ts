import type { Language } from "../lang/types.js";
import type { PullRequestInfo, RepoHost } from "../outbound/repo-host.js";
import type { RepoConfig } from "../repo-config.js";
import type { Result } from "../result.js";
import type { AnsweredFailures } from "./answered.js";
import type { JobCheck, Conclusion } from "./job-check.js";
import type { HypofixJob } from "./job.js";
import type { JobContext } from "./worker.js";

/* What one job's steps share, and what the worker needs from the rest of Hypofix. */

export interface FixRequest {
  repoDir: string;
  tests: string[];
  headSha: string;
  repoConfig: RepoConfig;
  /** The repository's language, resolved once from the configuration and the checkout. */
  language: Language;
  /** The CI log's failure excerpt, for the debugging prompt and the report. */
  ciLog?: string;
  /** The maintainer's `/fix <text>`: a constraint for the llm engine, recorded in the report. */
  constraint?: string;
  /** owner/name, lower case: environments are cached, and model tokens counted, per repository. */
  repository: string;
  /** False for a fork's head: its setup never runs with network (the environment phase says so). */
  allowSetupNetwork?: boolean;
  /** Each finished pipeline phase (the check run's summary follows it). */
  onPhase?: (phase: string, line: string) => void;
  context: JobContext;
}

export interface ExplainRequest {
  repoDir: string;
  /** owner/name, lower case: model tokens are counted per repository. */
  repository: string;
  base: string;
  head: string;
  /** Pull request title and description: the explanation whose claims are audited. */
  description: string;
  context: JobContext;
}

/** What the worker needs from the rest of Hypofix; the real wiring is in src/compose.ts. */
export interface ProcessorDeps {
  /** GitHub for one repository, through the job's installation. */
  connect(installationId: number, repo: { owner: string; repo: string }): Promise<RepoHost>;
  fix(request: FixRequest): Promise<{ result: Result; report: string; patch: string; firstScreen?: string }>;
  explain(request: ExplainRequest): Promise<{ markdown: string }>;
  /** Failure signatures already answered in a repository; without it every failure is answered. */
  answered?: AnsweredFailures;
}

export const CONCLUSION: Record<Result["status"], Conclusion> = {
  fixed: "success",
  // A partial fix is reported (the report says what it fixes and what it does not), never proposed.
  partial: "neutral",
  "no-fix": "neutral",
  "not-reproduced": "neutral",
  flaky: "neutral",
  error: "failure",
};

/** A job whose head commit is known. */
export type ResolvedJob = HypofixJob & { headSha: string };

/** Everything one job's steps share. */
export interface JobRun {
  job: ResolvedJob;
  context: JobContext;
  deps: ProcessorDeps;
  host: RepoHost;
  check: JobCheck;
  /** Read once from the default branch, for the whole job. */
  repoConfig: RepoConfig;
  /** The head is a fork's (not proven the repository's own): never a branch, a pull request or a setup with network. */
  fork: boolean;
  /** Why the head counts as a fork's. */
  forkReason?: string;
  pr: PullRequestInfo | undefined;
}
