// English text for the fourth QA pass's fixes (the zh twin is qa4.zh.ts): projector mode's compact
// notice of a link's problems; its prompt box's note on "</s>" typed as text.
export const qa4En = {
  "url.projectorList": "The list is shown outside projector mode (P).",
  "serverLink.short": "Made with the model server at {url}.",
  "serverLink.lessonShort": "A lesson made with the model server at {url}.",
  "pjPrompt.eosText": "“</s>” typed here is four ordinary characters, not the end token (only the model chooses that).",
} as const;
