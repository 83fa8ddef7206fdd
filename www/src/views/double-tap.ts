// A double tap on a touch screen is one press. Chromium sends it as two clicks, the second with
// detail 2: on Step that was two tokens where one was meant, on Play a start and an immediate stop,
// on a chart's bar two forced tokens; after a button that hides itself (Undo reset) the second tap
// landed on whatever moved under the finger. So taps pair up: within the browser's double-tap time
// (~300 ms, where Chromium counts detail 1, 2, 3, …) every second tap is the first one's double, and
// fast tapping still steps once per pair; taps further apart are separate presses, and a mouse's
// clicks (a desktop's fast stepping) are untouched.
const TYPED = "input, textarea, select, [contenteditable]";

export function installDoubleTapGuard(): void {
  document.addEventListener(
    "click",
    (event) => {
      const touch = event instanceof PointerEvent && (event.pointerType === "touch" || event.pointerType === "pen");
      if (!touch || event.detail % 2 !== 0) return;
      // (in a text box a double tap selects a word: that is the box's own, not a press)
      if (event.target instanceof Element && event.target.closest(TYPED) !== null) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true,
  );
}
