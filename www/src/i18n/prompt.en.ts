// English text for the prompt box: its keys and shortcut, what to do about a prompt the model
// cannot read, and "</s>" typed as text (the zh twin is prompt.zh.ts).
export const promptEn = {
  "prompt.keys": "Enter: one step from this prompt · Shift+Enter: new line",
  "gloss.promptOnly": "prompt:",
  "prompt.fixTooLong": "Shorten the prompt, then press Enter.",
  "prompt.fixEmpty": "Write the beginning of a sentence in the prompt box.",
  // projector mode hides the sidebar's box: its own opens from “✎ Prompt” at the start of the text
  "prompt.fixTooLong.projector": "Shorten the prompt: press “✎ Prompt” (or E), then Enter.",
  "prompt.fixEmpty.projector": "Press “✎ Prompt” (or E) and write the beginning of a sentence.",
  "help.prompt": "Edit the prompt (projector mode: the prompt box; pauses Play)",
  "pjPrompt.eosText": "“</s>” typed here is four ordinary characters, not the end token (only the model chooses that).",
  "prompt.eosText":
    "“</s>” in a prompt is four ordinary characters, not the end token: the tokenizer reads text as text. The end token is one token of its own, which only the model can choose (it shows as the “end” chip).",
  "prompt.eosParsed":
    "This server's tokenizer read the “</s>” in your prompt as its end token (llama.cpp parses special tokens in text), so the model continues as if a text had just ended. The embedded model reads the same four characters as text.",
} as const;
