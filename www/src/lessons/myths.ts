// The chapter's six misconceptions (开发者常见误解), each as one short demonstration on the page.
import type { Actions } from "../actions";
import { num, percent } from "../format";
import { lang, t } from "../i18n/index";
import type { Params } from "../state";
import { DEFAULT_PARAMS } from "../state";
import { CAPITAL_PROMPT, PLUGIN_PROMPT } from "./experiments";
import { bars, button, generatedText, gloss, glossed, glimpseCache, glimpseP, h, keyed, KEPT, liveSource, ownSliders, para, pointer, runToEnd, say, tokenShown } from "./kit";
import type { Lesson } from "./kit";
import { glossWithText } from "./gloss-text";

export const TS_PROMPT = "TypeScript 是 JavaScript 的";
/** A prompt on which the tiny model's greedy path falls into a loop. */
export const LOOP_PROMPT = "状态";
/**
 * A prompt the tiny model gets confidently wrong: greedy writes 巴黎 (Paris); the answer, 伦敦 (London),
 * starts with 伦, its second candidate. (The first edition said 北京 after 「德国的首都是」; the second knows 柏林.)
 */
export const WRONG_PROMPT = "英国的首都是";
/** The first tokens of the wrong answer (巴黎) and of the right one (伦敦). */
const WRONG_TOKEN = "巴";
const RIGHT_TOKEN = "伦";

/**
 * The block of tokens the path ends by repeating back to back, and how many times, covering the most
 * tokens: a short block (≤ 3 tokens) three times or more, a longer one (up to a sentence, 16 tokens)
 * twice or more — the second edition's greedy repeats whole sentences, the first repeated words.
 */
function loopAtEnd(ids: readonly number[]): { period: number; times: number } | null {
  let best: { period: number; times: number } | null = null;
  for (let period = 1; period <= 16; period++) {
    let times = 1;
    while (ids.length >= (times + 1) * period) {
      const a = ids.slice(ids.length - period);
      const b = ids.slice(ids.length - (times + 1) * period, ids.length - times * period);
      if (a.some((x, i) => x !== b[i])) break;
      times++;
    }
    if (times >= (period <= 3 ? 3 : 2) && (best === null || times * period > best.times * best.period)) best = { period, times };
  }
  return best;
}

/** 误解一：the model does not plan the whole answer. Force another first token; all after it changes. */
export function noPlan(): Lesson {
  return {
    prompts: [TS_PROMPT],
    async setUp(actions, on) {
      await actions.apply({ source: on, presetId: "ts-zh", prompt: TS_PROMPT, params: { strategy: "greedy", max_new_tokens: 12 }, path: [] });
      await runToEnd(actions);
    },
    build(body, env) {
      const { actions } = env;
      const paths = h("ol", { class: "lesson-paths", attrs: { "aria-label": t("lesson.myth1.paths") } });
      const choices = h("div", { class: "lesson-choices", attrs: { role: "group", "aria-labelledby": "myth1-q" } });
      const fork = (id: number): void =>
        env.run(async () => {
          const { current: _current, viewing: _viewing, ...snap } = actions.snapshot();
          const existing = actions.state().branches.findIndex((b) => b.forkAt === 0 && b.entries[0]?.id === id && b.entries[0]?.forced);
          if (existing >= 0) {
            await actions.apply({ ...snap, current: existing });
            return;
          }
          await actions.apply({ ...snap, branches: [...snap.branches, { parent: 0, forkAt: 0, tokens: [{ token: id, forced: true }] }] });
          await runToEnd(actions);
        });
      body.append(
        para("lesson.myth1.intro"),
        h(
          "div",
          { class: "lesson-cols" },
          h("div", {}, h("p", { class: "lesson-question", id: "myth1-q" }, t("lesson.myth1.question")), choices, h("div", { class: "lesson-row" }, pointer(env, "lesson.show.tree", "#tree"))),
          h("div", {}, h("p", { class: "lesson-caption" }, t("lesson.myth1.paths")), paths),
        ),
        para("lesson.myth1.wrap", {}, "lesson-text lesson-wrap"),
      );
      return () => {
        const state = actions.state();
        const first = state.branches[0]?.entries[0];
        const alternatives = first === undefined ? [] : [...first.result.candidates].sort((a, b) => b.p_raw - a.p_raw).slice(1, 5);
        keyed(choices, alternatives.map((c) => c.id).join("."), () =>
          alternatives.map((c) => {
            const text = actions.tokenText(c.id);
            const b = button(`${glossed(text)} · ${percent(c.p_raw)}`, () => fork(c.id));
            b.setAttribute("aria-label", t("lesson.myth1.force", { token: glossed(text), p: percent(c.p_raw) }));
            return b;
          }),
        );
        keyed(paths, state.branches.map((b) => b.ids.join(".")).join("|") + `|${state.currentBranch}`, () =>
          state.branches.map((b, i) => {
            const head = b.entries[0];
            const li = h(
              "li",
              { class: i === state.currentBranch ? "current" : "" },
              h("span", { class: "first" }, head === undefined ? "" : tokenShown(actions, head)),
              generatedText(actions, b.entries.slice(1)),
            );
            if (i === state.currentBranch) li.setAttribute("aria-current", "true");
            return li;
          }),
        );
      };
    },
  };
}

