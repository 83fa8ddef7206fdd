// English text for the second QA pass's fixes (the zh twin is qa2.zh.ts): a lesson's gloss that
// covers only the prompt when the model's words after it have none; what to do about a prompt the
// model cannot read.
export const qa2En = {
  "gloss.promptOnly": "prompt:",
  "prompt.fixTooLong": "Shorten the prompt, then press Enter.",
  "prompt.fixEmpty": "Write the beginning of a sentence in the prompt box.",
  // projector mode hides the sidebar's box: its own opens from “✎ Prompt” at the start of the text
  "prompt.fixTooLong.projector": "Shorten the prompt: press “✎ Prompt” (or E), then Enter.",
  "prompt.fixEmpty.projector": "Press “✎ Prompt” (or E) and write the beginning of a sentence.",
} as const;
