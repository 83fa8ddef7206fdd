// English: the embedded model's card on the page, with the attribution its training text's
// licences ask for (Chinese: model-about.zh.ts).
export const modelAboutEn = {
  "about.summary": "About this model: size, training text, licences",
  "about.size":
    "A decoder-only transformer with 2.4 million parameters (7 layers, context 128 tokens, vocabulary 8,000), trained by this project on 2 CPU cores. Its weights are int8, 2.5 MB, and run in your browser.",
  "about.data": "It learnt from this text (the weights are adapted from it):",
  "about.react": "React documentation, Simplified Chinese and English — CC BY 4.0, Meta Platforms, Inc. and contributors",
  "about.vue": "Vue documentation, Simplified Chinese — CC BY 4.0, Evan You and the Vue documentation contributors",
  "about.ts": "TypeScript 使用手册 (Chinese translation of the TypeScript Handbook) — MIT, © 2015 Shengping Zhong",
  "about.hf":
    "Hugging Face LLM Course, Simplified Chinese and English — Apache-2.0, © Hugging Face and contributors; extracted from its Markdown and cleaned (code blocks, tables, images and link targets removed)",
  "about.lessons": "Lesson and everyday text written by the nexttoken team",
  "about.licence": "Apache License 2.0 (full text)",
} as const;
