// How long the charts' transitions run: short, none under reduced motion, none for a chart drawn
// as it is shown.

/** The user's reduced-motion setting (live: `matches` follows a change), asked for once. */
let reducedMotion: MediaQueryList | null = null;

/** While set, charts draw without transitions (`drawnAtOnce`). */
let atOnce = false;

/** Transition length: short, and zero when the user asked for reduced motion. */
export function duration(): number {
  reducedMotion ??= window.matchMedia("(prefers-reduced-motion: reduce)");
  return reducedMotion.matches || atOnce ? 0 : 220;
}

/**
 * Run `draw` with every transition zero-length: a chart drawn as it is shown (projector mode's
 * hidden charts wait for that) shows its step at once, as if it had moved while hidden.
 */
export function drawnAtOnce(draw: () => void): void {
  atOnce = true;
  try {
    draw();
  } finally {
    atOnce = false;
  }
}
