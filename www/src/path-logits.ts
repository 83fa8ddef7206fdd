// The logits of a path's steps, made again when read instead of kept: a path rebuilt in the
// background keeps, per token, the core's record of it (its rank, p, the core's choice) but not the
// 8,000 logits it was chosen from (32 KB a token: 130 MB for a link of 32 paths of 127 tokens).
// When a past step's full trace, Find a token or the CSV needs them, the model runs over that path
// again (one batched forward pass, `forceMany`, which gives every position's logits bit for bit as
// one token at a time) on a Generator of its own, and the last path asked for is kept, so reading
// one step after another of the same path costs one pass.
import type { Generator, StepConfig } from "./core";
import type { StepInput } from "./state";

export class PathLogits {
  private gen: Generator | null = null;
  /** The last path run, with its logits: row i is what token i was forced at. */
  private last: { ids: readonly number[]; rows: Float32Array; vocab: number } | null = null;
  private readonly spawn: () => Generator | null;
  private readonly prompt: string;

  /** `spawn` makes the Generator (once, when first needed); every path starts after `prompt`. */
  constructor(spawn: () => Generator | null, prompt: string) {
    this.spawn = spawn;
    this.prompt = prompt;
  }

  /** A step input whose logits are those token `index` of `path` was forced at, made when read. */
  input(path: readonly number[], index: number, config: StepConfig): StepInput {
    const logits = (): Float32Array => this.at(path, index);
    return {
      config,
      get logits(): Float32Array {
        return logits();
      },
    };
  }

  /** The logits token `index` of `path` was forced at (a copy). */
  at(path: readonly number[], index: number): Float32Array {
    const last = this.last !== null && covers(this.last.ids, path, index) ? this.last : this.run(path);
    if (index >= last.rows.length / last.vocab) throw new Error(`token ${index + 1} of the path could not be appended again`);
    return last.rows.slice(index * last.vocab, (index + 1) * last.vocab);
  }

  /** The model over `path` after the prompt, every limit off (the path was appended under its own). */
  private run(path: readonly number[]): { ids: readonly number[]; rows: Float32Array; vocab: number } {
    this.gen ??= this.spawn();
    const gen = this.gen;
    if (gen === null) throw new Error("the model cannot be loaded twice");
    gen.setPrompt(this.prompt);
    gen.setMaxNewTokens(0xffffffff);
    gen.setStopSequences([]);
    const run = gen.forceMany(Uint32Array.from(path));
    const vocab = run.tokens.length === 0 ? 1 : run.logits.length / run.tokens.length;
    this.last = { ids: [...path], rows: run.logits, vocab };
    return this.last;
  }
}

/** Whether a run over `ran` gave the logits of token `index` of `path` (the same tokens before it). */
function covers(ran: readonly number[], path: readonly number[], index: number): boolean {
  if (index >= ran.length) return false;
  for (let i = 0; i < index; i++) if (ran[i] !== path[i]) return false;
  return true;
}
