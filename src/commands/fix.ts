import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Octokit } from "@octokit/rest";
import { type Command, Option } from "commander";
import { createRunContext } from "../compose.js";
import { loadConfig, type Config } from "../config.js";
import { UserError } from "../errors.js";
import { readRepoConfig } from "../outbound/config.js";
import type { GitHubClient } from "../outbound/publish.js";
import { createRepoHost } from "../outbound/repo-host.js";
import { apiUrlFor, findRemoteFailure, parseGitHubUrl, type GitHubTarget } from "../outbound/target.js";
import { createLogger, type Logger } from "../log.js";
import { publishOutcome } from "../outbound/publish-outcome.js";
import { runFix, type FixOutcome } from "../pipeline/index.js";
import { loadRepoConfig } from "../repo-config.js";
import { ENGINE_KINDS, type EngineKind } from "../result.js";
import type { SandboxBackend } from "../sandbox/index.js";
import { repeatable } from "./options.js";

/**
 * Exit codes (README, "Exit codes"): 0 a validated patch, 1 none found, 3 nothing
 * to fix (not reproduced, flaky), 4 a partial fix (some failing tests still fail),
 * 2 bad input or an infrastructure error.
 */
export const EXIT = { fixed: 0, partial: 4, "no-fix": 1, "not-reproduced": 3, flaky: 3, error: 2 } as const;

interface FixCliOptions {
  test: string[];
  engine: EngineKind;
  sandbox: SandboxBackend | "auto";
  out: string;
  json?: boolean;
  openPr?: boolean;
  apiUrl?: string;
}

/**
 * `hypofix fix <repo-dir | github-url> [--test <id>]... [--engine offline|llm] [--sandbox ...] [--out <dir>] [--json] [--open-pr]`.
 * Writes report.md, patch.diff and result.json to --out; a progress line per phase on stderr.
 */
