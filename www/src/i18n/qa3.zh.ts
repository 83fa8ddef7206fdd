// 中文：第三轮可用性修正的文字（英文版：qa3.en.ts）：用模型服务做的链接等待「连接」；提示词框的快捷键。
import type { qa3En } from "./qa3.en";

export const qa3Zh: Record<keyof typeof qa3En, string> = {
  "serverLink.waiting": "这个链接是用 {url} 上的模型服务做的。点击「连接」即可在那里接着做；在那之前，页面显示的是内置模型。",
  "serverLink.lesson": "这个课程链接是用 {url} 上的模型服务做的。点击「连接」即可在那里接着上这节课；在那之前，页面显示的是内置模型。",
  "serverLink.connect": "连接",
  "serverLink.connectName": "连接 {url} 上的模型服务",
  "help.prompt": "修改提示词（投影模式：打开提示词框，并暂停播放）",
};
