// The generated text's chips answer "how likely was this token?" on hover and focus, like the bars:
// each chip's tooltip reads the trace kept with its path entry (charts/tooltip.ts draws it).
import { setTip } from "../charts/tooltip";
import type { PathEntry } from "../state";
import { el } from "./controls";

/** Register the tooltip of every chip now on screen (call after the chips are drawn). */
export function tipChips(path: readonly PathEntry[], label: (id: number) => string): void {
  const items = el<HTMLOListElement>("chips").children;
  path.forEach((entry, index) => {
    const button = items[index]?.querySelector("button");
    if (!button) return;
    // (the chip's own title, its hint, joins the tooltip while it shows)
    setTip(button, () => ({
      candidate: entry.chosen,
      label: label(entry.id),
      vocabSize: entry.vocabSize ?? entry.result.vocab_size,
      chosen: !entry.forced,
      forced: entry.forced,
    }));
  });
}
