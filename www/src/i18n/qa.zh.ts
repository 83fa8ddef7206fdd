// 中文：首几分钟可用性修正的文字：提示词输入框的按键（英文版：qa.en.ts）。
import type { qaEn } from "./qa.en";

export const qaZh: Record<keyof typeof qaEn, string> = {
  "prompt.keys": "回车：用这个提示词生成一步 · Shift+回车：换行",
};
