// 第五轮 QA 修复的中文文本（英文见 qa5.en.ts）：链接里每一步各自的设置。
import type { qa5En } from "./qa5.en";

export const qa5Zh: Record<keyof typeof qa5En, string> = {
  "url.rule.settings": "应为路径、词元序号和设置，如 0_3_temperature:0.8,seed:7（只含单步读取的参数，且都在范围内；同一位置只写一次）",
};
