// A phone (a column ≤ 760 px wide, the page's one-column layout): the text card (Step, Play, the
// generated text) comes right after the prompt, then the Lessons card, then the decoding settings,
// instead of Step sitting under the lessons (~480 px below the prompt) and the settings ~1,500 px
// down under every slider. The cards are moved in the DOM, not with CSS `order`, so the tab order
// and a screen reader's reading order stay the order on screen. Embed mode keeps the sidebar whole
// (it is the Settings drawer there) and projector mode hides the sidebar and lays the lesson out
// over the chart, so neither moves anything.
const PHONE = "(max-width: 760px)";

export function installPhoneLayout(): void {
  const params = document.getElementById("params-h")?.closest("section");
  const sidebar = document.querySelector("aside.sidebar");
  const textCard = document.querySelector(".work .text-card");
  const lessons = document.getElementById("lessons");
  if (params == null || sidebar === null || textCard === null || lessons === null) return;
  const body = document.body;
  const phone = matchMedia(PHONE);

  const place = (): void => {
    const below = phone.matches && body.dataset["embed"] !== "true" && body.dataset["projector"] !== "true";
    if (below) {
      if (textCard.nextElementSibling !== lessons) textCard.after(lessons);
      if (lessons.nextElementSibling !== params) lessons.after(params);
    } else {
      if (params.parentElement !== sidebar) sidebar.append(params);
      if (lessons.nextElementSibling !== textCard) textCard.before(lessons);
    }
  };
  phone.addEventListener("change", place);
  new MutationObserver(place).observe(body, { attributes: true, attributeFilter: ["data-embed", "data-projector"] });
  place();
}
