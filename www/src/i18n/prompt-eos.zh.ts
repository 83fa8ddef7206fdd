// 中文：提示词里写了结束符文字时的说明（英文版：prompt-eos.en.ts）。
import type { promptEosEn } from "./prompt-eos.en";

export const promptEosZh: Record<keyof typeof promptEosEn, string> = {
  "prompt.eosText":
    "提示词里的 “</s>” 只是 4 个普通字符，不是结束符：分词器把文字当文字读。结束符是一个单独的 token，只能由模型选出（显示为“结束符”标签）。",
  "prompt.eosParsed":
    "这个服务的分词器把提示词里的 “</s>” 读成了它的结束符（llama.cpp 会解析文字里的特殊 token），所以模型像在一段文字刚结束之后那样续写。内置模型把这 4 个字符当作普通文字。",
};
