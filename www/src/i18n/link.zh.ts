// 中文：读取链接时整体层面的提示（过长的链接、过长的问题列表），键与 link.en.ts 相同。
import type { linkEn } from "./link.en";

export const linkZh: Record<keyof typeof linkEn, string> = {
  "url.linkTooLong": "这个链接超过 {max} 个字符，整个链接都没有使用",
  "url.more": "另外还有 {count} 处内容同样无法使用",
};
