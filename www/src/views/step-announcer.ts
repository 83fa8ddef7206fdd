// What a screen reader hears after a step: one polite sentence per new token — which token, its
// probability, the draw u that chose it (or greedy, or forced), and what each stage removed. The
// charts and the inspector change too, but they are not live regions: this sentence is the only
// announcement a step makes (the plain text and the sliders' values are not re-announced). Tokens
// that come faster than a sentence can be heard (Play at speed, a lesson running to the end) are
// not queued one by one: the first is said as soon as the step is drawn, then at most one sentence
// per `GAP_MS`, the newest token's.
import { grouped, percent, STAGE_NAMES } from "../format";
import { t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import type { AppState, PathEntry } from "../state";
import { langText } from "../token-lang";
import { keptText } from "./rest-text";

const GAP_MS = 700;

export function createStepAnnouncer(host: HTMLElement): { render(state: AppState, label: (id: number) => string): void } {
  const region = document.createElement("p");
  region.id = "step-announcement";
  region.className = "visually-hidden";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  host.append(region);
  let last: PathEntry | undefined;
  let length = 0;
  let saidAt = -Infinity;
  let pending: Array<Node | string> | null = null;
  let timer = 0;
  const say = (words: Array<Node | string>): void => {
    pending = null;
    saidAt = performance.now();
    region.replaceChildren(...words);
  };

  return {
    render(state, label) {
      const entry = state.path[state.path.length - 1];
      // one new token at the end (Step, Play, Force): announced; a reset, a replayed link or
      // lesson, a switch of paths: not (each says so itself, or the user chose it)
      const added = entry !== undefined && entry !== last && (state.path.length === length + 1 || entry.forced);
      last = entry;
      length = state.path.length;
      if (entry === undefined) {
        window.clearTimeout(timer);
        pending = null;
        region.replaceChildren();
      } else if (added) {
        const words = sentence(entry, state.path.length, label(entry.id));
        const wait = saidAt + GAP_MS - performance.now();
        // (the newest token's sentence replaces one still waiting; even the first waits for the end
        // of this render, in a task of its own: said and timed when a screen reader gets it, not
        // before the charts are drawn, which on a slow machine brought the next one within 0.4 s)
        if (pending === null) timer = window.setTimeout(() => pending !== null && say(pending), Math.max(0, wait));
        pending = words;
      }
    },
  };
}

/** The sentence for `entry`, the `n`th token, with the token in its own language. */
function sentence(entry: PathEntry, n: number, token: string): Array<Node | string> {
  const r = entry.result;
  const c = entry.chosen;
  const raw = Math.abs(c.p - c.p_raw) >= 5e-4 ? t("announce.raw", { p: percent(c.p_raw) }) : "";
  const key: MessageKey = entry.forced ? "announce.forced" : r.u === null ? "announce.greedy" : "announce.step";
  const text = t(key, { n, token: "\u0000", p: percent(c.p), raw, u: r.u === null ? "" : r.u.toFixed(3) });
  const [quoteBefore = "", quoteAfter = ""] = t("announce.token", { token: "\u0000" }).split("\u0000");
  const [before = "", after = ""] = text.split("\u0000");
  const cuts = r.stages
    .filter((s) => s.active && s.removed_count > 0)
    .map((s) => t("announce.cut", { stage: STAGE_NAMES[s.name], n: grouped(s.removed_count) }))
    .join(t("announce.join"));
  const whole = r.candidates.some((x) => x.removed_by === "logits") ? r.candidates.filter((x) => x.removed_by !== "logits").length : r.vocab_size;
  const removed = cuts === "" ? "" : t("announce.cuts", { cuts });
  return [before, quoteBefore, langText(token), quoteAfter, after, removed, t("announce.kept", { kept: keptText(r, whole) })];
}
