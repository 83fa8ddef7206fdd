// English text for writing with the model: the prompt hint, min new tokens, the end token, the
// plain text and the ␣ legend (zh twin: text.zh.ts).
export const textEn = {
  "prompt.hint": "This model continues text: write the beginning of a sentence.",
  "minnew.label": "Min new tokens",
  "minnew.note": "The end token is held back until this many tokens are written (0 = off).",
  "stage.min_new_tokens.title": "Min new tokens",
  "stage.min_new_tokens.explainHeld": "{done} of {n} new tokens so far: the end token is removed, so the text cannot end yet.",
  "stage.min_new_tokens.explainFree": "{done} new tokens, at least {n}: the end token may be chosen again.",
  "end.chip": "end",
  "end.title": "End of text ({token}): the model chose to stop here.",
  "text.plainLabel": "As plain text",
  "text.copy": "Copy text",
  "text.copied": "Copied.",
  "text.legend": "␣ marks a space at the start of a token and ↵ a line break (in chips and charts only); a chip like <E4> is a byte token, a piece of one character, shown as the character once it is whole; “end” is the end-of-text token.",
} as const;
