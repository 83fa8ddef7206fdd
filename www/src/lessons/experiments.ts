// The chapter's three small experiments (小实验), as lessons: greedy by hand, sampling by hand, and
// top-p keeping a different number of candidates for a peaked and a flat distribution.
import type { Actions, Glimpse } from "../actions";
import { num, percent } from "../format";
import { t } from "../i18n/index";
import type { Params } from "../state";
import { bars, button, generatedText, gloss, glossed, glimpseCache, h, keyed, KEPT, liveSource, ownSliders, para, pointer, say } from "./kit";
import type { Bar, Lesson, LessonSource } from "./kit";
import { glossWithText } from "./gloss-text";

export const REACT_PROMPT = "React 是一个用于构建";
export const CAPITAL_PROMPT = "中国的首都是";
export const PLUGIN_PROMPT = "给一个代码编辑器插件起名：";

/** The next step's candidates by softmax probability (T = 1), most likely first. */
function topCandidates(actions: Actions, n: number): Array<{ id: number; text: string; p: number }> {
  const preview = actions.preview();
  if (preview === null || !preview.ok) return [];
  return [...preview.result.candidates]
    .sort((a, b) => b.p_raw - a.p_raw)
    .slice(0, n)
    .map((c) => ({ id: c.id, text: actions.tokenText(c.id), p: c.p_raw }));
}

/** 实验一：greedy by hand. Predict the token greedy picks, step, see the next distribution. */
export function greedyByHand(): Lesson {
  /** The learner's guess at each step (step index → token id). */
  let guesses = new Map<number, number>();
  return {
    prompts: [REACT_PROMPT],
    async setUp(actions, on) {
      guesses = new Map();
      await actions.apply({
        source: on,
        presetId: "react-zh",
        prompt: REACT_PROMPT,
        params: { strategy: "greedy", seed: 42, max_new_tokens: 8 },
        path: [],
      });
    },
    build(body, env) {
      const { actions } = env;
      const context = h("p", { class: "lesson-context" });
      const question = h("p", { class: "lesson-question", id: "exp1-q" });
      const table = h("div", { class: "lesson-figure" });
      const choices = h("div", { class: "lesson-choices", attrs: { role: "group", "aria-labelledby": "exp1-q" } });
      const feedback = h("p", { class: "lesson-feedback", attrs: { role: "status" } });
      const stepButton = button(
        t("lesson.exp1.step"),
        () =>
          env.run(async () => {
            // over a server: once its answer is in
            await actions.stepReady();
            // this button waits for the next prediction: focus goes to the next step's choices
            (choices.querySelector("button") ?? stepButton).focus();
          }),
        "small primary",
      );
      const wrap = h("p", { class: "lesson-text lesson-wrap" });
      body.append(
        para("lesson.exp1.intro"),
        h("div", { class: "lesson-cols" }, h("div", {}, context, question, choices, feedback, h("div", { class: "lesson-row" }, stepButton, pointer(env, "lesson.show.softmax", '#stages figure[data-stage="softmax"]'))), table),
        wrap,
      );
      return () => {
        const state = actions.state();
        const n = state.path.length;
        const done = state.stopReason !== null;
        const top = topCandidates(actions, 5);
        const pick = actions.preview();
        const greedyId = pick?.ok === true ? pick.result.token : undefined;
        context.replaceChildren(t("lesson.context"), " ", h("q", {}, state.prompt, h("mark", {}, generatedText(actions))), glossWithText(state.prompt, generatedText(actions)));
        // (its 8 tokens end mid-sentence: the stop condition is named, not left for a broken text)
        const finished = state.stopReason?.kind === "max_tokens" ? t("lesson.exp1.finishedMax", { n: state.stopReason.n }) : t("lesson.exp1.finished");
        question.textContent = done ? finished : t("lesson.exp1.question", { n: n + 1 });
        keyed(table, `${n}|${done}`, () =>
          done ? [] : [h("p", { class: "lesson-caption" }, t("lesson.candidates")), bars(top.map((c) => ({ label: glossed(c.text), p: c.p })), t("lesson.candidates"))],
        );
        const guess = guesses.get(n);
        // the choices in a fixed order that is not the ranking (the learner reads the table)
        const shuffled = [...top.slice(0, 4)].sort((a, b) => a.id - b.id);
        keyed(choices, `${n}|${done}|${shuffled.map((c) => c.id).join(".")}`, () =>
          done
            ? []
            : shuffled.map((c) => {
                const b = button(glossed(c.text), () => {
                  guesses.set(n, c.id);
                  env.update();
                });
                b.setAttribute("aria-label", t("lesson.exp1.predict", { token: glossed(c.text) }));
                b.dataset["id"] = String(c.id);
                return b;
              }),
        );
        for (const b of choices.querySelectorAll<HTMLButtonElement>("button")) b.setAttribute("aria-pressed", String(guess === Number(b.dataset["id"])));
        const best = top[0];
        if (done || guess === undefined || best === undefined) {
          say(feedback, done ? "" : t("lesson.exp1.hint"));
        } else {
          const guessed = actions.tokenText(guess);
          say(
            feedback,
            guess === greedyId
              ? t("lesson.exp1.right", { token: best.text, p: percent(best.p) })
              : t("lesson.exp1.wrong", { guess: guessed, token: best.text, p: percent(best.p) }),
          );
        }
        feedback.dataset["verdict"] = guess === undefined ? "" : guess === greedyId ? "right" : "wrong";
        stepButton.disabled = done || guess === undefined;
        // until the learner has predicted, the page does not say which token greedy picks
        document.body.dataset["predicting"] = String(!done && guess === undefined);
        // the embedded model's text names its tokens; over a server the same points are made from its own
        const server = state.source === "server";
        const text = generatedText(actions);
        if (n >= 2) wrap.textContent = server ? t("srv.exp1.wrap", { text }) : t("lesson.exp1.wrap");
        else if (n === 1) wrap.textContent = server ? t("srv.exp1.after1", { context: state.prompt + text }) : t("lesson.exp1.after1");
        else wrap.textContent = "";
      };
    },
  };
}