/** 误解三：a higher temperature does not make the model smarter; at T = 2 北京 loses most of its mass. */
export function temperatureNotSmarter(): Lesson {
  const temperatures = [0.5, 1, 2];
  return {
    prompts: [CAPITAL_PROMPT],
    async setUp(actions, on) {
      // seed 42 on purpose: its first u (0.955) draws a rare token at T = 2 on the first Step — the
      // lesson's point, shown (tests/e2e/teach.test.mjs pins it)
      await actions.apply({ source: on, presetId: "capital-zh", prompt: CAPITAL_PROMPT, params: { temperature: 2, top_p: 1, seed: 42 }, path: [] });
    },
    build(body, env) {
      const { actions } = env;
      const glimpse = glimpseCache(actions, env.update);
      const grid = h("div", { class: "lesson-sides three" });
      const wrap = h("p", { class: "lesson-text lesson-wrap" });
      // "sample 1,000 times and count", done here: projector mode hides the page's Sample buttons
      const counted = h("p", { class: "lesson-text lesson-counted", attrs: { role: "status" } });
      const sample = button(t("lesson.myth3.sample"), () =>
        env.run(async () => {
          // the first token after the prompt (a Step meanwhile moved on), at the page's temperature
          // the count is of the first token's draws: after a Step the page goes back there, and says so
          const state = actions.state();
          const back = state.prompt !== CAPITAL_PROMPT || state.path.length > 0;
          if (back) await actions.apply({ source: liveSource(actions), prompt: CAPITAL_PROMPT, params: { ...state.params }, path: [] });
          const counts = actions.sample(1000);
          const k = [...(counts ?? [])].reduce((sum, [id, times]) => (actions.tokenText(id) === answerNow() ? sum + times : sum), 0);
          const line = t("lesson.myth3.counted", { token: glossed(answerNow()), k, p: percent(k / 1000) });
          say(counted, counts === null ? "" : back ? `${t("lesson.myth3.back")} ${line}` : line);
        }),
      );
      body.append(
        para("lesson.myth3.intro"),
        grid,
        wrap,
        h("div", { class: "lesson-row" }, sample, pointer(env, "lesson.show.temperature", "#temperature"), counted),
      );
      const at = (temperature: number) => glimpse.get(CAPITAL_PROMPT, { ...DEFAULT_PARAMS, temperature, top_p: 1 });
      // the answer is the model's own top token at T = 1: 北京 on the embedded model, the server's otherwise
      const answerNow = (): string => {
        const one = at(1);
        return one !== null && typeof one !== "string" ? (one.kept[0]?.text ?? "北京") : "北京";
      };
      return () => {
        const answer = answerNow();
        const server = actions.state().source === "server";
        const p = (temperature: number): string => {
          const g = at(temperature);
          return g === null || typeof g === "string" ? "…" : percent(glimpseP(g, answer));
        };
        wrap.textContent = server ? t("srv.myth3.wrap", { token: answer, p2: p(2), p1: p(1), p05: p(0.5) }) : t("lesson.myth3.wrap");
        keyed(grid, glimpse.stamp(), () =>
          temperatures.map((temperature) => {
            const g = at(temperature);
            const title = h("h4", {}, `T = ${num(temperature, 1)}`);
            if (g === null) return h("div", { class: "lesson-side" }, title, h("p", {}, t("srv.lesson.loading")));
            if (typeof g === "string") return h("div", { class: "lesson-side" }, title, h("p", {}, g));
            const right = glimpseP(g, answer);
            const others = g.kept.filter((c) => c.text !== answer).slice(0, 2);
            return h(
              "div",
              { class: "lesson-side", attrs: { "data-t": String(temperature) } },
              title,
              bars(
                [{ label: glossed(answer), p: right, kind: "chosen" }, ...others.map((c) => ({ label: glossed(c.text), p: c.p })), { label: t("lesson.myth3.rest"), p: Math.max(0, 1 - right - others.reduce((sum, c) => sum + c.p, 0)) }],
                t("lesson.candidatesOf", { prompt: CAPITAL_PROMPT }),
                "absolute",
              ),
            );
          }),
        );
      };
    },
  };
}

