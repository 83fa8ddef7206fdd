// 读屏软件在每一步之后读出的文字（views/step-announcer.ts），以及每张图的描述（views/chart-summary.ts）；英文见 screen-reader.en.ts。
import type { screenReaderEn } from "./screen-reader.en";

export const screenReaderZh: Record<keyof typeof screenReaderEn, string> = {
  "announce.step": "第 {n} 步：{token}，p {p}{raw}，抽样 u = {u}。",
  "announce.greedy": "第 {n} 步：{token}，p {p}{raw}，贪心：取概率最高的 Token，不抽样。",
  "announce.forced": "第 {n} 步：强制选 {token}，p {p}{raw}。",
  "announce.raw": "（softmax {p}）",
  "announce.token": "「{token}」",
  "announce.cuts": "移除：{cuts}。",
  "announce.cut": "{stage} {n} 个",
  "announce.join": "，",
  "announce.kept": "保留 {kept}。",
  "summary.item": "{token} {value}",
  "summary.logits": "得分最高：{top}。",
  "summary.softmax": "最可能：{top}。",
  "summary.temperature": "T = {t} 之后：{top}。",
  "summary.kept": "保留 {n} 个：{top}。",
  "summary.removed": "移除 {n} 个，其中最可能的：{top}。",
  "summary.removedCount": "移除 {n} 个。",
  "summary.removedNone": "没有移除任何 Token。",
};
