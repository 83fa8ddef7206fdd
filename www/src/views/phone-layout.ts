// A phone (a column ≤ 760 px wide, the page's one-column layout): the text card (Step, Play, the
// generated text) comes right after the prompt, then the Lessons card, then the decoding settings,
// instead of Step sitting under the lessons (~480 px below the prompt) and the settings ~1,500 px
// down under every slider. The cards are moved in the DOM, not with CSS `order`, so the tab order
// and a screen reader's reading order stay the order on screen. Embed mode keeps the sidebar whole
// (it is the Settings drawer there) and projector mode hides the sidebar and lays the lesson out
// over the chart, so neither moves anything.
const PHONE = "(max-width: 760px)";

/** Whether the page is in its phone order (a narrow window, neither embed nor projector mode). */
function phoneOrder(): boolean {
  const { dataset } = document.body;
  return matchMedia(PHONE).matches && dataset["embed"] !== "true" && dataset["projector"] !== "true";
}

/**
 * A link that opens a lesson (a teacher's `?lesson=…`): on a phone the Lessons card is under the
 * text, below the first screen, so the page starts scrolled to it; the prompt and Step are just above.
 */
export function revealLinkedLesson(): void {
  if (phoneOrder()) document.getElementById("lessons")?.scrollIntoView({ block: "start" });
}

export function installPhoneLayout(): void {
  const params = document.getElementById("params-h")?.closest("section");
  const sidebar = document.querySelector("aside.sidebar");
  const textCard = document.querySelector(".work .text-card");
  const lessons = document.getElementById("lessons");
  if (params == null || sidebar === null || textCard === null || lessons === null) return;
  const place = (): void => {
    if (phoneOrder()) {
      if (textCard.nextElementSibling !== lessons) textCard.after(lessons);
      if (lessons.nextElementSibling !== params) lessons.after(params);
    } else {
      if (params.parentElement !== sidebar) sidebar.append(params);
      if (lessons.nextElementSibling !== textCard) textCard.before(lessons);
    }
  };
  matchMedia(PHONE).addEventListener("change", place);
  new MutationObserver(place).observe(document.body, { attributes: true, attributeFilter: ["data-embed", "data-projector"] });
  place();
}
