// The lessons panel: guided versions of the chapter's experiments, misconceptions and self-test
// questions, each one click that sets every parameter and the seed (so the same click gives the same
// tokens). It drives the page only through `Actions` and redraws after every page render.
import type { Actions } from "../actions";
import { messageOf } from "../core";
import { lang, t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import { isLessonId, LESSON_IDS } from "../lessons/catalog";
import type { LessonId } from "../lessons/catalog";
import { greedyByHand, samplingByHand, topPCount } from "../lessons/experiments";
import { button, h } from "../lessons/kit";
import type { Lesson, LessonEnv } from "../lessons/kit";
import { logitsNotProbabilities } from "../lessons/myth-logits";
import { greedyNotAlwaysBest, noPlan, paramsDoNotFixFacts, temperatureNotSmarter, topKIsNotTopP } from "../lessons/myths";
import { selfTest } from "../lessons/quiz";
import { withNamed } from "../lesson-link";
import type { LessonOverride, LinkNamed } from "../lesson-link";
import { findPreset } from "../presets";
import type { Scenario } from "../scenario";
import { markHanRuns } from "../token-lang";
import { el } from "./controls";
import { lessonServer } from "./lesson-server";

export interface Lessons {
  /**
   * Open a lesson (null closes the panel); `setUp` false keeps the page's state (a link restores it)
   * unless the page is on another prompt than the lesson's; "never" only shows the lesson (a server
   * link's lesson, set up once connected). `named`: what a link or element named besides the lesson
   * (settings, a prompt), applied over the lesson's own set-up rather than lost to it.
   */
  open(id: LessonId | null, setUp?: boolean | "never", named?: LinkNamed): void;
  current(): LessonId | null;
  /** Close the open lesson from the keyboard (Esc) and give focus back; false when none is open. */
  dismiss(): boolean;
}

const title = (id: LessonId): MessageKey => `lesson.${id}.title` as MessageKey;
const short = (id: LessonId): MessageKey => `lesson.${id}.short` as MessageKey;

/** How long a control stays lit after a lesson points at it. */
const HIGHLIGHT_MS = 4000;

export function createLessons(
  actions: Actions,
  handlers: {
    onLesson(id: LessonId | null): void;
    /** Bring a control the lesson lights onto the screen first (embed mode's folded settings drawer). */
    reveal?(node: Element): void;
    /** A link's setting used over one the lesson sets itself (the page's link notice names them). */
    overridden?(id: LessonId, all: readonly LessonOverride[]): void;
  },
): Lessons {
  const section = el<HTMLElement>("lessons");
  const list = el<HTMLOListElement>("lesson-list");
  const body = el<HTMLDivElement>("lesson-body");
  const toggle = el<HTMLButtonElement>("lessons-toggle");
  // projector mode's compact way to the same lessons: a menu in the header
  const select = el<HTMLSelectElement>("lesson-select");
  const backTop = el<HTMLButtonElement>("lesson-back-top");
  const lessons: Record<LessonId, Lesson> = {
    exp1: greedyByHand(),
    exp2: samplingByHand(),
    exp3: topPCount(),
    myth1: noPlan(),
    myth2: logitsNotProbabilities(),
    myth3: temperatureNotSmarter(),
    myth4: greedyNotAlwaysBest(),
    myth5: topKIsNotTopP(),
    myth6: paramsDoNotFixFacts(),
    quiz: selfTest(),
  };
  /** Every prompt a lesson sets up. */
  const lessonPrompts = new Set(Object.values(lessons).flatMap((lesson) => lesson.prompts ?? []));
  let current: LessonId | null = null;
  let update: (() => void) | null = null;
  /** The lesson and language the body was built for. */
  let builtFor = "";
  /** Page changes in flight (a lesson's set-up, a draw); buttons inside a lesson wait for them. */
  let pending = 0;
  /** A lesson button pressed while the page was busy: it runs once the page is done (the last such
   * press; a teacher's click is never dropped in silence, nor repeated). A new lesson forgets it. */
  let waiting: (() => Promise<void> | void) | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** null = automatic: expanded (the learner folds it with the panel's Hide button). */
  let collapsed: boolean | null = null;
  let lit: { node: HTMLElement; timer: number } | null = null;
  /** The language the lesson list was drawn in (redrawn only when it changes, so focus stays). */
  let navLang = "";
  /** Move focus to the lesson's heading after the next build (its button was inside the old body). */
  let focusTitle = false;
  /** The lesson just closed from a button inside it: its button in the list takes the focus. */
  let closedFrom: LessonId | null = null;
  /** The button the lesson was opened from (a lesson button in the list); null = elsewhere. */
  let returnTo: HTMLElement | null = null;
  /**
   * The learner's own text as it was when a lesson set itself up over it (a prompt they typed, the
   * tokens they made): a teacher's sentence was gone for good once a lesson was opened. Kept while
   * lessons are open and after one is closed (Esc closes one by accident), as long as the page still
   * shows a lesson's prompt; "Your text" closes the lesson and puts it back.
   */
  let before: Scenario | null = null;
  const status = h("p", { class: "lesson-error", attrs: { role: "alert" } });
  // which model a lesson runs on when a server is connected, and the line that says so
  const server = lessonServer(actions);

  const env: LessonEnv = {
    actions,
    highlight,
    run: (task) => enqueue(task, false),
    update: () => {
      update?.();
      markHanRuns(body);
    },
  };

  function enqueue(task: () => Promise<void> | void, always: boolean): void {
    if (pending > 0 && !always) {
      waiting = task;
      return;
    }
    pending++;
    section.setAttribute("aria-busy", "true");
    chain = chain
      .then(task)
      .then(
        () => {
          status.textContent = "";
        },
        (err: unknown) => {
          status.textContent = messageOf(err);
        },
      )
      .finally(() => {
        pending--;
        const next = pending === 0 ? waiting : null;
        waiting = null;
        if (pending === 0) section.removeAttribute("aria-busy");
        render();
        if (next !== null) enqueue(next, false);
      });
  }

  function highlight(selector: string): void {
    const node = document.querySelector(selector);
    if (!(node instanceof HTMLElement)) return;
    const details = node.closest("details");
    if (details !== null) details.open = true;
    handlers.reveal?.(node);
    if (lit !== null) {
      window.clearTimeout(lit.timer);
      lit.node.classList.remove("lesson-highlight");
    }
    if (!node.matches("button, input, select, textarea, a[href], [tabindex]")) node.tabIndex = -1;
    node.classList.add("lesson-highlight");
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    node.focus({ preventScroll: true });
    // brought where the eye is (the middle of the screen), not to the very edge ("nearest" left the
    // phone's Kept count on the bottom edge); a node already well inside the screen stays where it is
    const box = node.getBoundingClientRect();
    if (box.top < innerHeight * 0.1 || box.bottom > innerHeight * 0.9) node.scrollIntoView({ block: box.height > innerHeight / 2 ? "start" : "center", behavior: reduce ? "auto" : "smooth" });
    lit = { node, timer: window.setTimeout(() => node.classList.remove("lesson-highlight"), HIGHLIGHT_MS) };
  }

  function isCollapsed(): boolean {
    // a lesson opened by a link or an element's `lesson` attribute opens expanded, in embed mode too
    return collapsed ?? false;
  }

  function drawNav(): void {
    list.replaceChildren(
      ...LESSON_IDS.map((id, i) => {
        const b = button(t(short(id)), () => open(id));
        b.dataset["lesson"] = id;
        b.title = t("lesson.key", { title: t(title(id)), key: (i + 1) % 10 });
        return h("li", {}, b);
      }),
    );
    const none = new Option(t("lesson.pickNone"), "");
    select.replaceChildren(none, ...LESSON_IDS.map((id) => new Option(t(short(id)), id)));
  }

  function build(): void {
    builtFor = `${current ?? ""}|${lang()}`;
    if (navLang !== lang()) drawNav();
    navLang = lang();
    if (current === null) {
      update = null;
      body.replaceChildren(h("p", { class: "lesson-text" }, t("lesson.none")));
      return;
    }
    const id = current;
    const again = button(t("lesson.again"), () => open(id));
    const close = button(t("lesson.close"), () => open(null), "small quiet");
    close.setAttribute("aria-label", t("lesson.closeName"));
    const content = h("div", { class: "lesson-content" });
    const noModel = actions.modelReady() ? null : h("p", { class: "lesson-hint" }, t("lesson.noModel"));
    // the note is redrawn for this lesson and language
    delete server.node.dataset["key"];
    update = lessons[id].build(content, env);
    // its first words are written before it is shown: a status line's first text (实验一's "Choose
    // one of the tokens above.") is read with the lesson, not announced (twice: once more after the
    // set-up's redraw); only what changes later is
    update();
    markHanRuns(content);
    const back = backButton();
    // Start over and Close stay together (on a phone Close wrapped alone under 重新开始)
    const buttons = h("span", { class: "lesson-title-actions" }, ...(back === null ? [] : [back]), again, close);
    body.replaceChildren(h("div", { class: "lesson-title" }, h("h3", { id: "lesson-title" }, t(title(id))), server.node, buttons), noModel ?? "", content, status);
  }

  /** "Your text" in the lesson's title row, while a lesson has replaced the learner's own text. */
  function backButton(): HTMLButtonElement | null {
    const saved = before;
    if (saved === null) return null;
    const b = button("", () => goBack(saved), "small lesson-back");
    b.id = "lesson-back";
    nameBack(b, saved);
    return b;
  }

  /** The button's words: the same short label in both places, its name saying whose text comes back. */
  function nameBack(b: HTMLButtonElement, saved: Scenario): void {
    b.textContent = t("lesson.back");
    b.setAttribute("aria-label", t("lesson.backName", { prompt: clipped(saved.prompt) }));
    b.title = b.getAttribute("aria-label") ?? "";
  }

  function goBack(saved: Scenario): void {
    before = null;
    open(null);
    enqueue(async () => {
      const problems = await actions.apply(saved);
      if (problems.length > 0) status.textContent = problems.join(" ");
      document.getElementById("step")?.focus();
    }, true);
  }

  function render(): void {
    if (builtFor !== `${current ?? ""}|${lang()}`) {
      build();
      if (focusTitle) {
        focusTitle = false;
        const heading = document.getElementById("lesson-title");
        heading?.setAttribute("tabindex", "-1");
        const listed = closedFrom === null ? null : list.querySelector<HTMLElement>(`button[data-lesson="${closedFrom}"]`);
        (heading ?? listed ?? list.querySelector("button"))?.focus();
      }
    }
    section.dataset["open"] = String(current !== null);
    // only 实验一 hides greedy's pick (while the learner predicts it)
    if (current !== "exp1") delete document.body.dataset["predicting"];
    select.value = current ?? "";
    for (const b of list.querySelectorAll<HTMLButtonElement>("button[data-lesson]")) {
      if (b.dataset["lesson"] === current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
    // projector mode's lesson has no room for a third button beside its title: its "Your text" is
    // in the header, where the Settings button it hides was
    // (closed, the button stays in the header until the page leaves the lessons' prompts: the
    // learner's own new text, or the old one brought back)
    if (before !== null && current === null && !lessonPrompts.has(actions.state().prompt)) before = null;
    backTop.hidden = before === null;
    if (before !== null) nameBack(backTop, before);
    const folded = isCollapsed();
    section.dataset["collapsed"] = String(folded);
    body.hidden = folded;
    toggle.setAttribute("aria-expanded", String(!folded));
    toggle.textContent = folded ? t("lesson.expand") : t("lesson.collapse");
    toggle.setAttribute("aria-label", folded ? t("lesson.expandName") : t("lesson.collapseName"));
    const id = current;
    server.render(id === null ? null : lessons[id], () => {
      if (id !== null) open(id);
    });
    update?.();
    // (a lesson's Chinese prompts, tokens and glosses, on the English page)
    markHanRuns(body);
  }

  select.addEventListener("change", () => {
    const id = select.value;
    open(isLessonId(id) ? id : null);
  });
  backTop.addEventListener("click", () => {
    if (before !== null) goBack(before);
  });
  toggle.addEventListener("click", () => {
    collapsed = !isCollapsed();
    render();
  });
  actions.onRender(render);

  function open(id: LessonId | null, setUp: boolean | "never" = true, named?: LinkNamed): void {
    const active = document.activeElement;
    // a button inside the old body (again, close) disappears; a lesson's button in the list says
    // nothing of the lesson: focus goes to the new heading, which a screen reader reads out
    const toTitle = body.contains(active) || (id !== null && list.contains(active));
    // a button is worth returning to; a menu is not (its arrows would pick another lesson)
    if (id !== null && !body.contains(active)) returnTo = active instanceof HTMLElement && active.matches("button, a[href]") ? active : null;
    const previous = current;
    current = id;
    waiting = null;
    if (id !== null && collapsed === true) collapsed = false;
    // a link to a lesson whose page is on another prompt (e.g. a hand-written ?lesson=exp1) is set up
    const wanted = id === null ? undefined : lessons[id].prompts;
    const settingUp = id !== null && setUp !== "never" && (setUp || !(wanted === undefined || wanted.includes(actions.state().prompt)));
    // (a lesson being set up is drawn again once it is: its heading takes focus then, once). Set
    // before onLesson, whose render draws the panel anew: set after it, Close pressed from the
    // keyboard left the focus on the page (its button gone) and the next lesson's build took it
    focusTitle = toTitle && !settingUp;
    closedFrom = id === null ? previous : null;
    handlers.onLesson(id);
    // (a lesson opened after another was closed over the learner's text keeps that text)
    if (id !== null && settingUp && previous === null && !(before !== null && lessonPrompts.has(actions.state().prompt))) before = ownText(actions.snapshot());
    render();
    if (id === null || !settingUp) return;
    const on = server.sourceFor(lessons[id]);
    enqueue(async () => {
      await lessons[id].setUp(named === undefined ? actions : withNamed(actions, named, (all) => handlers.overridden?.(id, all)), on);
      server.settled();
      // the lesson's own state was reset: draw it afresh
      builtFor = "";
      focusTitle = toTitle;
    }, true);
  }

  /**
   * Esc: the lesson closes and focus goes back to the button it was opened from, else to the closed
   * lesson's button in the list when it is shown; in projector mode (no list; the header's menu is
   * left, its arrows would pick another lesson) to the page itself, where Space and the arrows drive
   * the text again.
   */
  function dismiss(): boolean {
    const id = current;
    if (id === null) return false;
    const back = returnTo;
    returnTo = null;
    open(null);
    const listed = list.querySelector<HTMLElement>(`button[data-lesson="${id}"]`);
    const target = [back, listed].find((node) => node?.isConnected === true && node.checkVisibility()) ?? null;
    if (target !== null) target.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    return true;
  }

  /** The start of a prompt for a button's name: 24 characters (whole code points), then "…". */
  function clipped(prompt: string): string {
    const chars = [...prompt.replace(/\s+/g, " ").trim()];
    return chars.length > 24 ? `${chars.slice(0, 24).join("")}…` : chars.join("");
  }

  /** `scenario` when it holds the learner's own text: tokens they made, or a prompt that is not its preset's. */
  function ownText(scenario: Scenario): Scenario | null {
    const made = scenario.path.length > 0 || scenario.branches.length > 0;
    return made || scenario.prompt !== findPreset(scenario.presetId)?.prompt ? scenario : null;
  }

  return {
    open,
    current: () => current,
    dismiss,
  };
}
