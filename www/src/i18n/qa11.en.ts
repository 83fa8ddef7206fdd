// English text for the eleventh QA pass's fixes (zh twin: qa11.zh.ts): a number box's refusal, a phone's prompt keys.
export const qa11En = {
  "number.rule.whole": "a whole number from {min} to {max}",
  "number.rule.decimal": "a number from {min} to {max}",
  "number.refused": "{field}: enter {rule} (you typed “{got}”). Still using {kept}.",
  "number.empty": "{field}: the box is empty; enter {rule}. Still using {kept}.",
  "prompt.keysTouch": "Return: new line · Step: the next token from this prompt",
};
