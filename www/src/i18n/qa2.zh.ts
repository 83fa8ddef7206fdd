// 中文：第二轮可用性修正的文字（英文版：qa2.en.ts）。注释只在英文界面出现，这里的值不会显示。
import type { qa2En } from "./qa2.en";

export const qa2Zh: Record<keyof typeof qa2En, string> = {
  "gloss.promptOnly": "提示词：",
  "prompt.fixTooLong": "请缩短提示词，再按回车。",
  "prompt.fixEmpty": "请在提示词框里写一句话的开头。",
  "prompt.fixTooLong.projector": "请缩短提示词：按「✎ 提示词」（或 E 键），改完按回车。",
  "prompt.fixEmpty.projector": "请按「✎ 提示词」（或 E 键）写一句话的开头。",
};
