// The chapter's six self-test questions (自测题), one at a time. Each answer stays hidden until asked
// for; a hint invites the learner to write an answer or press "try it" (which sets the page up and
// lights the control that shows the answer) first, but a teacher in front of a class can reveal it
// straight away, without typing.
import type { Actions } from "../actions";
import { t } from "../i18n/index";
import { FIRST_VISIT } from "../state";
import type { MessageKey } from "../i18n/index";
import { CAPITAL_PROMPT, PLUGIN_PROMPT, REACT_PROMPT } from "./experiments";
import { button, h, liveSource, runToEnd } from "./kit";
import type { Lesson, LessonSource } from "./kit";
import { LOOP_PROMPT, TS_PROMPT, WRONG_PROMPT } from "./myths";

interface Question {
  n: number;
  /** Sets the page up for the question, on the lesson's model where the question allows it. */
  tryIt(actions: Actions, on: LessonSource): Promise<void>;
  /** The control that shows the answer (a CSS selector). */
  control: string;
}

const QUESTIONS: readonly Question[] = [
  {
    n: 1,
    tryIt: (a) => a.apply({ source: "manual", presetId: "ts-zh", params: { temperature: 1, top_p: 1, seed: FIRST_VISIT.seed }, path: [] }).then(() => undefined),
    control: '#stages figure[data-stage="logits"]',
  },
  {
    n: 2,
    tryIt: (a, on) => a.apply({ source: on, presetId: "ts-zh", prompt: LOOP_PROMPT, params: { strategy: "greedy", max_new_tokens: 32 }, path: [] }).then(() => runToEnd(a)),
    control: "#strategy",
  },
  {
    n: 3,
    // plain sampling as 实验二 (T 1, nothing cut): a new seed can then draw something other than 用户
    tryIt: (a, on) => a.apply({ source: on, presetId: "react-zh", prompt: REACT_PROMPT, params: { temperature: 1, top_k: 0, top_p: 1, min_p: 0, seed: 1 }, path: [] }).then(() => undefined),
    control: "#new-seed",
  },
  {
    n: 4,
    // seed 42 as in 误解三: at T = 2 its first Step draws a rare token, which is the answer's point
    tryIt: (a, on) => a.apply({ source: on, presetId: "capital-zh", prompt: CAPITAL_PROMPT, params: { temperature: 2, top_p: 1, seed: 42 }, path: [] }).then(() => undefined),
    control: "#temperature",
  },
  {
    n: 5,
    // seed 42 as in 误解五: the first draw lands deep in what top-p keeps on a flat distribution
    tryIt: (a, on) => a.apply({ source: on, presetId: "plugin-zh", prompt: PLUGIN_PROMPT, params: { temperature: 1, top_p: 0.9, seed: 42 }, path: [] }).then(() => undefined),
    control: "#top-p",
  },
  {
    n: 6,
    // a factual error needs a model that makes it: the embedded one (the panel says so over a server);
    // sampling its first token at T 1.5 (greedy ignores the slider it lights): dragging it moves 巴 and
    // 伦's bars, and 巴 stays first
    tryIt: (a) => a.apply({ source: "model", presetId: "capital-zh", prompt: WRONG_PROMPT, params: { strategy: "sample", temperature: 1.5, top_k: 0, top_p: 1, min_p: 0 }, path: [] }).then(() => undefined),
    control: "#temperature",
  },
];

const key = (n: number, part: "q" | "a" | "control"): MessageKey => `lesson.quiz.${part}${n}` as MessageKey;

export function selfTest(): Lesson {
  let index = 0;
  /** What the learner wrote, and whether they tried, per question. */
  let written: string[] = [];
  let tried: boolean[] = [];
  let shown: boolean[] = [];
  /** The model the quiz was opened on (its "try it" stays on it where the question allows). */
  let on: LessonSource = "model";
  return {
    async setUp(actions, source) {
      on = source;
      index = 0;
      written = [];
      tried = [];
      shown = [];
      // the first visit's seed: a Step on the opening page draws typical tokens (seed 42's first u,
      // 0.955, wrote 「JavaScript 的 JavaScript 代码。」)
      await actions.apply({ source: on, presetId: "ts-zh", prompt: TS_PROMPT, params: { seed: FIRST_VISIT.seed }, path: [] });
    },
    build(body, env) {
      const { actions } = env;
      const slot = h("div", { class: "quiz" });
      body.append(slot);
      const draw = (): void => {
        const q = QUESTIONS[index];
        if (q === undefined) return;
        const i = index;
        const inputId = `quiz-answer-${q.n}`;
        const answerId = `quiz-reveal-${q.n}`;
        const needId = `quiz-need-${q.n}`;
        const textarea = h("textarea", { id: inputId, attrs: { rows: "2", spellcheck: "false" } });
        textarea.value = written[i] ?? "";
        const answer = h("p", { class: "quiz-answer", id: answerId }, h("strong", {}, t("lesson.quiz.answerLabel")), " ", t(key(q.n, "a")));
        // projector mode hides the try-it buttons: its hint does not send the class to the page
        const need = h("p", { class: "lesson-hint", id: needId }, h("span", { class: "off-projector" }, t("lesson.quiz.need")), h("span", { class: "on-projector" }, t("lesson.quiz.needProjector")));
        const reveal = button(t("lesson.quiz.reveal"), () => {
          shown[i] = true;
          sync();
          answer.focus();
        }, "small primary");
        reveal.setAttribute("aria-controls", answerId);
        answer.tabIndex = -1;
        const sync = (): void => {
          // the invitation to try first goes once the learner tried, wrote or revealed
          need.hidden = tried[i] === true || (written[i] ?? "").trim() !== "" || shown[i] === true;
          answer.hidden = shown[i] !== true;
          reveal.setAttribute("aria-expanded", String(shown[i] === true));
        };
        textarea.addEventListener("input", () => {
          written[i] = textarea.value;
          sync();
        });
        const tryIt = button(t(key(q.n, "control")), () => {
          tried[i] = true;
          sync();
          env.run(async () => {
            // on the quiz's model: a server stays in use while it is connected
            await q.tryIt(actions, on === "server" && actions.server() !== null ? "server" : liveSource(actions));
            env.highlight(q.control);
          });
          // "pointer": the controls it lights are hidden in projector mode while a lesson is open
        }, "small pointer");
        tryIt.dataset["target"] = q.control;
        const prev = button(t("lesson.quiz.prev"), () => go(-1));
        const next = button(t("lesson.quiz.next"), () => go(1));
        prev.disabled = i === 0;
        next.disabled = i === QUESTIONS.length - 1;
        slot.replaceChildren(
          h("div", { class: "quiz-head" }, h("h4", { id: `quiz-q-${q.n}` }, t("lesson.quiz.number", { n: q.n, total: QUESTIONS.length }), " ", t(key(q.n, "q"))), h("div", { class: "lesson-row" }, prev, next)),
          h(
            "div",
            { class: "lesson-cols" },
            h("div", { class: "field" }, h("label", { attrs: { for: inputId } }, t("lesson.quiz.yours")), textarea),
            h("div", {}, h("div", { class: "lesson-row" }, tryIt, reveal), need, answer),
          ),
        );
        sync();
      };
      const go = (delta: number): void => {
        index = Math.min(QUESTIONS.length - 1, Math.max(0, index + delta));
        draw();
        slot.querySelector<HTMLElement>("h4")?.setAttribute("tabindex", "-1");
        slot.querySelector<HTMLElement>("h4")?.focus();
      };
      draw();
      return () => {};
    },
  };
}
