// 模型服务只列出前 N 个 Token 时（issue 12）：「词表其余部分」的柱和条带旁的方框、如实的保留数与熵、
// 服务来源自己的错误（英文对照：server-rest.en.ts）。
import type { serverRestEn } from "./server-rest.en";

export const serverRestZh: Record<keyof typeof serverRestEn, string> = {
  "rest.tick": "未列出",
  "rest.label": "词表其余部分",
  "rest.barName": "词表其余部分：合计 {p}，是服务没有列出的 {n} 个 Token。它不是一个 Token，不能被选中或强制。",
  "rest.removedNote": "✕ {stage}",
  "rest.removedName": "词表其余部分（{p}）：被 {stage} 去掉。服务没有列出的 Token 都不比列出的最后一个更可能，所以这一截断把它们全部去掉。",
  "rest.stageListed": "这一阶段只看到列出的 {n} 个 Token：服务没有列出词表其余部分（{p}）。",
  "rest.strip.box": "不参与抽样",
  "rest.strip.removed": "已被 {stage} 去掉",
  "rest.strip.name": "词表其余部分，{p}：不参与抽样。u 只落在列出的 Token 上。",
  "rest.strip.whyExact":
    "词表其余部分（{p}，服务没有列出的 Token）被 {stage} 去掉了，在整个词表上也会如此：u 落在列出的 Token 上，这些区间是精确的。",
  "rest.strip.whyInexact":
    "词表其余部分（{p}，服务没有列出的 Token）不参与抽样：核心只在列出的 {n} 个 Token 上抽取 u，所以上面的区间在这些 Token 中加起来为 1。在整个词表上，它们的概率会更低（不精确）。",
  "rest.kept": "列出的 {n} 个中保留 {k} 个（其余 {m} 个未知）",
  "rest.keptExact": "{k} / {n}（精确：{stage} 去掉了所有未列出的 Token）",
  "rest.entropy": "列出的 Token 上 {h} bit（原始，整个词表：{lo}–{hi} bit）",
  "rest.entropyExact": "{h} bit（原始，整个词表：{lo}–{hi} bit）",
  "rest.pjKept": "{k} / 列出的 {n}",
  "rest.error.unknownToken": "Token {id} 不在服务对这段文本的任何应答里，页面无法把它接上。请改用「单步」，或强制一个服务列出过的 Token。",
  "rest.error.rewind": "无法在服务上回退 {n} 个 Token：只接上了 {have} 个。",
};