export function registerFixCommand(program: Command): void {
  program
    .command("fix")
    .description(
      "reproduce a failing test, debug it scientifically, and write a validated patch with its report",
    )
    .argument("<target>", "a local checkout, or a GitHub pull request or Actions run URL (uses GITHUB_TOKEN)")
    .option(
      "--test <id>",
      "id of a failing test, e.g. a pytest node id (repeatable; default: the CI log's, else every failing test)",
      repeatable,
      [],
    )
    .addOption(
      new Option("--engine <engine>", "who writes hypotheses").choices(ENGINE_KINDS).default("offline"),
    )
    .addOption(
      new Option("--sandbox <backend>", "where tests run")
        .choices(["auto", "docker", "local"])
        .default("auto"),
    )
    .option("--out <dir>", "where report.md, patch.diff and result.json go", "hypofix-out")
    .option("--json", "print result.json to stdout")
    .option(
      "--open-pr",
      "for a URL: publish as the App does (a pull request for a validated fix, else a comment)",
    )
    .option("--api-url <url>", "GitHub REST API root (default: GITHUB_API_URL, else from the URL's host)")
    .action(async (target: string, opts: FixCliOptions) => {
      const config = loadConfig();
      const log = createLogger(process.env.LOG_LEVEL ?? "warn");
      const started = Date.now();
      const progress = (line: string) =>
        process.stderr.write(`hypofix: [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
      const remote = parseGitHubUrl(target);
      if (!remote && opts.openPr)
        throw new UserError("--open-pr needs a GitHub pull request or Actions run URL");
      const outcome = remote
        ? await fixRemote(remote, opts, { config, log, progress })
        : await fixLocal(target, opts, { config, log, progress });
      const out = resolve(opts.out);
      await mkdir(out, { recursive: true });
      await writeFile(join(out, "report.md"), outcome.report);
      await writeFile(join(out, "patch.diff"), outcome.patch);
      await writeFile(join(out, "result.json"), `${JSON.stringify(outcome.result, null, 2)}\n`);
      process.stderr.write(`hypofix: ${outcome.result.status}: ${outcome.result.reason}\n`);
      process.stderr.write(`hypofix: wrote ${join(opts.out, "report.md")}, patch.diff, result.json\n`);
      if (opts.json) process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
      process.exitCode = EXIT[outcome.result.status];
    });
}

interface CommandContext {
  config: Config;
  log: Logger;
  progress: (line: string) => void;
}

async function fixLocal(repoDir: string, opts: FixCliOptions, { config, log, progress }: CommandContext) {
  const repoConfig = await loadRepoConfig(repoDir);
  const dir = resolve(repoDir);
  const context = await createRunContext({ engine: opts.engine, config, repoConfig, repoDir: dir, log });
  return runFix(context, { repoDir: dir, tests: opts.test, backend: opts.sandbox, progress });
}

/**
 * A pull request or Actions run on GitHub: its newest failed run's log names the
 * tests, the commit is fetched with git (the token in a header, never a URL), the
 * configuration comes from the default branch as the App reads it, and the
 * pipeline runs here. `--open-pr` publishes exactly as the App's worker does.
 */
async function fixRemote(
  target: GitHubTarget,
  opts: FixCliOptions,
  { config, log, progress }: CommandContext,
): Promise<FixOutcome> {
  const token = process.env.GITHUB_TOKEN;
  if (!token) {
    throw new UserError(
      "GITHUB_TOKEN is not set",
      "a token that can read the repository (write, for --open-pr)",
    );
  }
  const baseUrl = opts.apiUrl ?? process.env.GITHUB_API_URL ?? apiUrlFor(target.webHost);
  // GitHubClient is Probot's Octokit type; outbound/ uses only the REST methods and paginate, which @octokit/rest has.
  const octokit = new Octokit({
    auth: token,
    baseUrl,
    userAgent: "hypofix-cli",
    // A failed request becomes the command's one-line error; its request log line is only for debugging.
    log: {
      debug: (m: string) => log.debug(m),
      info: (m: string) => log.debug(m),
      warn: (m: string) => log.warn(m),
      error: (m: string) => log.debug(m),
    },
  }) as unknown as GitHubClient;
  const { repo } = target;
  const failure = await explainApiErrors(
    () => findRemoteFailure(octokit, target),
    `${repo.owner}/${repo.repo}`,
  );
  progress(
    `ci: ${failure.headSha.slice(0, 12)}${failure.workflowRunId ? `, failed run ${failure.workflowRunId}` : ", no failed run"}; ${failure.failingTests.length} failing test(s) in its log`,
  );
  const lookup = await readRepoConfig(octokit, repo);
  if ("problem" in lookup) throw new UserError(lookup.problem);
  const repoConfig = lookup.config;
  const host = createRepoHost(octokit, token, repo);
  const checkout = await host.checkout(failure.headSha);
  try {
    const context = await createRunContext({
      engine: opts.engine,
      config,
      repoConfig,
      repoDir: checkout.dir,
      log,
    });
    const outcome = await runFix(context, {
      repoDir: checkout.dir,
      tests: opts.test.length > 0 ? opts.test : failure.tests,
      backend: opts.sandbox,
      headSha: failure.headSha,
      repository: `${repo.owner}/${repo.repo}`.toLowerCase(),
      ...(failure.fork ? { allowSetupNetwork: false } : {}),
      ...(failure.excerpt ? { ciLog: failure.excerpt } : {}),
      progress,
    });
    if (opts.openPr) {
      const published = await publishOutcome(host, outcome, checkout, {
        headSha: failure.headSha,
        baseBranch: async () => failure.baseBranch,
        repoConfig,
        language: context.language,
        fork: failure.fork,
        ...(failure.prNumber !== undefined ? { prNumber: failure.prNumber } : {}),
      });
      if (published.pullRequest) {
        progress(`publish: ${published.pullRequest.action} ${published.pullRequest.url}`);
      }
      if (published.blocked) progress(`publish: ${published.blocked.reason}`);
      else if (failure.prNumber !== undefined)
        progress(`publish: commented on pull request ${failure.prNumber}`);
      if (failure.fork && outcome.result.status === "fixed")
        progress("publish: a fork's head never gets a pull request");
    }
    return outcome;
  } finally {
    await checkout.dispose();
  }
}

/** GitHub's "not found" and "no access" as one line a user can act on. */
async function explainApiErrors<T>(work: () => Promise<T>, what: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 401 || status === 403 || status === 404) {
      throw new UserError(
        `GitHub answered ${status} for ${what}: ${(err as Error).message.split("\n")[0]}`,
        "check the URL, GITHUB_TOKEN's access, and GITHUB_API_URL / --api-url for GitHub Enterprise",
      );
    }
    throw err;
  }
}
