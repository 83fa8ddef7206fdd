// 中文：投影模式的提示词编辑框，以及「手写表不读提示词」的说明（键与 teach.en.ts 相同）。
import type { teachEn } from "./teach.en";

export const teachZh: Record<keyof typeof teachEn, string> = {
  "prompt.manual": "手写的分数表不读提示词：这里的提示词只是表格的标题。要让模型续写你自己的句子，请把 logits 来源换成内置模型。",
  "pjPrompt.edit": "改提示词",
  "pjPrompt.editShort": "提示词",
  "pjPrompt.label": "提示词",
  "pjPrompt.apply": "应用",
  "pjPrompt.cancel": "取消",
  "pjPrompt.keys": "回车：应用并生成一步 · Shift+回车：换行 · Esc：取消",
  "pjPrompt.manual": "手写的分数表不读提示词：它只按上一个 Token 查分数。",
  "pjPrompt.useModel": "换成内置模型",
};
