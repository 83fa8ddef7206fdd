// 第四轮 QA 修复的中文文本（英文见 qa4.en.ts）：投影模式下精简的链接问题提示；提示词框里输入 "</s>" 时的说明。
import type { qa4En } from "./qa4.en";

export const qa4Zh: Record<keyof typeof qa4En, string> = {
  "url.projectorList": "具体列表在投影模式之外显示（按 P）。",
  "serverLink.short": "这个链接用的是 {url} 上的模型服务。",
  "serverLink.lessonShort": "这节课用的是 {url} 上的模型服务。",
  "pjPrompt.eosText": "这里输入的 “</s>” 只是 4 个普通字符，不是结束符（结束符只能由模型选出）。",
};
