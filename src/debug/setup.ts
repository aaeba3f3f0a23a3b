import { pipelineAudit } from "../audit/index.js";
import type { Config } from "../config.js";
import { createPythonRuntime } from "../lang/python/index.js";
import { createChatModel } from "../llm/openai-model.js";
import { localize } from "../localize/index.js";
import type { Logger } from "../log.js";
import type { FixOptions, LocalizerInput, LocalizerOutput } from "../pipeline.js";
import type { ChatModel } from "../llm/types.js";
import type { RepoConfig } from "../repo-config.js";
import { createLlmEngine } from "./llm.js";
import { createOfflineEngine } from "./offline.js";

/**
 * The parts of a fix run that depend on the engine: the debugging engine, the
 * Python runtime, the audit of the validated patch, and the model's token use.
 * The CLI and the App's worker build a run the same way.
 */
export function createFixRun(options: {
  engine: "offline" | "llm";
  config: Config;
  repoConfig: RepoConfig;
  log: Logger;
}): Pick<FixOptions, "engine" | "makeRuntime" | "audit" | "usage" | "localizer"> {
  const { config, repoConfig, log } = options;
  const model = options.engine === "llm" ? createChatModel(config, log) : undefined;
  return {
    engine: model
      ? createLlmEngine(model, { maxSteps: repoConfig.max_iterations, patches: repoConfig.patches })
      : createOfflineEngine(),
    makeRuntime: (sandbox) => createPythonRuntime(sandbox, { log }),
    audit: pipelineAudit({ engine: model ? "llm" : "offline", ...(model ? { model } : {}) }),
    ...(model
      ? {
          usage: () => model.usage,
          localizer: autoflLocalizer(model, log),
        }
      : {}),
  };
}

/** AutoFL as the pipeline's localizer: the model explores coverage and code; SBFL stands in when it fails. */
export function autoflLocalizer(
  model: ChatModel,
  log: Logger,
  runs?: number,
): (input: LocalizerInput) => Promise<LocalizerOutput> {
  return async (input) => {
    const found = await localize({
      runtime: input.runtime,
      files: input.sandbox,
      failingTests: input.failingTests,
      failures: input.failures,
      coverage: input.coverage,
      engine: "llm",
      model,
      log,
      ...(runs !== undefined ? { runs } : {}),
    });
    return { entries: found.entries, agreement: found.agreement, runs: found.transcript?.length ?? 0 };
  };
}
