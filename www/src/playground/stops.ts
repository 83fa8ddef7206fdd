// When generation ends after a token: one rule for the main path and every side run (Compare over
// a server), so a column stops exactly where Step would.
import type { Appended, LogitsSource } from "../sources/logits-source";
import type { Params, StopReason } from "../state";

/**
 * Why generation ends after `id` was appended as the `generated`-th new token, or null. A source
 * that judges stops itself (the model, in wasm) has said so in `out.stop`; for the others the page
 * checks eos, the stop sequences on the source's text and max_new_tokens, in that order.
 */
export function stopAfterAppend(source: LogitsSource, out: Appended, id: number, params: Readonly<Params>, generated: number): StopReason | null {
  if (out.stop !== undefined) {
    if (out.stop === null) return null;
    return out.stop.kind === "max_tokens" ? { kind: "max_tokens", n: params.max_new_tokens } : out.stop;
  }
  if (source.isEos(id)) return { kind: "eos" };
  // the text only when there is a stop sequence to look for (it grows with the path)
  const text = params.stop.length > 0 ? source.text() : "";
  const matched = params.stop.find((s) => s !== "" && text.includes(s));
  if (matched !== undefined) return { kind: "stop_sequence", sequence: matched };
  if (generated >= params.max_new_tokens) return { kind: "max_tokens", n: params.max_new_tokens };
  return null;
}
