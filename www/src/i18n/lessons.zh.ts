// 中文：lessons 功能的界面文本（键与 lessons.en.ts 相同）。
import type { lessonsEn } from "./lessons.en";

export const lessonsZh: Record<keyof typeof lessonsEn, string> = {
};
