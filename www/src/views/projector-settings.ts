// Projector mode's own decoding controls: the sidebar is hidden there, and the chapter's core
// demonstration ("raise the temperature and watch the distribution flatten") needs its sliders. A
// header button ("Settings" / 「设置」, aria-expanded) opens a row of large controls between the
// enlarged chart and the final strip — a Greedy switch, temperature, top-k, top-p — and the chart
// gives up that row's height (the key numbers put label beside value), so nothing is covered. The controls hold no value of their own: they send
// `Actions.setParams` (as the sidebar's do) and are written from the page's state on every render;
// their ranges are read from the sidebar's sliders. While a lesson is open the row and its button are
// hidden (the lessons bring their own sliders). styles/projector-settings.css lays it out.
import type { Actions } from "../actions";
import { engineLacks } from "../engines";
import { num } from "../format";
import { t } from "../i18n/index";
import type { MessageKey } from "../i18n/en";
import { OFF_VALUE } from "../state";
import type { Params } from "../state";

type SliderKey = "temperature" | "top_k" | "top_p";

/** Each slider: the sidebar's input it mirrors (ranges read from it), its label, its digits. */
const SLIDERS: ReadonlyArray<{ key: SliderKey; sidebar: string; label: MessageKey; digits: number }> = [
  { key: "temperature", sidebar: "temperature", label: "temperature.label", digits: 2 },
  { key: "top_k", sidebar: "top-k", label: "topk.label", digits: 0 },
  { key: "top_p", sidebar: "top-p", label: "topp.label", digits: 2 },
];

/** Whether a value switches its stage off (state.ts `OFF_VALUE`): the row says "off" rather than a number. */
function isOff(key: SliderKey, value: number): boolean {
  return key !== "temperature" && value === OFF_VALUE[key];
}

export interface ProjectorSettings {
  /** Open or close the row; `focus` moves focus into it (opening) or back to the button (closing). */
  set(open: boolean, focus: boolean): void;
  isOpen(): boolean;
  /**
   * The S key: as the Settings button pressed from the keyboard (focus into the row, and back to
   * the button when it closes from inside it). Only where the button is: projector mode, no lesson open.
   */
  toggle(): void;
  /** Esc anywhere on the page: closes the row when it is on screen; false when it is not. */
  close(): boolean;
}

