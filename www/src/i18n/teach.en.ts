// English text for teaching in front of a class: projector mode's prompt editor and the note that a
// hand-made table does not read the prompt (zh twin: teach.zh.ts).
export const teachEn = {
  "prompt.manual": "The hand-made table ignores the prompt: here it is only the table's title. To continue your own sentence, switch the logits source to the embedded model.",
  "pjPrompt.edit": "Edit prompt",
  "pjPrompt.editShort": "Prompt",
  "pjPrompt.label": "Prompt",
  "pjPrompt.apply": "Apply",
  "pjPrompt.cancel": "Cancel",
  "pjPrompt.keys": "Enter: apply and take one step · Shift+Enter: new line · Esc: cancel",
  "pjPrompt.manual": "The hand-made table ignores the prompt: it looks up the last token.",
  "pjPrompt.useModel": "Use the model",
} as const;
