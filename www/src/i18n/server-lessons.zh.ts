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
};