/** 误解四：greedy is not always best; on the tiny model its path falls into a loop. */
export function greedyNotAlwaysBest(): Lesson {
  const run = (actions: Actions, params: Partial<Params>, on = liveSource(actions)): Promise<void> =>
    // seed 42 (named on the sampling button): its sampled text leaves 状态 at once and never loops
    // (teach.test.mjs pins it); 32 tokens: greedy's loop is a whole sentence, and the second ends there
    actions.apply({ source: on, presetId: "ts-zh", prompt: LOOP_PROMPT, params: { max_new_tokens: 32, seed: 42, ...params }, path: [] }).then(() => runToEnd(actions));
  return {
    prompts: [LOOP_PROMPT],
    setUp: (actions, on) => run(actions, { strategy: "greedy" }, on),
    build(body, env) {
      const { actions } = env;
      const text = h("p", { class: "lesson-context" });
      const verdict = h("p", { class: "lesson-feedback", attrs: { role: "status" } });
      // "on this tiny model, greedy falls into a loop" is the embedded model's; a server's is seen, not told
      const intro = h("p", { class: "lesson-text" });
      body.append(
        intro,
        text,
        verdict,
        h(
          "div",
          { class: "lesson-row" },
          button(t("lesson.myth4.greedy"), () => env.run(() => run(actions, { strategy: "greedy" }))),
          button(t("lesson.myth4.sample"), () => env.run(() => run(actions, { strategy: "sample", temperature: 0.8, top_p: 0.9 }))),
          pointer(env, "lesson.show.strategy", "#strategy"),
          pointer(env, "lesson.show.compare", "#compare-run"),
        ),
      );
      return () => {
        const state = actions.state();
        intro.textContent = state.source === "server" ? t("srv.myth4.intro") : t("lesson.myth4.intro");
        const strategy = state.params.strategy === "greedy" ? t("strategy.greedy") : t("strategy.sample");
        text.replaceChildren(h("span", { class: "tag" }, strategy), " ", h("q", {}, state.prompt, h("mark", {}, generatedText(actions))), glossWithText(state.prompt, generatedText(actions)));
        const loop = loopAtEnd(state.path.map((e) => e.id));
        const block = loop === null ? "" : generatedText(actions, state.path.slice(state.path.length - loop.period));
        say(verdict, loop === null ? t("lesson.myth4.noLoop") : t("lesson.myth4.loop", { block, n: loop.times }));
        verdict.dataset["verdict"] = loop === null ? "right" : "wrong";
      };
    },
  };
}

