// Embed mode's Settings drawer: in an iframe the sidebar is folded away, and one header button
// ("Settings" / 「设置」) opens it over the page as a drawer. The button says whether it is open
// (aria-expanded); opening moves focus into the drawer, Esc or the button closes it and focus goes
// back to the button; tabbing out of it closes it. Outside embed mode the button is hidden and the
// sidebar is always shown.
import { t } from "../i18n/index";

export interface SettingsDrawer {
  /** Redraw the button's text (after a language change). */
  render(): void;
  /**
   * Open the drawer, focus left alone, when `node` is inside the folded sidebar: a lesson's "show me"
   * lights a sidebar control, which in embed mode is otherwise nowhere on screen.
   */
  reveal(node: Element): void;
}

export function createSettingsDrawer(): SettingsDrawer {
  const body = document.body;
  const sidebar = document.querySelector<HTMLElement>("aside.sidebar");
  const toggle = document.getElementById("settings-toggle");
  if (sidebar === null || !(toggle instanceof HTMLButtonElement)) return { render() {}, reveal() {} };
  sidebar.id ||= "sidebar";
  toggle.setAttribute("aria-controls", sidebar.id);

  const isOpen = (): boolean => body.dataset["settings"] === "open";
  function set(open: boolean, focus: boolean): void {
    // the drawer hangs below the header, whatever its height
    const header = document.querySelector(".top");
    if (header !== null) sidebar?.style.setProperty("--drawer-top", `${Math.round(header.getBoundingClientRect().bottom) + 4}px`);
    if (open) body.dataset["settings"] = "open";
    else delete body.dataset["settings"];
    render();
    if (!focus) return;
    if (open) sidebar?.querySelector<HTMLElement>("select, input, textarea, button")?.focus();
    else toggle?.focus();
  }
  function render(): void {
    if (toggle === null) return;
    toggle.textContent = t("embed.settings");
    toggle.title = t("embed.settingsName");
    toggle.setAttribute("aria-expanded", String(isOpen()));
  }

  toggle.addEventListener("click", () => set(!isOpen(), true));
  // Esc closes the drawer from anywhere inside it (a select's own Esc closes its list first)
  sidebar.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen() && !event.defaultPrevented) {
      event.preventDefault();
      set(false, true);
    }
  });
  // Tabbing out of the drawer closes it: the drawer sits over the page, so the next focused control
  // (Speed, Copy text, a chart's bars) would be hidden under it. Only keyboard focus (:focus-visible)
  // closes it; a click on Step beside the open drawer keeps it open for the next setting.
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (!isOpen() || !(target instanceof Element) || sidebar.contains(target) || target === toggle) return;
    if (target.matches(":focus-visible")) set(false, false);
  });
  render();
  return {
    render,
    reveal(node) {
      if (body.dataset["embed"] === "true" && !isOpen() && sidebar.contains(node)) set(true, false);
    },
  };
}
