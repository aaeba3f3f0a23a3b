import { languageById, resolveLanguage } from "../lang/registry.js";
import type { Language } from "../lang/types.js";
import type { Checkout } from "../outbound/checkout.js";
import type { FixRun } from "../outbound/delivery.js";
import type { JobRun } from "./job-run.js";

/** The failing tests and the failure excerpt the CI logs of the job's run show; none when they cannot be read. */
export async function ciFacts(run: JobRun): Promise<{ tests: string[]; ciLog?: string }> {
  const { job, host, repoConfig, context } = run;
  const tests = job.tests ?? [];
  if (job.checkRunId === undefined && job.workflowRunId === undefined) return { tests };
  try {
    const configured = repoConfig.language ? languageById(repoConfig.language) : undefined;
    const facts = await host.ciFailure(job, configured);
    return {
      tests: tests.length > 0 ? tests : facts.tests,
      ...(facts.excerpt ? { ciLog: facts.excerpt } : {}),
    };
  } catch (err) {
    // Logs are a hint: without them the suite is run to find the failing tests.
    context.log.warn({ err: String(err) }, "could not read the CI logs");
    return { tests };
  }
}

/**
 * Runs the pipeline on a checkout (its language resolved from the configuration and the files),
 * the check run following each phase; `constraint` is the maintainer's words for the llm engine.
 */
export async function fixOn(
  run: JobRun,
  checkout: Checkout,
  input: { tests: string[]; ciLog?: string; constraint?: string },
): Promise<{ outcome: FixRun; language: Language }> {
  const { job, repoConfig, context, check, fork } = run;
  const language = await resolveLanguage({
    repoDir: checkout.dir,
    ...(repoConfig.language ? { configured: repoConfig.language } : {}),
    ...(repoConfig.working_directory ? { workingDirectory: repoConfig.working_directory } : {}),
  });
  const outcome = await run.deps.fix({
    repoDir: checkout.dir,
    tests: input.tests,
    headSha: checkout.sha,
    repoConfig,
    language,
    context,
    repository: `${job.repo.owner}/${job.repo.name}`.toLowerCase(),
    onPhase: (phase, line) => check.phase(phase, line),
    ...(fork ? { allowSetupNetwork: false } : {}),
    ...(input.ciLog ? { ciLog: input.ciLog } : {}),
    ...(input.constraint ? { constraint: input.constraint } : {}),
  });
  context.signal.throwIfAborted();
  return { outcome, language };
}
