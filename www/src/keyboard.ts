// Keyboard shortcuts for the classroom, and the `?` overlay that lists them (a modal <dialog> in
// index.html). A shortcut never takes a key from someone typing, from a widget that uses it (a slider's
// arrows, a button's Space) or from a browser combination (Ctrl, Alt, ⌘).
import type { Actions } from "./actions";

export interface Commands {
  toggleProjector(): void;
  toggleFullscreen(): void;
  /** Open the lesson at this 0-based index (keys 1–9; 0 opens the self-test, the last lesson). */
  openLesson(index: number): void;
  /** Esc: close the open lesson (focus goes back where it was); false when none is open. */
  closeLesson(): boolean;
  /** E: edit the prompt (projector mode: its prompt box); Play pauses. */
  editPrompt(): void;
  /** S: projector mode's settings row (the header's Settings button) opens or closes. */
  toggleSettings(): void;
  /** Esc, no lesson open: close projector mode's settings row; false when it is not open. */
  closeSettings(): boolean;
}

/** Elements where keys are text: every shortcut is off inside them. */
const TYPING = "input, textarea, select, [contenteditable]:not([contenteditable='false']), [role='textbox'], [role='combobox'], [role='searchbox'], [role='spinbutton']";
/** Widgets whose own keys include the arrows (a slider, tabs, a list box …). */
const ARROW_WIDGETS = "[role='slider'], [role='tablist'], [role='tab'], [role='listbox'], [role='option'], [role='menu'], [role='menuitem'], [role='radiogroup'], [role='radio'], [role='tree'], [role='treeitem'], [role='grid']";
/** Fields where Esc may mean something to the person typing (an answer being written, a prompt). */
const TEXT_ENTRY = "textarea, input:not([type='range'], [type='checkbox'], [type='radio'], [type='button'], [type='submit'], [type='reset'], [type='color']), [contenteditable]:not([contenteditable='false']), [role='textbox'], [role='searchbox'], [role='combobox']";
/** Controls that Space presses: there Space keeps its own meaning. */
const SPACE_CONTROLS = "button, a[href], summary, label, [role='button'], [role='link'], [role='checkbox'], [role='switch'], [role='menuitem'], [role='tab'], [role='option'], [role='radio']";

/**
 * Whether a key press may be a page shortcut at all: not already handled, no Ctrl/Alt/⌘, not part
 * of an IME composition, not typed into a field, and no modal dialog open (it owns the keyboard).
 */
export function shortcutTarget(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target !== null && target.closest(TYPING) !== null) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return false;
  return document.querySelector("dialog:modal") === null;
}

/**
 * Whether Esc may close a lesson: nobody else took it first (a tooltip, the settings drawer, an open
 * select's list), no input method is composing, no modal dialog owns the keyboard (it closes itself),
 * and focus is not in a text field. A menu (the header's lesson picker) does not stop it.
 */
function escapeCloses(event: KeyboardEvent): boolean {
  if (event.key !== "Escape" || event.defaultPrevented || event.isComposing || event.keyCode === 229) return false;
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target !== null && target.closest(TEXT_ENTRY) !== null) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return false;
  return document.querySelector("dialog:modal") === null;
}

/** Esc in the sidebar's prompt box, nobody else having taken it and no input method composing. */
function leavesPrompt(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing || event.keyCode === 229 || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return false;
  return event.target instanceof HTMLTextAreaElement && event.target.id === "prompt";
}

