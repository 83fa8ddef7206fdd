// 每一步之后读屏软件读出的文字（views/step-announcer.ts；英文见 screen-reader.en.ts）。
import type { screenReaderEn } from "./screen-reader.en";

export const screenReaderZh: Record<keyof typeof screenReaderEn, string> = {
  "announce.step": "第 {n} 步：{token}，p {p}{raw}，抽样 u = {u}。",
  "announce.greedy": "第 {n} 步：{token}，p {p}{raw}，贪心：取概率最高的词元，不抽样。",
  "announce.forced": "第 {n} 步：强制选 {token}，p {p}{raw}。",
  "announce.raw": "（softmax {p}）",
  "announce.token": "「{token}」",
  "announce.cuts": "移除：{cuts}。",
  "announce.cut": "{stage} {n} 个",
  "announce.join": "，",
  "announce.kept": "保留 {kept}。",
};
