import { pipelineAudit } from "../audit/index.js";
import type { Config } from "../config.js";
import { createPythonRuntime } from "../lang/python/index.js";
import { createChatModel } from "../llm/openai-model.js";
import type { Logger } from "../log.js";
import type { FixOptions } from "../pipeline.js";
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
}): Pick<FixOptions, "engine" | "makeRuntime" | "audit" | "usage"> {
  const { config, repoConfig, log } = options;
  const model = options.engine === "llm" ? createChatModel(config, log) : undefined;
  return {
    engine: model
      ? createLlmEngine(model, { maxSteps: repoConfig.max_iterations, patches: repoConfig.patches })
      : createOfflineEngine(),
    makeRuntime: (sandbox) => createPythonRuntime(sandbox, { log }),
    audit: pipelineAudit({ engine: model ? "llm" : "offline", ...(model ? { model } : {}) }),
    ...(model ? { usage: () => model.usage } : {}),
  };
}
