import { describe, expect, it } from "vitest";
import {
  parseBlockVerdicts,
  parseConclusion,
  parseFunctionAnswer,
  parseProposal,
} from "../../src/debug/parse.js";

describe("parseProposal", () => {
  it("reads hypothesis, prediction and the one experiment in backticks", () => {
    const out = parseProposal(
      "Hypothesis: the comparison on line 22 excludes equality.\nPrediction: `amount < available` is False when both are 50.\nExperiment: `b bank.py:22 ;; c ;; p amount < available`\n",
    );
    expect(out).toEqual({
      ok: true,
      value: {
        hypothesis: "the comparison on line 22 excludes equality.",
        prediction: "`amount < available` is False when both are 50.",
        experiment: "b bank.py:22 ;; c ;; p amount < available",
        done: false,
      },
    });
  });

  it("accepts bold headers and text without the Hypothesis header the prompt already wrote", () => {
    const out = parseProposal(
      "the loop stops early\n**Prediction:** i never reaches 3\n**Experiment:** `b m.py:4 ;; c ;; p i`",
    );
    expect(out.ok && out.value.experiment).toBe("b m.py:4 ;; c ;; p i");
    expect(out.ok && out.value.hypothesis).toBe("the loop stops early");
  });

  it("drops an observation the model made up", () => {
    const out = parseProposal(
      "h\nPrediction: p\nExperiment: `b m.py:4 ;; c ;; p i`\nObservation: `3`\nConclusion: supported",
    );
    expect(out.ok && out.value.experiment).toBe("b m.py:4 ;; c ;; p i");
  });

  it("refuses a missing experiment, several experiments, or no backticks", () => {
    expect(parseProposal("h\nPrediction: p")).toEqual({
      ok: false,
      problem: 'the step has no "Experiment:" section',
    });
    const several = parseProposal(
      "h\nPrediction: p\nExperiment: `b m.py:1 ;; c ;; p x` and then `b m.py:2 ;; c ;; p y`",
    );
    expect(several.ok).toBe(false);
    expect(!several.ok && several.problem).toMatch(/2 experiments/);
    const bare = parseProposal("h\nPrediction: p\nExperiment: b m.py:1 ;; c ;; p x");
    expect(!bare.ok && bare.problem).toMatch(/not wrapped in backticks/);
    const twoPredictions = parseProposal("h\nPrediction: p\nPrediction: q\nExperiment: `x`");
    expect(!twoPredictions.ok && twoPredictions.problem).toMatch(/2 "Prediction:" sections/);
  });

  it("reads one experiment whose quoted arguments hold backticks (a JS template literal)", () => {
    const out = parseProposal(
      'h\nPrediction: p\nExperiment: `REPLACE(src/unified.ts:44, "`${mark}${op.line}`;", "return `${mark}${op.line}`;") AND RUN`',
    );
    expect(out.ok && out.value.experiment).toBe(
      'REPLACE(src/unified.ts:44, "`${mark}${op.line}`;", "return `${mark}${op.line}`;") AND RUN',
    );
    // Backticks outside quoted arguments still separate two experiments.
    const two = parseProposal(
      'h\nPrediction: p\nExperiment: `REPLACE(m.ts:1, "a", "b") AND RUN` or `b m.ts:2 ;; c ;; p x`',
    );
    expect(!two.ok && two.problem).toMatch(/2 experiments/);
  });

  it("notes DEBUGGING DONE", () => {
    const out = parseProposal(
      'h\nPrediction: p\nExperiment: `REPLACE(m.py:3, "<", "<=") AND RUN` <DEBUGGING DONE>',
    );
    expect(out.ok && out.value.done).toBe(true);
    expect(out.ok && out.value.experiment).toBe('REPLACE(m.py:3, "<", "<=") AND RUN');
  });
});

describe("parseConclusion", () => {
  it("reads the verdict and DONE", () => {
    expect(parseConclusion("Conclusion: The hypothesis is supported. <DEBUGGING DONE>")).toEqual({
      conclusion: "supported",
      text: "The hypothesis is supported.",
      done: true,
    });
    expect(parseConclusion("The hypothesis is rejected: i reaches 3.").conclusion).toBe("rejected");
    expect(parseConclusion("The hypothesis is not supported.").conclusion).toBe("rejected");
    expect(parseConclusion("Hard to say.").conclusion).toBe("undecided");
  });
});

describe("parseFunctionAnswer", () => {
  it("takes the first fenced block with a def", () => {
    expect(parseFunctionAnswer("Here:\n```python\ndef f(x):\n    return x\n```\nDone.")).toEqual({
      ok: true,
      value: "def f(x):\n    return x",
    });
    expect(parseFunctionAnswer("I cannot help").ok).toBe(false);
  });
});

describe("parseBlockVerdicts", () => {
  it("reads one verdict per block, in the answer's wordings, and ignores other lines", () => {
    const answer = [
      "Block 1: Verdict: correct. amount is positive.",
      "**Block 2**: Verdict: **wrong**. 50 of 50 available is refused.",
      "[Block 3]: Verdict: incorrect: raises for a valid withdrawal",
      "Block 2: Verdict: correct. a repeated block keeps its first verdict",
      "Here is the function:",
    ].join("\n");
    expect(parseBlockVerdicts(answer)).toEqual([
      { block: 1, verdict: "correct", explanation: "amount is positive." },
      { block: 2, verdict: "wrong", explanation: "50 of 50 available is refused." },
      { block: 3, verdict: "wrong", explanation: "raises for a valid withdrawal" },
    ]);
    expect(parseBlockVerdicts("def f(): pass")).toEqual([]);
  });
});
