// English: the note under a prompt that contains the end token's text (Chinese: prompt-eos.zh.ts).
export const promptEosEn = {
  "prompt.eosText":
    "“</s>” in a prompt is four ordinary characters, not the end token: the tokenizer reads text as text. The end token is one token of its own, which only the model can choose (it shows as the “end” chip).",
  "prompt.eosParsed":
    "This server's tokenizer read the “</s>” in your prompt as its end token (llama.cpp parses special tokens in text), so the model continues as if a text had just ended. The embedded model reads the same four characters as text.",
} as const;
