// Lessons and a connected model server: which model a lesson is set up on, and the visible line that
// says so. A lesson opened while the page is on the server runs over it (every number from the
// server's own distribution); one that needs the embedded model's weights or the chapter's table
// switches to them and says so, with one click back to the server (still connected: no new Connect).
import type { Actions } from "../actions";
import { t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import { button, h, keyed } from "../lessons/kit";
import type { Lesson, LessonSource } from "../lessons/kit";

export interface LessonServer {
  /** The model to set `lesson` up on, as it opens. */
  sourceFor(lesson: Lesson): LessonSource;
  /** After a set-up: remember where the lesson left the page. */
  settled(): void;
  /** The note's node, in the lesson's title row (hidden when no server is connected). */
  readonly node: HTMLElement;
  /** Redraw the note for the open lesson; `again` sets it up anew (on the embedded model). */
  render(lesson: Lesson | null, again: () => void): void;
}

export function lessonServer(actions: Actions): LessonServer {
  /** The lessons follow the connected server (the page was on it when one was opened). */
  let follow = false;
  /** The source the last set-up left the page on: a different one now was the user's choice. */
  let leftOn: string | null = null;
  const node = h("div", { class: "lesson-server", attrs: { role: "status" } });
  return {
    node,
    sourceFor(lesson) {
      const now = actions.state().source;
      if (now !== leftOn) follow = now === "server";
      if (actions.server() === null) follow = false;
      return follow && (lesson.runsOn ?? "any") === "any" ? "server" : "model";
    },
    settled() {
      leftOn = actions.state().source;
    },
    render(lesson, again) {
      const server = actions.server();
      const now = actions.state().source;
      if (lesson === null || server === null || !(follow || now === "server")) {
        keyed(node, "", () => []);
        node.hidden = true;
        return;
      }
      node.hidden = false;
      const runsOn = lesson.runsOn ?? "any";
      // a GGUF's path reads as its file name, as the status line shows it
      const model = server.model.split(/[\\/]/).pop() ?? server.model;
      // the whole sentence, and (projector mode, in the title row) its short form
      const say = (key: MessageKey, at: string): HTMLElement[] => [
        h("p", { class: "lesson-hint lesson-server-long", attrs: { "data-on": at } }, t(key, { model })),
        h("span", { class: "lesson-hint lesson-server-short", attrs: { "data-on": at } }, t(`${key}.short` as MessageKey, { model })),
      ];
      if (now === "server") {
        // over the server: say whose numbers these are; a lesson written for the embedded model says so
        keyed(node, `on|${runsOn}|${model}`, () =>
          runsOn === "any" ? say("srv.lesson.onServer", "server") : [...say("srv.lesson.writtenFor", "server"), button(t("srv.lesson.rerun"), again)],
        );
        return;
      }
      keyed(node, `off|${now}|${model}`, () => [
        ...say(now === "manual" ? "srv.lesson.offManual" : "srv.lesson.offModel", now),
        button(t("srv.lesson.back"), () => actions.useServer()),
      ]);
    },
  };
}
