// Numbers legible in a narrow chart. The charts scale with their box (a viewBox 400 units wide), so
// in a 360 px embed their 11-unit numbers were drawn 8 px tall. Each chart's box is watched: drawn
// smaller than designed, the chart gets `--value-k`, the factor its numbers (over the bars and on
// the value axis) grow by to be 11 px on screen (main.css), and is drawn again so that
// value-labels.ts spaces them for that size (fewer fit: the others are left out).
const MIN_VALUE_PX = 11;

/** How much larger than designed the numbers are drawn: projector mode's --pj-k or a narrow chart's --value-k. */
export function valueScale(svg: SVGSVGElement): number {
  const ks = ["--pj-k", "--value-k"].map((name) => Number(svg.style.getPropertyValue(name)));
  return Math.max(1, ...ks.filter((k) => Number.isFinite(k)));
}

/** Keep `svg`'s --value-k right for the size it is drawn at; `redraw` when it changes. */
export function watchValueScale(svg: SVGSVGElement, redraw: () => void): void {
  new ResizeObserver(() => {
    const scale = svg.getScreenCTM()?.a ?? 0;
    // (hidden: 0; the size it had is kept for when it is shown again)
    if (scale <= 0) return;
    const k = Math.max(1, MIN_VALUE_PX / (11 * scale));
    const before = Number(svg.style.getPropertyValue("--value-k") || "1");
    if (Math.abs(k - before) < 0.01) return;
    if (k === 1) svg.style.removeProperty("--value-k");
    else svg.style.setProperty("--value-k", k.toFixed(3));
    redraw();
  }).observe(svg);
}
