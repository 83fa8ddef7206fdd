// 学习者输入时的中文文本（英文见 input.en.ts）：数字输入框拒收时的说明，触屏上提示词框的按键。
import type { inputEn } from "./input.en";

export const inputZh: Record<keyof typeof inputEn, string> = {
  "number.rule.whole": "{min} 到 {max} 之间的整数",
  "number.rule.decimal": "{min} 到 {max} 之间的数",
  "number.refused": "{field}：请输入 {rule}（你输入的是「{got}」）。仍在使用 {kept}。",
  "number.empty": "{field}：输入框是空的，请输入 {rule}。仍在使用 {kept}。",
  "prompt.keysTouch": "换行键：换行 · 点「单步」：用这个提示词生成一步",
};
