// 中文：用模型服务做的链接等待「连接」时的提示（长短两种）及其按钮（英文版：server-link.en.ts）。
import type { serverLinkEn } from "./server-link.en";

export const serverLinkZh: Record<keyof typeof serverLinkEn, string> = {
  "serverLink.waiting": "这个链接是用 {url} 上的模型服务做的。点击「连接」即可在那里接着做；在那之前，页面显示的是内置模型。",
  "serverLink.lesson": "这个课程链接是用 {url} 上的模型服务做的。点击「连接」即可在那里接着上这节课；在那之前，页面显示的是内置模型。",
  "serverLink.connect": "连接",
  "serverLink.connectName": "连接 {url} 上的模型服务",
  "serverLink.short": "这个链接用的是 {url} 上的模型服务。",
  "serverLink.lessonShort": "这节课用的是 {url} 上的模型服务。",
};
