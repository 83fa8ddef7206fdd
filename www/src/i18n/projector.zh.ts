// 中文：projector 功能的界面文本（键与 projector.en.ts 相同）。
import type { projectorEn } from "./projector.en";

export const projectorZh: Record<keyof typeof projectorEn, string> = {
};