/** How many of 实验二's draws its list shows (the latest). */
const DRAWS_SHOWN = 7;

/** 实验二：sampling by hand. Draw k uses seed k, so every draw can be shown again. */
export function samplingByHand(): Lesson {
  let draws: Array<{ seed: number; text: string; u: number }> = [];
  /** The most likely first token and its final probability (the same for every seed). */
  let likeliest: { text: string; p: number } | null = null;
  // plain sampling from the model's own distribution, as the chapter's 实验二: a top-p of 0.9 or a
  // temperature below 1 would leave 用户 alone (0.92 on the second edition), so 界面 could never come up
  const params = (seed: number): Partial<Params> => ({ strategy: "sample", temperature: 1, top_k: 0, top_p: 1, min_p: 0, seed, max_new_tokens: 8 });
  const draw = (actions: Actions, seed: number, on: LessonSource = liveSource(actions)): Promise<string[]> =>
    actions.apply({ source: on, presetId: "react-zh", prompt: REACT_PROMPT, params: params(seed), path: [] });
  return {
    prompts: [REACT_PROMPT],
    async setUp(actions, on) {
      likeliest = null;
      await draw(actions, 1, on);
      // what was recorded before the page reached seed 1 belongs to the previous run (seed 1 is
      // recorded at the next render)
      draws = [];
    },
    build(body, env) {
      const { actions } = env;
      const now = h("p", { class: "lesson-question", attrs: { role: "status" } });
      const tally = h("ol", { class: "lesson-draws", attrs: { "aria-label": t("lesson.exp2.draws") } });
      const counts = h("p", { class: "lesson-text" });
      const again = button("", () => env.run(() => draw(actions, nextSeed()).then(() => undefined)), "small primary");
      const five = button(t("lesson.exp2.five"), () =>
        env.run(async () => {
          for (let i = 0; i < 5; i++) await draw(actions, nextSeed());
        }),
      );
      const found = h("p", { class: "lesson-text lesson-wrap" });
      const nextSeed = (): number => Math.max(0, ...draws.map((d) => d.seed)) + 1;
      body.append(
        para("lesson.exp2.intro"),
        h(
          "div",
          { class: "lesson-cols" },
          h("div", {}, now, h("div", { class: "lesson-row" }, again, five, pointer(env, "lesson.show.cdf", "#final"), pointer(env, "lesson.show.sampleN", '#sample-buttons button[data-n="1000"]')), found),
          h("div", {}, h("p", { class: "lesson-caption" }, t("lesson.exp2.draws")), counts, tally),
        ),
      );
      return () => {
        const state = actions.state();
        const preview = actions.preview();
        // every first-token draw on screen is recorded (a seed typed by hand counts too)
        if (preview?.ok === true && state.path.length === 0 && state.prompt === REACT_PROMPT && preview.result.u !== null) {
          const seed = state.params.seed;
          if (!draws.some((d) => d.seed === seed)) draws.push({ seed, text: actions.tokenText(preview.result.token), u: preview.result.u });
          const top = preview.result.candidates.reduce((a, b) => (b.p > a.p ? b : a));
          likeliest = { text: actions.tokenText(top.id), p: top.p };
        }
        // the embedded model's text names 用户 and 界面; over a server it names the server's own likeliest token
        const server = state.source === "server" && likeliest !== null;
        const hit = (text: string): boolean => (server ? text !== likeliest?.text : text === "界面");
        const last = draws.find((d) => d.seed === state.params.seed);
        say(now, last === undefined ? t("lesson.exp2.none") : t("lesson.exp2.now", { seed: last.seed, u: num(last.u, 3), token: last.text }));
        // the latest draws only (a class that keeps drawing ran the list off the projector's
        // screen, the total under it first): the total, above them, counts every one
        const earlier = Math.max(0, draws.length - DRAWS_SHOWN);
        const shown = draws.slice(earlier);
        keyed(tally, `${earlier}|${shown.map((d) => `${d.seed}:${d.text}`).join(",")}`, () => [
          ...(earlier > 0 ? [h("li", { class: "earlier" }, t("lesson.exp2.earlier", { n: earlier }))] : []),
          ...shown.map((d) => h("li", { class: hit(d.text) ? "hit" : "" }, h("span", { class: "seed" }, `#${d.seed}`), " ", glossed(d.text))),
        ]);
        const byToken = new Map<string, number>();
        for (const d of draws) byToken.set(d.text, (byToken.get(d.text) ?? 0) + 1);
        counts.textContent = draws.length === 0 ? "" : t("lesson.exp2.counts", { n: draws.length, list: [...byToken].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ×${v}`).join(" · ") });
        again.textContent = t("lesson.exp2.again", { seed: nextSeed() });
        const other = draws.find((d) => hit(d.text));
        if (server && likeliest !== null) {
          found.textContent =
            other === undefined ? t("srv.exp2.keep", { token: likeliest.text, p: percent(likeliest.p) }) : t("srv.exp2.found", { token: other.text, top: likeliest.text });
        } else {
          // (said of the draw that gave it, its # as in the list: under a later draw of 用户 it read
          // as that draw's outcome)
          found.textContent = other !== undefined ? t("lesson.exp2.found", { seed: other.seed }) : t("lesson.exp2.keep");
        }
      };
    },
  };
}

/** What top-p keeps for one prompt under the current settings: its count and its top candidates. */
/** The step is greedy (the strategy, or T = 0): top-p does not run. */
const greedy = (params: Params): boolean => params.strategy === "greedy" || params.temperature === 0;

function glimpseColumn(title: string, prompt: string, g: Glimpse | string | null, params: Params): HTMLElement {
  if (g === null) return h("div", { class: "lesson-side" }, h("h4", {}, title), h("p", { class: "lesson-text" }, t("srv.lesson.loading")));
  if (typeof g === "string") return h("div", { class: "lesson-side" }, h("h4", {}, title), h("p", { class: "lesson-text" }, g));
  // the distribution top-p cuts from (after temperature), so every number follows the sliders
  const items: Bar[] = g.top.slice(0, 5).map((c) => ({ label: glossed(c.text), p: c.pTempered, kind: c.kept ? "kept" : "removed" }));
  return h(
    "div",
    { class: "lesson-side" },
    h("h4", {}, title, " ", h("q", {}, prompt), gloss(prompt)),
    // a greedy step keeps one token whatever top-p is: the count is not top-p's
    h("p", { class: "lesson-count" }, h("strong", { class: "count", attrs: { "data-count": String(g.keptCount) } }, String(g.keptCount)), " ", greedy(params) ? t("lesson.keptGreedy", { n: g.vocabSize }) : t("lesson.keptOf", { n: g.vocabSize, p: num(params.top_p, 2) })),
    bars(items, t("lesson.candidatesOf", { prompt })),
  );
}

/** 实验三：top-p keeps few candidates after 中国的首都是 and many after the plugin prompt. */
export function topPCount(): Lesson {
  return {
    prompts: [CAPITAL_PROMPT, PLUGIN_PROMPT],
    async setUp(actions, on) {
      await actions.apply({ source: on, presetId: "capital-zh", prompt: CAPITAL_PROMPT, params: { strategy: "sample", temperature: 1, top_p: 0.9, seed: 42 }, path: [] });
    },
    build(body, env) {
      const { actions } = env;
      const glimpse = glimpseCache(actions, env.update);
      const grid = h("div", { class: "lesson-sides" });
      const setting = h("p", { class: "lesson-caption", attrs: { role: "status" } });
      // the sidebar is hidden in projector and embed modes: the lesson brings the two sliders it asks for
      const own = ownSliders(actions, ["temperature", "top_p"]);
      // once the page is on the prompt, the inspector's Kept count (the number A and B compare) is
      // lit and brought on screen: on a phone the inspector is a screen or two below, and the press
      // seemed to do nothing
      // (under the prompt's own preset, so the Preset menu names it rather than "custom")
      const show = (prompt: string): void =>
        env.run(() =>
          actions.apply({ source: liveSource(actions), presetId: prompt === PLUGIN_PROMPT ? "plugin-zh" : "capital-zh", prompt, params: { ...actions.state().params }, path: [] }).then(() => env.highlight(KEPT)),
        );
      body.append(
        para("lesson.exp3.intro"),
        own.node,
        h("div", { class: "lesson-row lesson-setting" }, setting),
        grid,
        h(
          "div",
          { class: "lesson-row" },
          pointer(env, "lesson.show.topp", "#top-p"),
          // "pointer": they name the inspector, which projector mode hides while a lesson is open (the
          // lesson's own columns show A and B there)
          button(t("lesson.exp3.showA"), () => show(CAPITAL_PROMPT), "small pointer"),
          button(t("lesson.exp3.showB"), () => show(PLUGIN_PROMPT), "small pointer"),
        ),
      );
      return () => {
        const params = actions.state().params;
        own.sync(params);
        say(setting, greedy(params) ? t("lesson.exp3.greedy") : t("lesson.exp3.settings", { t: num(params.temperature, 2), p: num(params.top_p, 2) }));
        keyed(grid, `${JSON.stringify(params)}|${glimpse.stamp()}`, () => [
          glimpseColumn(t("lesson.exp3.a"), CAPITAL_PROMPT, glimpse.get(CAPITAL_PROMPT, params), params),
          glimpseColumn(t("lesson.exp3.b"), PLUGIN_PROMPT, glimpse.get(PLUGIN_PROMPT, params), params),
        ]);
      };
    },
  };
}
