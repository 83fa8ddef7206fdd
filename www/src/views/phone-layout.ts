// A phone (a column ≤ 760 px wide, the page's one-column layout): the decoding settings card moves
// below the text card, so Step, Play and the text follow the prompt instead of sitting ~1,500 px
// down under every slider. The card is moved in the DOM, not with CSS `order`, so the tab order
// and a screen reader's reading order stay the order on screen. Embed mode keeps the sidebar whole
// (it is the Settings drawer there) and projector mode hides the sidebar, so neither moves it.
const PHONE = "(max-width: 760px)";

export function installPhoneLayout(): void {
  const params = document.getElementById("params-h")?.closest("section");
  const sidebar = document.querySelector("aside.sidebar");
  const textCard = document.querySelector(".work .text-card");
  if (params == null || sidebar === null || textCard === null) return;
  const body = document.body;
  const phone = matchMedia(PHONE);

  const place = (): void => {
    const below = phone.matches && body.dataset["embed"] !== "true" && body.dataset["projector"] !== "true";
    if (below && params.previousElementSibling !== textCard) textCard.after(params);
    else if (!below && params.parentElement !== sidebar) sidebar.append(params);
  };
  phone.addEventListener("change", place);
  new MutationObserver(place).observe(body, { attributes: true, attributeFilter: ["data-embed", "data-projector"] });
  place();
}
