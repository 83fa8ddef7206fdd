// 中文：提示词提示、最少生成 Token 数、结束符、纯文本与 ␣ 图例（英文版：text.en.ts）。
import type { textEn } from "./text.en";

export const textZh: Record<keyof typeof textEn, string> = {
  "prompt.hint": "这个模型只会续写：请写一句话的开头。",
  "minnew.label": "最少生成 Token 数",
  "minnew.note": "生成的 Token 少于这个数时，结束符会被屏蔽（0 = 关闭）。",
  "stage.min_new_tokens.title": "最少生成 Token 数",
  "stage.min_new_tokens.explainHeld": "已生成 {done} 个，少于 {n} 个：结束符被去掉，文本还不能结束。",
  "stage.min_new_tokens.explainFree": "已生成 {done} 个，达到 {n} 个：结束符又可以被选中了。",
  "end.chip": "结束符",
  "end.title": "结束符（{token}）：模型选择在这里结束。",
  "text.plainLabel": "纯文本",
  "text.copy": "复制文本",
  "text.copied": "已复制。",
  "text.legend": "␣ 表示 Token 开头的空格，↵ 表示换行（只出现在方块和图表里）；<E4> 这样的方块是字节 Token，是一个字的一部分，凑齐后显示成字；「结束符」是表示文本结束的 Token。",
};
