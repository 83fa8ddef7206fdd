// 中文：读取链接时整体层面的提示（过长的链接、过长的问题列表、每一步自己的设置），键与 link.en.ts 相同。
import type { linkEn } from "./link.en";

export const linkZh: Record<keyof typeof linkEn, string> = {
  "url.linkTooLong": "这个链接超过 {max} 个字符，整个链接都没有使用",
  "url.more": "另外还有 {count} 处内容同样无法使用",
  "url.rule.promptCut": "超过 {max} 个字符，远超模型能读的长度（提示词下方的提示写明了它以 Token 计的上限）；提示词框里是前 {max} 个字符",
  "url.rule.tokensCut": "应为 Token 编号，如 12.34f.56（f 表示强制选择）；已使用前 {kept} 个",
  "url.rule.notText": "含有不是 UTF-8 文本的百分号转义（在转发途中被截断或编码错误？）；每处显示为 �，其余按原样使用",
  "url.rule.repeated": "出现了不止一次；只读取最后一个值「{used}」",
  "url.rule.cut": "链接在转发途中从这里被截断了（比页面写出时短）：这一项及其后的内容都丢失了，请索取完整链接",
  "url.rule.cutTokens": "链接在转发途中从这里被截断了（比页面写出时短）：已使用前 {kept} 个 Token，其余部分及其后的内容都丢失了，请索取完整链接",
  "url.projectorList": "具体列表在投影模式之外显示（按 P）。",
  "url.rule.settings": "应为路径、词元序号和设置，如 0_3_temperature:0.8,seed:7（只含单步读取的参数，且都在范围内；同一位置只写一次）",
  "url.lessonNotice": "这个链接改动了课程自己设定的参数：",
  "url.lessonOwn": "{field} =「{value}」：已代替{lesson}自己的 {own}，而课程的文字是按 {own} 写的（「{again}」会改回）",
};
