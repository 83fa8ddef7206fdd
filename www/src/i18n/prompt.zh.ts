// 中文：提示词框的文字：按键与快捷键、模型读不了的提示词该怎么办、当作文字输入的 "</s>"（英文版：prompt.en.ts）。
import type { promptEn } from "./prompt.en";

export const promptZh: Record<keyof typeof promptEn, string> = {
  "prompt.keys": "回车：用这个提示词生成一步 · Shift+回车：换行",
  "gloss.promptOnly": "提示词：",
  "prompt.fixTooLong": "请缩短提示词，再按回车。",
  "prompt.fixEmpty": "请在提示词框里写一句话的开头。",
  "prompt.fixTooLong.projector": "请缩短提示词：按「✎ 提示词」（或 E 键），改完按回车。",
  "prompt.fixEmpty.projector": "请按「✎ 提示词」（或 E 键）写一句话的开头。",
  "help.prompt": "修改提示词（投影模式：打开提示词框，并暂停播放）",
  "pjPrompt.eosText": "这里输入的 “</s>” 只是 4 个普通字符，不是结束符（结束符只能由模型选出）。",
  "prompt.eosText":
    "提示词里的 “</s>” 只是 4 个普通字符，不是结束符：分词器把文字当文字读。结束符是一个单独的 token，只能由模型选出（显示为“结束符”标签）。",
  "prompt.eosParsed":
    "这个服务的分词器把提示词里的 “</s>” 读成了它的结束符（llama.cpp 会解析文字里的特殊 token），所以模型像在一段文字刚结束之后那样续写。内置模型把这 4 个字符当作普通文字。",
};