export function installShortcuts(actions: Actions, commands: Commands): void {
  const help = createHelp();
  // like pressing Step: a running playback stops first, then exactly one token is added
  const stepOnce = (): void => {
    if (actions.state().playing) actions.togglePlay();
    actions.step();
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      if (escapeCloses(event) && (commands.closeLesson() || commands.closeSettings())) event.preventDefault();
      else if (leavesPrompt(event)) {
        // E put the keyboard in the sidebar's prompt box: Esc gives it back to the page (the text
        // kept and read, as on any leaving), where Space plays and → steps again
        event.preventDefault();
        (event.target as HTMLElement).blur();
      }
      return;
    }
    // `?` also closes its own overlay (the dialog would otherwise swallow every key)
    if (event.key === "?" && help.isOpen() && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      help.close();
      return;
    }
    if (!shortcutTarget(event)) return;
    const target = event.target instanceof Element ? event.target : null;
    const inArrowWidget = target?.closest(ARROW_WIDGETS) != null;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    // while the page loads, only the overlay, projector mode and fullscreen answer
    if (document.body.dataset["ready"] !== "true" && !["?", "p", "f"].includes(key)) return;
    let run: (() => void) | null = null;
    switch (key) {
      case " ":
        // on a focused button Space presses that button (once), so it is not a shortcut there —
        // except projector mode's Step, where the prompt box's Enter leaves the focus (so Enter
        // steps on): there Space is Play, as everywhere in the mode (it pressed Step)
        if ((target?.closest(SPACE_CONTROLS) != null && !(target?.id === "step" && document.body.dataset["projector"] === "true")) || event.repeat) return;
        run = () => actions.togglePlay();
        break;
      case "PageDown":
      case "PageUp":
        // a presentation clicker sends PageDown / PageUp (some → / ←): in projector mode, where the
        // page never scrolls, they step and go back; elsewhere they scroll the page as ever
        if (inArrowWidget || document.body.dataset["projector"] !== "true") return;
        run = key === "PageUp" ? () => actions.back() : stepOnce;
        break;
      case "ArrowRight":
        if (inArrowWidget) return;
        run = stepOnce;
        break;
      case "ArrowLeft":
        if (inArrowWidget) return;
        run = () => actions.back();
        break;
      case "r":
        if (!event.repeat) run = () => actions.reset();
        break;
      case "p":
        if (!event.repeat) run = () => commands.toggleProjector();
        break;
      case "f":
        if (!event.repeat) run = () => commands.toggleFullscreen();
        break;
      case "e":
        if (!event.repeat) run = () => commands.editPrompt();
        break;
      case "s":
        if (!event.repeat) run = () => commands.toggleSettings();
        break;
      case "?":
        if (!event.repeat) run = () => help.open();
        break;
      default:
        // 1–9 open the first nine lessons; 0 (after 9 on the keyboard) the tenth, the self-test
        if (/^[0-9]$/.test(key) && !event.repeat) run = () => commands.openLesson(key === "0" ? 9 : Number(key) - 1);
    }
    if (run === null) return;
    // the key is ours: no page scroll (Space, arrows), no second meaning
    event.preventDefault();
    run();
  });
}

interface Help {
  open(): void;
  close(): void;
  isOpen(): boolean;
}

/** The shortcuts overlay: opened by `?` or its header button; Esc, Close or a click outside close it. */
function createHelp(): Help {
  const dialog = document.getElementById("help-dialog");
  const openButton = document.getElementById("help-open");
  if (!(dialog instanceof HTMLDialogElement)) return { open() {}, close() {}, isOpen: () => false };
  /** Where focus was before the overlay opened; it goes back there on close. */
  let returnTo: HTMLElement | null = null;
  const help: Help = {
    open() {
      if (dialog.open) return;
      // (opened by `?` from the page itself: back to the page, where Space plays — on the overlay's
      // button, Space opened the overlay again)
      returnTo = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      dialog.showModal();
    },
    close() {
      if (dialog.open) dialog.close();
    },
    isOpen: () => dialog.open,
  };
  openButton?.addEventListener("click", () => help.open());
  document.getElementById("help-close")?.addEventListener("click", () => help.close());
  // a click on the backdrop (the dialog box itself is padded, so only outside clicks land on it)
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) help.close();
  });
  dialog.addEventListener("close", () => {
    if (returnTo?.isConnected === true) returnTo.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    returnTo = null;
  });
  return help;
}
