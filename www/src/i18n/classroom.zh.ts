// 中文：第 11 号问题课堂修正（第 3、4、7 点）的界面文本（键与 classroom.en.ts 相同）。
import type { classroomEn } from "./classroom.en";

export const classroomZh: Record<keyof typeof classroomEn, string> = {
  "help.word": "快捷键",
  "help.key": "（?）",
  "help.quiz": "打开自测题",
  "lesson.own.group": "本课的设置",
  "lesson.own.temperature": "本课温度",
  "lesson.own.topP": "本课 Top-p",
  "lesson.exp3.settings": "温度 {t}，top-p = {p} 时",
  "lesson.exp3.greedy": "贪心解码（或温度为 0）：模型直接取概率最高的词，top-p 不起作用，两边都只保留 1 个。改用采样、把温度调到 0 以上再比较。",
  "preset.custom": "自定义",
  "greedy.dimmed": "greedy 直接取概率最高的 Token：温度、top-k、top-p、min-p 都不起作用（Hugging Face 在 greedy 下同样跳过这些 warper）。",
  "inspector.pRaw": "softmax {p}",
  "embed.settings": "设置",
  "embed.settingsName": "显示或隐藏设置",
  "reset.undo": "撤销重置",
  "reset.undoName": "撤销重置：恢复 Token 和路径",
};
