// English text for what a learner types: a number box's refusal, a touch screen's prompt keys (zh twin: input.zh.ts).
export const inputEn = {
  "number.rule.whole": "a whole number from {min} to {max}",
  "number.rule.decimal": "a number from {min} to {max}",
  "number.refused": "{field}: enter {rule} (you typed “{got}”). Still using {kept}.",
  "number.empty": "{field}: the box is empty; enter {rule}. Still using {kept}.",
  "prompt.keysTouch": "Return: new line · Step: the next token from this prompt",
};
