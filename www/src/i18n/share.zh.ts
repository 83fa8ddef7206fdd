// 中文：链接（URL 状态）、“分享 / 嵌入”对话框与嵌入模式的界面文本（键与 share.en.ts 相同）。
import type { shareEn } from "./share.en";

export const shareZh: Record<keyof typeof shareEn, string> = {
  "url.notice": "这个链接里有些内容无法使用，页面已改用默认值：",
  "url.dismiss": "知道了",
  "url.ignored": "{field} =「{value}」：{rule}",
  "url.rule.number": "应为 {min} 到 {max} 之间的数",
  "url.rule.integer": "应为 {min} 到 {max} 之间的整数",
  "url.rule.oneOf": "应为以下之一：{options}",
  "url.rule.tooLong": "超过 {max} 个字符",
  "url.rule.tokens": "应为 Token 编号，如 12.34f.56（f 表示强制选择）",
  "url.rule.unknown": "本页面不认识这个值",
  "url.token": "第 {n} 个 Token",
  "url.path": "第 {n} 条路径",
  "url.badToken": "{at}（「{token}」）无法接在这里，路径在它之前结束",
  "url.pastStop": "{at}：生成已经停止，之后的内容被省略",
  "url.badBranch": "{at} 与前面的路径对不上，它和之后的路径被省略",
  "url.noModel": "内置模型没有加载，改用手工 logits",
} as const;
