// 模型服务上的「对比设置」与课程的中文文本（英文见 server-lessons.en.ts）。
import type { serverLessonsEn } from "./server-lessons.en";

export const serverLessonsZh: Record<keyof typeof serverLessonsEn, string> = {
  "srv.compare.manual": "对比需要一个会写字的模型：内置模型或已连接的模型服务。手工表格只是查几个 Token 的分数。请把 logits 来源切换为内置模型或模型服务。",
  "srv.compare.stop": "停止对比",
  "srv.compare.running": "正在通过模型服务生成：已生成 {done} 个 Token，最多 {total} 个……",
  "srv.compare.done": "通过模型服务生成，每个 Token 一次请求。",
  "srv.compare.stopped": "已提前停止（停止对比）：各列显示到目前为止生成的 Token。",
  "srv.compare.changed": "已提前停止：提示词、设置或 logits 来源变了。请按新的设置重新运行。",
  "srv.compare.failed": "已停止：模型服务没有应答（见该列）。不再发送请求；服务恢复后请重新运行。",
  "srv.lesson.loading": "正在询问模型服务……",
  "srv.lesson.onServer": "正在通过模型服务（{model}）运行：本课中的每个 Token、每个数字都来自这个模型。",
  "srv.lesson.writtenFor": "本课的文字讲的是内置模型（或本章的手工表格），而页面现在用的是模型服务（{model}）：它的数字可能与文字不符。",
  "srv.lesson.rerun": "改用内置模型运行",
  "srv.lesson.offModel": "这一部分在内置模型上运行：它要展示的现象取决于这个模型自己的权重（真实模型可能答对，也就无从展示）。模型服务（{model}）仍然保持连接。",
  "srv.lesson.offManual": "这一部分用的是本章的手工表格，而不是模型。模型服务（{model}）仍然保持连接。",
  "srv.lesson.onServer.short": "模型服务：{model}",
  "srv.lesson.writtenFor.short": "文字讲的是内置模型",
  "srv.lesson.offModel.short": "内置模型 · 服务仍连接",
  "srv.lesson.offManual.short": "手工表格 · 服务仍连接",
  "srv.lesson.back": "回到模型服务",
  "srv.exp1.after1": "现在的上下文是「{context}」：一个新的分布，又从整个上下文重新算出。",
  "srv.exp1.wrap": "贪心解码从没有事先规划「{text}」：它只是每一步选概率最高的 Token，一次一个。",
  "srv.exp2.keep": "继续抽：「{token}」（{p}）是概率最高的第一个 Token，但不是每次都抽到它。",
  "srv.exp2.found": "抽到了「{token}」，而不是概率最高的「{top}」：这只是另一条路径。采样让几种合理的续写互相竞争。",
  "srv.myth3.wrap": "T = 2 时，「{token}」只剩 {p2} 的概率（T = 1 时 {p1}，T = 0.5 时 {p05}），其余的分给了别的 Token。模型在 T = 2 时并没有多知道什么：它的回答只是变得更不确定。页面已设为 T = 2：采样 1000 次数一数。",
  "srv.myth4.intro": "每一步都选概率最高的 Token，加起来并不等于最好的文本：贪心解码的文字常常平淡或重复。在这个模型上分别运行贪心和采样，看看各自怎么结尾。",
};
