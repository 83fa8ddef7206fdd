// 中文：读出任一 Token 的数值（悬停提示、查找 Token）与带走数据（CSV、SVG、打印讲义）的界面文本
//（键与 inspect.en.ts 相同）。
import type { inspectEn } from "./inspect.en";

export const inspectZh: Record<keyof typeof inspectEn, string> = {
  "tip.token": "「{token}」",
  "tip.chosen": "选中",
  "tip.forced": "强制选择",
  "tip.rank": "排名",
  "tip.rankValue": "第 {rank} / {n}",
  "tip.logit": "logit",
  "tip.pRaw": "p_raw（softmax，T = 1）",
  "tip.p": "p（解码后）",
  "tip.removedBy": "去掉它的步骤",
  "tip.kept": "无（保留）",
  "tip.impossible": "logit 为 −∞（不可能）",
  "tip.barName": "「{token}」：排名 {rank}，p {p}",
  "lookup.label": "查找 Token",
  "lookup.placeholder": "例如 北京",
  "lookup.button": "查找",
  "lookup.unknown": "词表里没有「{token}」。",
  "lookup.result": "「{token}」→ 排名 {rank} / {n} · p {p}（p_raw {raw}，logit {logit}）",
  "lookup.kept": "保留",
  "lookup.removed": "被 {stage} 去掉",
  "export.csv": "下载 CSV",
  "export.svg": "SVG",
  "export.svgName": "保存为 SVG",
  "export.failed": "无法生成文件：{message}",
  "handout.heading": "讲义：解码的一步",
  "handout.settings": "设置",
  "handout.step": "步骤",
  "handout.link": "链接",
  "handout.print": "打印讲义",
} as const;
