// The notice a link made with a model server opens with (issue: such a link used to open quietly
// on the embedded model). The page never connects by itself, so it says, in every mode (the
// sidebar's server panel is hidden in projector mode and behind the drawer in embed mode), which
// server the link was made with and offers Connect right there; once Connect was clicked it echoes
// the server panel's status line (connecting, or why it failed), and it goes away once connected
// or when another source is chosen.
import { t } from "../i18n/index";
import { h } from "../lessons/kit";

export interface ServerLinkNotice {
  /**
   * Redraw: `waiting` is the held link's server address and whether the link opens a lesson (null:
   * no link waits); `attempt` the status line after a Connect ({ text, failed }), null before one.
   */
  render(waiting: { url: string; lesson: boolean } | null, attempt: { text: string; failed: boolean } | null): void;
}

export function createServerLinkNotice(connect: () => void): ServerLinkNotice {
  const box = document.getElementById("server-link-notice");
  const text = document.getElementById("server-link-text");
  const button = document.getElementById("server-link-connect");
  if (box === null || text === null || !(button instanceof HTMLButtonElement)) return { render() {} };
  button.addEventListener("click", connect);
  return {
    render(waiting, attempt) {
      box.hidden = waiting === null;
      if (waiting === null) return;
      // before a Connect: the whole sentence, and projector mode's one line (styles/projector-notice.css)
      const said = attempt?.text ?? t(waiting.lesson ? "serverLink.lesson" : "serverLink.waiting", { url: waiting.url });
      const short = attempt === null ? t(waiting.lesson ? "serverLink.lessonShort" : "serverLink.short", { url: waiting.url }) : "";
      if (text.dataset["said"] !== said + short) {
        text.dataset["said"] = said + short;
        if (short === "") text.textContent = said;
        else text.replaceChildren(h("span", { class: "notice-long" }, said), h("span", { class: "notice-short" }, short));
      }
      box.dataset["state"] = attempt === null ? "waiting" : attempt.failed ? "error" : "connecting";
      button.disabled = attempt !== null && !attempt.failed;
      button.textContent = t("serverLink.connect");
      button.setAttribute("aria-label", t("serverLink.connectName", { url: waiting.url }));
    },
  };
}
