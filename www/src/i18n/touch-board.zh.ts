// 没有键盘和鼠标的触屏（教室触控一体机、平板）的中文文本：点柱子的作用，投影模式提示词框的换行键（英文见 touch-board.en.ts）。
import type { touchBoardEn } from "./touch-board.en";

export const touchBoardZh: Record<keyof typeof touchBoardEn, string> = {
  "inspector.forceHintTouch": "点一下柱子看它的数字；再点一下，在这一步强制选择该 Token。",
  "pjPrompt.keysTouch": "换行键：应用提示词（不生成）· 点「单步」：生成下一个 Token",
};
