/**
 * Writes abstract sessions as the lines of an OpenHands evaluation `output.jsonl`
 * (`EvalOutput.model_dump_json()`: compact JSON, fields in the model's order), each instance's
 * `history` the V0 events of its session, and as the canonical events the adapter should give (one
 * run per instance: every user message after the first is the harness's reply, not a new run).
 */
import { canonicalText, v0Events, type AbstractSession } from "./openhandsWriters.js";

export interface InstanceSpec {
  readonly session: AbstractSession;
  /** The instance's `error`: set for one that failed (its history may then be empty). */
  readonly error?: string;
  /** Replaces the history written from the session (an empty one, pairs, a bad one…). */
  readonly history?: unknown;
}

const METADATA = {
  agent_class: "CodeActAgent",
  llm_config: { model: "litellm_proxy/claude-sonnet-4-20250514", api_key: "**********", base_url: "https://llm-proxy.example", temperature: 0.0, max_output_tokens: 64000, native_tool_calling: null },
  agent_config: null,
  max_iterations: 100,
  eval_output_dir: "evaluation/evaluation_outputs/outputs/princeton-nlp__SWE-bench_Verified-test/CodeActAgent/claude-sonnet-4_maxiter_100_N_v0.40.0",
  start_time: "2025-01-20 20:28:51",
  git_commit: "0c7b2e5a1f",
  dataset: "princeton-nlp/SWE-bench_Verified",
  data_split: "test",
  details: { mode: "swe" },
  condenser_config: { type: "noop" },
  instruction_template_name: null,
};

/** The instance's `metrics` (LLM cost and token use, as the evaluation records them). */
function metricsOf(steps: number): Record<string, unknown> {
  const usage = (n: number) => ({ model: "claude-sonnet-4", prompt_tokens: 1000 + n, completion_tokens: 50, cache_read_tokens: 0, cache_write_tokens: 0, context_window: 200000, per_turn_token: 1050 + n, response_id: `chatcmpl-${n}` });
  return {
    accumulated_cost: 0.012 * steps,
    max_budget_per_task: null,
    accumulated_token_usage: { ...usage(steps), response_id: "" },
    costs: Array.from({ length: steps }, (_, n) => ({ model: "claude-sonnet-4", cost: 0.012, timestamp: 1737404940 + n })),
    response_latencies: Array.from({ length: steps }, (_, n) => ({ model: "claude-sonnet-4", latency: 2.5, response_id: `chatcmpl-${n + 1}` })),
    token_usages: Array.from({ length: steps }, (_, n) => usage(n + 1)),
  };
}

/** One instance as the evaluation writes it. */
export function evalInstance(spec: InstanceSpec): Record<string, unknown> {
  const { session } = spec;
  const history = spec.history ?? (spec.error !== undefined ? [] : v0Events(session));
  const steps = Array.isArray(history) ? history.length : 0;
  return {
    instance_id: session.id,
    test_result: { git_patch: spec.error !== undefined ? "" : "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n" },
    instruction: "<uploaded_files>\n/workspace/repo\n</uploaded_files>\ntask 0",
    metadata: METADATA,
    history,
    metrics: metricsOf(steps),
    error: spec.error ?? null,
    instance: { repo: "example/repo", instance_id: session.id, base_commit: "abc123", problem_statement: "task 0", version: "1.0" },
  };
}

/** The lines of an `output.jsonl`. */
export function evalOutput(specs: readonly InstanceSpec[]): string {
  return specs.map((spec) => JSON.stringify(evalInstance(spec))).join("\n") + "\n";
}

/** The canonical events of the instances: each session's runs joined into its one run. */
export function evalCanonicalText(sessions: readonly AbstractSession[]): string {
  return sessions.map((session) => canonicalText({ id: session.id, runs: [session.runs.flat()] }, "v0")).join("");
}
