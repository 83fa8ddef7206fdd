// English text for the first-minutes QA fixes (issue: trust in front of a class): the prompt box's
// keys (the zh twin is qa.zh.ts).
export const qaEn = {
  "prompt.keys": "Enter: one step from this prompt · Shift+Enter: new line",
} as const;
