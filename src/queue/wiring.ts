import type { Probot } from "probot";
import { explainChange } from "../audit/explain.js";
import type { Config } from "../config.js";
import { createFixRun } from "../debug/setup.js";
import type { GitHubClient } from "../github/publish.js";
import { createChatModel } from "../llm/openai-model.js";
import type { Logger } from "../log.js";
import { runFix } from "../pipeline.js";
import type { ProcessorDeps } from "./processor.js";

/** The model engine when an endpoint is configured; otherwise the offline engine. */
export function defaultEngine(config: Config): "offline" | "llm" {
  return config.llm.baseURL || config.llm.apiKey ? "llm" : "offline";
}

/** The worker's real dependencies: Probot's installation auth, the pipeline, the audit. Always the Docker sandbox. */
export function realProcessorDeps(probot: Probot, config: Config, log: Logger): ProcessorDeps {
  const engine = defaultEngine(config);
  return {
    async auth(installationId, repo) {
      const octokit = (await probot.auth(installationId)) as GitHubClient;
      // git gets its own token: read-only, for this one repository.
      const app = (await probot.auth()) as GitHubClient;
      const { data } = await app.rest.apps.createInstallationAccessToken({
        installation_id: installationId,
        repositories: [repo.repo],
        permissions: { contents: "read" },
      });
      return { octokit, token: data.token };
    },
    async fix(request) {
      const run = createFixRun({ engine, config, repoConfig: request.repoConfig, log: request.context.log });
      return runFix({
        ...run,
        repoDir: request.repoDir,
        tests: request.tests,
        backend: "docker",
        config,
        repoConfig: request.repoConfig,
        headSha: request.headSha,
        log: request.context.log,
        ...(request.ciLog ? { bugReport: request.ciLog } : {}),
      });
    },
    async explain(request) {
      return explainChange(request.repoDir, {
        base: request.base,
        head: request.head,
        description: request.description,
        engine,
        sandbox: "docker",
        config,
        log: request.context.log,
        ...(engine === "llm" ? { model: createChatModel(config, log) } : {}),
      });
    },
  };
}