export function createProjectorSettings(actions: Actions): ProjectorSettings {
  const body = document.body;

  const row = document.createElement("div");
  row.id = "projector-controls";
  row.className = "projector-controls";
  row.setAttribute("role", "group");

  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.id = "projector-controls-toggle";
  toggle.className = "quiet projector-controls-toggle";
  toggle.setAttribute("aria-controls", row.id);
  toggle.setAttribute("aria-keyshortcuts", "S");
  document.querySelector(".top .lesson-pick")?.before(toggle);

  // greedy on or off: a toggle button (its pressed state is the strategy); greedy skips the three
  // sliders, which stay settable, as in the sidebar
  const greedyButton = document.createElement("button");
  greedyButton.type = "button";
  greedyButton.id = "pj-greedy";
  greedyButton.className = "pj-greedy";
  greedyButton.addEventListener("click", (event) => {
    actions.setParams({ strategy: actions.state().params.strategy === "greedy" ? "sample" : "greedy" });
    if (event.detail > 0) greedyButton.blur();
  });
  row.append(greedyButton);

  const sliders = SLIDERS.map((spec) => {
    const item = document.createElement("div");
    item.className = "pj-control pj-slider";
    const input = document.createElement("input");
    input.type = "range";
    input.id = `pj-${spec.sidebar}`;
    const mirrored = document.getElementById(spec.sidebar);
    for (const attr of ["min", "max", "step"]) input.setAttribute(attr, mirrored?.getAttribute(attr) ?? "");
    const label = document.createElement("label");
    label.htmlFor = input.id;
    const out = document.createElement("output");
    out.htmlFor.add(input.id);
    // (an <output> is a polite live region: the slider already says its new value)
    out.setAttribute("aria-live", "off");
    // a setting the engine lacks (engines.ts): dimmed, not sent, and this says why (as the sidebar)
    const lacks = document.createElement("span");
    lacks.id = `${input.id}-lacks`;
    lacks.className = "pj-lacks";
    lacks.hidden = true;
    input.addEventListener("input", () => actions.setParams({ [spec.key]: Number(input.value) }));
    // a slider set with the mouse or a finger lets go of focus, as projector mode's buttons do: the
    // teacher's next → or Space steps or plays instead of nudging the slider (from the keyboard,
    // reached with Tab, it keeps focus and the arrows move it)
    for (const type of ["pointerup", "pointercancel"]) input.addEventListener(type, () => input.blur());
    item.append(label, input, out, lacks);
    row.append(item);
    return { spec, item, input, label, out, lacks };
  });
  // the row is in the page only while it is open in projector mode: elsewhere the sidebar's sliders
  // are the only ones of their names (a second, hidden "Temperature" would be found by label)
  const final = document.getElementById("final");

  const isOpen = (): boolean => body.dataset["pjControls"] === "open";

  function set(open: boolean, focus: boolean): void {
    if (open) body.dataset["pjControls"] = "open";
    else delete body.dataset["pjControls"];
    render();
    if (!focus) return;
    if (open) greedyButton.focus();
    else toggle.focus();
  }

  function write(node: HTMLElement, text: string): void {
    if (node.textContent !== text) node.textContent = text;
  }

  function render(): void {
    const shown = isOpen() && body.dataset["projector"] === "true";
    if (shown && !row.isConnected) final?.before(row);
    else if (!shown && row.isConnected) row.remove();
    const params: Readonly<Params> = actions.state().params;
    write(toggle, t("projector.controls"));
    toggle.title = `${t("projector.controlsName")} (S)`;
    toggle.setAttribute("aria-expanded", String(isOpen()));
    row.setAttribute("aria-label", t("projector.controlsName"));
    const greedy = params.strategy === "greedy";
    write(greedyButton, t("projector.greedyShort"));
    greedyButton.title = t("projector.greedyTitle");
    greedyButton.setAttribute("aria-pressed", String(greedy));
    for (const { spec, item, input, label, out, lacks } of sliders) {
      const value = params[spec.key];
      write(label, t(spec.label));
      if (document.activeElement !== input && input.value !== String(value)) input.value = String(value);
      const shown = isOff(spec.key, value) ? t("projector.settingOff") : num(value, spec.digits);
      write(out, shown);
      // "off" is what the class sees; a screen reader hears the number with it
      if (isOff(spec.key, value)) input.setAttribute("aria-valuetext", `${num(value, spec.digits)} (${t("projector.settingOff")})`);
      else input.removeAttribute("aria-valuetext");
      const lacking = engineLacks(params.engine, spec.key);
      input.disabled = lacking;
      item.toggleAttribute("data-lacks", lacking);
      lacks.hidden = !lacking;
      write(lacks, lacking ? t("engine.lacks", { engine: t(`engine.${params.engine}`) }) : "");
      // greedy decides before these stages: dimmed, still settable; the sidebar's note says why
      item.toggleAttribute("data-skipped", greedy);
      const described = [lacking ? lacks.id : "", greedy ? "greedy-note" : ""].filter((id) => id !== "").join(" ");
      if (described === "") input.removeAttribute("aria-describedby");
      else input.setAttribute("aria-describedby", described);
    }
  }

  toggle.addEventListener("click", (event) => {
    // from the keyboard focus goes into the row; a mouse click leaves focus with the page (Space plays)
    set(!isOpen(), event.detail === 0);
    if (event.detail > 0) toggle.blur();
  });
  // Esc in the row closes it and gives focus back to its button (before a lesson or full screen takes it)
  row.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || !isOpen()) return;
    event.preventDefault();
    set(false, true);
  });
  actions.onRender(render);
  render();
  return {
    set,
    isOpen,
    close(): boolean {
      if (!isOpen() || body.dataset["projector"] !== "true") return false;
      set(false, row.contains(document.activeElement));
      return true;
    },
    toggle() {
      if (body.dataset["projector"] !== "true" || document.querySelector("#lessons[data-open='true']") !== null) return;
      const inRow = row.contains(document.activeElement);
      set(!isOpen(), isOpen() ? inRow : true);
    },
  };
}
