// English: the note under a prompt that contains the end token's text (Chinese: prompt-eos.zh.ts).
export const promptEosEn = {
  "prompt.eosText":
    "“</s>” in a prompt is four ordinary characters, not the end token: the tokenizer reads text as text. The end token is one token of its own, which only the model can choose (it shows as the “end” chip).",
} as const;
