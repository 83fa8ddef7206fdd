// English text a screen reader hears after each step (views/step-announcer.ts) and as each chart's
// description (views/chart-summary.ts); zh twin: screen-reader.zh.ts. In a step's sentence {token}
// is the chosen token, marked with its own language.
export const screenReaderEn = {
  "announce.step": "Step {n}: {token}, p {p}{raw}, drawn by u = {u}.",
  "announce.greedy": "Step {n}: {token}, p {p}{raw}, greedy: the most likely token, no draw.",
  "announce.forced": "Step {n}: {token} forced, p {p}{raw}.",
  "announce.raw": " (softmax {p})",
  "announce.token": "“{token}”",
  "announce.cuts": " Removed: {cuts}.",
  "announce.cut": "{stage} {n}",
  "announce.join": ", ",
  "announce.kept": " Kept {kept}.",
  "summary.item": "{token} {value}",
  "summary.logits": "Highest scores: {top}.",
  "summary.softmax": "Most likely: {top}.",
  "summary.temperature": "After T = {t}: {top}.",
  "summary.kept": "Kept {n}: {top}.",
  "summary.removed": "Removed {n}, the most likely of them: {top}.",
  "summary.removedCount": "Removed {n}.",
  "summary.removedNone": "Nothing removed.",
} as const;
