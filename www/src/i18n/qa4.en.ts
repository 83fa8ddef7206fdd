// English text for the fourth QA pass's fixes (the zh twin is qa4.zh.ts): projector mode's compact
// notice of a link's problems.
export const qa4En = {
  "url.projectorList": "The list is shown outside projector mode (P).",
} as const;
