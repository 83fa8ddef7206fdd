// A library user's program against the package's own types (www/pkg/nexttoken.d.ts), written the
// way the runtime allows: typed-usage.test.mjs checks it with `tsc --strict` (and
// exactOptionalPropertyTypes, noUncheckedIndexedAccess), then strips the types and runs it.
import type * as Api from "../../www/pkg/nexttoken.js";
import type { GeneratedToken, StepConfig, StepResult, StopReason } from "../../www/pkg/nexttoken.js";

type Package = Pick<typeof Api, "Generator" | "step" | "sampleCounts">;

export interface Usage {
  /** Each prompt's generated text and why it stopped (the token's word and the getter's). */
  texts: { prompt: string; text: string; stop: StopReason | null; stopped: StopReason | undefined }[];
  /** `stopped` before any stop. */
  runningStopped: StopReason | undefined;
  /** A greedy next(), no config given, and step(logits) with none. */
  bareNext: number;
  bareStep: number;
  /** With the Generator's own Uint32Arrays as the id lists. */
  penalised: StepResult;
  beams: string[];
  histogram: Map<number, number>;
  /** next()'s trace read without `!`, and force()'s, which is null. */
  nextChosenP: number;
  forcedTrace: null;
}

const STOP_REASONS: readonly StopReason[] = ["eos", "max_new_tokens", "stop_sequence", "user", "context_full"];

function reason(s: StopReason): string {
  switch (s) {
    case "eos": return "the end token";
    case "max_new_tokens": return "the length limit";
    case "stop_sequence": return "a stop sequence";
    case "user": return "the caller";
    case "context_full": return "a full context";
  }
}

export function usage(api: Package, weights: Uint8Array, tokenizer: string): Usage {
  const gen = new api.Generator(weights, tokenizer);
  const stops = ["。", "\n"] as const;
  gen.setStopSequences(stops);
  const runningStopped = gen.stopped;
  const texts: Usage["texts"] = [];
  for (const prompt of ["TypeScript 是 JavaScript 的", "中国的首都是"]) {
    gen.setPrompt(prompt);
    gen.setMaxNewTokens(24);
    const config: StepConfig = { seed: 7, temperature: 0.8, top_p: 0.95, min_new_tokens: 2 };
    let t: GeneratedToken;
    do t = gen.next(config); while (t.stop === null);
    const stopped = gen.stopped;
    if (stopped !== undefined && !STOP_REASONS.includes(stopped)) throw new Error(`stopped: ${stopped}`);
    if (stopped !== undefined) reason(stopped);
    texts.push({ prompt, text: gen.text(), stop: t.stop, stopped });
  }

  gen.setPrompt("中国的首都是");
  const first = gen.next();
  const bareNext = first.token;
  const nextChosenP = first.trace.chosen.p;
  gen.rewind(1);
  const forcedTrace = gen.force(bareNext).trace;
  gen.rewind(1);
  const logits = gen.logits();
  const bareStep = api.step(logits).token;
  const penalised = api.step(logits, {
    seed: 1,
    history: gen.tokens(),
    history_prompt_len: gen.promptLength,
    repetition_penalty: 1.3,
    trace_ids: gen.encode("北京"),
    eos_token_id: gen.tokens().subarray(0, 1),
  });

  const beams: string[] = [];
  for (const c of api.step(logits, { strategy: "greedy", trace_top: 3 }).candidates) {
    const beam = gen.spawn();
    beam.setPrompt("中国的首都是");
    beam.forceMany(new Uint32Array([c.id]));
    for (let i = 0; i < 4 && beam.stopped === undefined; i++) beam.next({ seed: 5 });
    beams.push(beam.text());
    beam.free();
  }

  const counts = api.sampleCounts(logits, { seed: 3, temperature: 1.5 }, 500);
  const histogram = new Map<number, number>();
  counts.ids.forEach((id, i) => histogram.set(id, counts.counts[i] ?? 0));
  gen.free();
  return { texts, runningStopped, bareNext, bareStep, penalised, beams, histogram, nextChosenP, forcedTrace };
}