/** 误解五：top-k keeps a fixed number, top-p a fixed mass; glimpse both prompts under each. */
export function topKIsNotTopP(): Lesson {
  const k = 10;
  const p = 0.9;
  const settings: ReadonlyArray<{ key: "k" | "p"; params: Params }> = [
    { key: "k", params: { ...DEFAULT_PARAMS, temperature: 1, top_k: k, top_p: 1 } },
    { key: "p", params: { ...DEFAULT_PARAMS, temperature: 1, top_k: 0, top_p: p } },
  ];
  const show = (actions: Actions, key: "k" | "p", on = liveSource(actions)): Promise<void> =>
    actions
      // seed 42 on purpose: its first u (0.955) draws the 10th of top-k's 10 (top-p: far down its
      // many), so the first Step shows that every kept candidate can be drawn, and none past the cut
      .apply({ source: on, presetId: "plugin-zh", prompt: PLUGIN_PROMPT, params: { temperature: 1, seed: 42, ...(key === "k" ? { top_k: k, top_p: 1 } : { top_k: 0, top_p: p }) }, path: [] })
      .then(() => undefined);
  return {
    prompts: [PLUGIN_PROMPT],
    setUp: (actions, on) => show(actions, "k", on),
    build(body, env) {
      const { actions } = env;
      const glimpse = glimpseCache(actions, env.update);
      const table = h("table", { class: "lesson-table counts" });
      body.append(
        para("lesson.myth5.intro"),
        h(
          "div",
          { class: "lesson-cols" },
          h("div", {}, table),
          h(
            "div",
            {},
            para("lesson.myth5.wrap"),
            h(
              "div",
              { class: "lesson-row" },
              // "pointer": they name the inspector, hidden in projector mode while a lesson is open
              // (lighting the inspector's Kept count once set, as 实验三's Inspect A/B do)
              button(t("lesson.myth5.showK", { k }), () => env.run(() => show(actions, "k").then(() => env.highlight(KEPT))), "small pointer"),
              button(t("lesson.myth5.showP", { p }), () => env.run(() => show(actions, "p").then(() => env.highlight(KEPT))), "small pointer"),
              // projector mode's way to the same state (the first Step then draws the 10th kept token), named for what it sets
              button(t("lesson.myth5.setK", { k }), () => env.run(() => show(actions, "k")), "small on-projector"),
              button(t("lesson.myth5.setP", { p }), () => env.run(() => show(actions, "p")), "small on-projector"),
              pointer(env, "lesson.show.topk", "#top-k"),
            ),
          ),
        ),
      );
      return () => {
        keyed(table, glimpse.stamp(), () => {
          const count = (prompt: string, params: Params): string => {
            const g = glimpse.get(prompt, params);
            return g === null ? "…" : typeof g === "string" ? g : String(g.keptCount);
          };
          return [
            h("caption", {}, t("lesson.myth5.caption")),
            h("thead", {}, h("tr", {}, h("td", {}), h("th", { attrs: { scope: "col" } }, h("q", {}, CAPITAL_PROMPT), gloss(CAPITAL_PROMPT)), h("th", { attrs: { scope: "col" } }, h("q", {}, PLUGIN_PROMPT), gloss(PLUGIN_PROMPT)))),
            h(
              "tbody",
              {},
              ...settings.map((s) =>
                h(
                  "tr",
                  { attrs: { "data-setting": s.key } },
                  h("th", { attrs: { scope: "row" } }, s.key === "k" ? t("lesson.myth5.rowK", { k }) : t("lesson.myth5.rowP", { p })),
                  h("td", { class: "capital" }, count(CAPITAL_PROMPT, s.params)),
                  h("td", { class: "plugin" }, count(PLUGIN_PROMPT, s.params)),
                ),
              ),
            ),
          ];
        });
      };
    },
  };
}

