// 中文：最终 0–1 条带与抽样：「其余」区间、条带的无障碍名称、u 为什么落在这里、首次打开的种子（英文版：strip.en.ts）。
import type { stripEn } from "./strip.en";

export const stripZh: Record<keyof typeof stripEn, string> = {
  "strip.rest": "其余 {n} 个 · {p}",
  "strip.restTitle": "其余 {n} 个保留下来的 Token，合计占最终概率的 {p}",
  "strip.name": "u = {u} 落在「{token}」的区间 {from} – {to}",
  "strip.nameGreedy": "greedy：不抽随机数，直接选概率最高的「{token}」",
  "strip.why": "u = {u} 是种子 {seed} 的第 {draw} 次抽样（每个新 Token 用一次，从 0 数起）。u 在 [0, 1) 上均匀分布，所以每个区间被抽中的机会等于它的宽度：「{token}」占 {share} 的抽样。",
  "seed.firstVisit": "种子 {seed} 是前 {n} 次抽样的 u 都小于 {below} 的第一个种子：开头几步展示的是典型的抽样结果，而不是罕见的。点「新种子」可换成任意种子。",
};
