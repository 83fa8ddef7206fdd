// English text a screen reader hears after each step (views/step-announcer.ts; zh twin:
// screen-reader.zh.ts). {token} is the chosen token, marked with its own language.
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
} as const;