/** 误解六：sampling settings cannot fix a factual error; no setting puts 柏林 first. */
export function paramsDoNotFixFacts(): Lesson {
  const rows: ReadonlyArray<{ label: string; params: Partial<Params> }> = [
    { label: "greedy", params: { strategy: "greedy" } },
    { label: "T 0.3", params: { temperature: 0.3, top_p: 1 } },
    { label: "T 0.7 · top-p 0.9", params: { temperature: 0.7, top_p: 0.9 } },
    { label: "T 1", params: { temperature: 1, top_p: 1 } },
    { label: "T 1.5", params: { temperature: 1.5, top_p: 1 } },
    { label: "T 2", params: { temperature: 2, top_p: 1 } },
  ];
  return {
    prompts: [WRONG_PROMPT],
    // its point needs a model that gets this wrong: the embedded one (a real model answers 伦敦)
    runsOn: "model",
    async setUp(actions) {
      await actions.apply({ source: "model", presetId: "capital-zh", prompt: WRONG_PROMPT, params: { strategy: "greedy", max_new_tokens: 2 }, path: [] });
      await runToEnd(actions);
    },
    build(body, env) {
      const { actions } = env;
      const glimpse = glimpseCache(actions, env.update);
      const table = h("table", { class: "lesson-table" });
      const said = h("p", { class: "lesson-context" });
      // greedy ignores (and dims) the temperature slider: pointing at it must first switch to sampling,
      // the first token after the prompt at T 1.5 (a row of the table), so dragging it moves 巴 and 伦's bars
      const toSampling = (): Promise<unknown> =>
        actions.apply({ source: "model", presetId: "capital-zh", prompt: WRONG_PROMPT, params: { strategy: "sample", temperature: 1.5, top_k: 0, top_p: 1, min_p: 0 }, path: [] });
      const tryTemperature = button(
        t("lesson.myth6.tryT"),
        () =>
          env.run(async () => {
            await toSampling();
            env.highlight("#temperature");
          }),
        "small pointer",
      );
      tryTemperature.dataset["target"] = "#temperature";
      // projector mode hides the sidebar (and the pointer): the lesson's own slider, lit by its own button
      const own = ownSliders(actions, ["temperature"]);
      const ownInput = own.node.querySelector("input");
      const tryOwn = button(
        t("lesson.myth6.trySampling"),
        () =>
          env.run(async () => {
            await toSampling();
            if (ownInput !== null) ownInput.disabled = false;
            env.highlight("#lesson-own-temperature");
          }),
        "small on-projector",
      );
      tryOwn.dataset["target"] = "#lesson-own-temperature";
      body.append(
        para("lesson.myth6.intro"),
        h("div", { class: "lesson-cols" }, h("div", {}, said, para("lesson.myth6.wrap")), h("div", {}, table)),
        // full width, one line: the lesson's own slider stays on a projector's screen in both languages
        h("div", { class: "lesson-row" }, tryTemperature, tryOwn, own.node),
      );
      return () => {
        const state = actions.state();
        own.sync(state.params);
        // greedy ignores the temperature: the lesson's slider waits for "try it" (sampling)
        if (ownInput !== null) ownInput.disabled = state.params.strategy !== "sample";
        if (state.params.strategy === "sample" && state.prompt === WRONG_PROMPT && state.path.length === 0) {
          // after "try it": the page samples the first token, so the slider reshapes its bars; projector
          // mode hides the chart, so there the line says what the slider did (巴 and 伦's chance at this T)
          const now = glimpse.get(WRONG_PROMPT, { ...state.params });
          const sentence = t("lesson.myth6.sampling", { t: num(state.params.temperature, 2), wrong: glossed(WRONG_TOKEN), right: glossed(RIGHT_TOKEN) });
          const live = now === null || typeof now === "string" ? sentence : t("lesson.myth6.live", { t: num(state.params.temperature, 2), wrong: WRONG_TOKEN, right: RIGHT_TOKEN, pw: percent(glimpseP(now, WRONG_TOKEN)), pr: percent(glimpseP(now, RIGHT_TOKEN)), top: glossed(now.kept[0]?.text ?? "") });
          keyed(said, `${lang()} ${sentence} ${live}`, () => [h("span", { class: "off-projector" }, sentence), h("span", { class: "on-projector" }, live)]);
          return;
        }
        delete said.dataset["key"];
        // (projector mode shows the same answer in its text line above: there the room goes to the slider)
        // after "try it" and a Step the answer is sampled, not greedy's, and a draw of 伦 is luck (its
        // p at that T), not a setting that fixed the fact: the line says which (it said "greedy" over
        // a sampled 伦敦, against the lesson's own point)
        const first = state.path[0];
        const sampled = state.params.strategy === "sample" && first !== undefined;
        const label = sampled ? t("lesson.myth6.saidSampled", { t: num(state.params.temperature, 2) }) : t("lesson.myth6.said");
        const luck = sampled && actions.tokenText(first.id) === RIGHT_TOKEN ? [" ", t("lesson.myth6.luck", { right: glossed(RIGHT_TOKEN), wrong: glossed(WRONG_TOKEN), p: percent(first.chosen.p) })] : [];
        said.replaceChildren(h("span", { class: "off-projector" }, label, " ", h("q", {}, state.prompt, h("mark", {}, generatedText(actions))), glossWithText(state.prompt, generatedText(actions)), ...luck));
        keyed(table, glimpse.stamp(), () => [
          h("caption", {}, t("lesson.myth6.caption")),
          h("thead", {}, h("tr", {}, h("th", { attrs: { scope: "col" } }, t("lesson.myth6.setting")), h("th", { attrs: { scope: "col" } }, `p(${WRONG_TOKEN})`, gloss(WRONG_TOKEN)), h("th", { attrs: { scope: "col" } }, `p(${RIGHT_TOKEN})`, gloss(RIGHT_TOKEN)), h("th", { attrs: { scope: "col" } }, t("lesson.myth6.top")))),
          h(
            "tbody",
            {},
            ...rows.map((row) => {
              const g = glimpse.get(WRONG_PROMPT, { ...DEFAULT_PARAMS, ...row.params });
              if (g === null) return h("tr", {}, h("th", { attrs: { scope: "row" } }, row.label), h("td", { attrs: { colspan: "3" } }, t("srv.lesson.loading")));
              if (typeof g === "string") return h("tr", {}, h("th", { attrs: { scope: "row" } }, row.label), h("td", { attrs: { colspan: "3" } }, g));
              return h(
                "tr",
                {},
                h("th", { attrs: { scope: "row" } }, row.label),
                h("td", {}, percent(glimpseP(g, WRONG_TOKEN))),
                h("td", { class: "right-answer" }, percent(glimpseP(g, RIGHT_TOKEN))),
                // glossed in the column heads (p(巴) (Paris) …), so each row stays one short word
                h("td", { class: "top-token" }, g.kept[0]?.text ?? ""),
              );
            }),
          ),
        ]);
      };
    },
  };
}
