// 中文：模型服务来源（issue 12）：连接、状态，以及每种错误和修复它要运行的命令（英文版：server.en.ts）。
import type { serverEn } from "./server.en";

export const serverZh: Record<keyof typeof serverEn, string> = {
  "source.server": "模型服务（llama.cpp / vLLM / Ollama）",
  "server.address": "服务地址",
  "server.api": "接口",
  "server.api.auto": "自动识别",
  "server.api.llama": "llama.cpp（/completion）",
  "server.api.openai": "OpenAI 兼容（/v1/completions）",
  "server.topN": "每步候选数（词表超过 32,000 时）",
  "server.connect": "连接",
  "server.note": "页面只发送 Token 编号（不支持编号的服务则发送文本），请求下一个 Token 的概率；每个 Token 都由页面自己选择。只有点击「连接」后才会连接。",
  "server.notConnected": "未连接。请先启动服务，输入地址，再点击「连接」。",
  "server.linkWaiting": "这个链接使用 {url} 上的模型服务。点击「连接」即可使用；在那之前显示的是内置模型。",
  "server.connecting": "正在连接 {url}…",
  "server.connected": "已连接：{url} 上的 {server} · 模型 {model} · 词表 {vocab}",
  "server.lost": "{url} 上的服务不再应答。请重新启动它，然后点击「单步」。",
  /** Ends the status line's first sentence (zh: a full-width full stop). */
  "server.headEnd": "。",
  "server.vocabUnknown": "大小未知",
  "server.exact": "每一步都列出全部 Token：概率是精确的。",
  "server.topListed": "每一步列出最可能的 {n} 个 Token。",
  "server.noIds": "这个服务不提供 Token 编号：按文本匹配 Token，文本相同的 Token 会被合并。",
  "server.waiting": "正在等待服务… {seconds} 秒",
  "server.rest": "词表其余部分（服务未列出）：{p}",
  "server.rest.exact": "最终概率是精确的：截断已经去掉了服务未列出的所有 Token。",
  "server.rest.inexact": "最终概率只在列出的 Token 中归一化（不精确）：未列出的 Token 本来也可能被保留。",
  "server.noAnswer": "服务还没有对这个上下文给出应答。",
  "server.failed": "无法连接：{message}",
  "server.error.bad_address": "「{url}」不是服务地址。请输入类似 http://127.0.0.1:8080 的地址。",
  "server.error.blocked_by_page":
    "这个页面只能连接本机上的服务（127.0.0.1 或 localhost），所以连不到 {url}。请在本机运行服务，或者转发它的端口：ssh -N -L {port}:127.0.0.1:{port} 你的GPU服务器，然后连接 http://127.0.0.1:{port}。",
  "server.error.no_network":
    "这份页面（离线单文件 nexttoken.html）从不连接任何地方。要使用模型服务，请打开同一文件夹里的 nexttoken-server.html，或者从 http://127.0.0.1 打开的页面。",
  "server.error.private_network":
    "这个页面是从互联网上用普通 http 打开的（{origin}），浏览器不允许这样的页面访问你电脑或局域网里的服务。请用 https 打开页面（浏览器会请求你的许可），或者从 http://127.0.0.1 打开，或者使用下载的单文件版。",
  "server.error.refused":
    "{url} 上没有服务应答。请先启动服务，例如：llama-server -m model.gguf --port {port}（或者：ollama serve），并检查地址和端口。",
  "server.error.cors":
    "{url} 上的服务在运行，但它的 CORS 设置拒绝了这个页面（{origin}）。启动时请允许这个来源，例如 vLLM：--allowed-origins '[\"*\"]'。",
  "server.error.ollama_origin":
    "{url} 上的服务拒绝来自 {origin} 的页面（从文件打开的页面发送 Origin: null）。Ollama 默认如此：请设置 OLLAMA_ORIGINS 后重启它，例如：OLLAMA_ORIGINS='*' ollama serve",
  "server.error.unauthorized":
    "{url} 上的服务要求 API 密钥，而这个页面从不发送密钥。请在只有你能访问的机器上不带 --api-key 启动它。",
  "server.error.not_found":
    "{url} 有应答，但不是 llama.cpp 或 OpenAI 兼容的服务（{detail}）。请检查地址：应该以端口结尾，不带路径。",
  "server.error.too_old":
    "这个 {server} 服务不返回下一个 Token 的对数概率（{detail}）。请升级它，或者换用会返回对数概率的服务：llama.cpp 2025 年以后的版本、Ollama 0.12.11 或更高（ollama --version）、vLLM 0.6 或更高。",
  "server.error.http": "{url} 上的服务返回了 HTTP {status}：{detail}",
  "server.error.bad_response": "{url} 的应答格式这个页面不认识：{detail}。",
  "server.error.contradictory_mass":
    "{url} 的应答自相矛盾：{field} 里各 Token 的概率加起来是 {sum}，超过 1，词表其余部分的概率就成了 {rest}。页面不会据此走这一步；请检查服务端如何计算对数概率。",
  "server.error.contradictory_top":
    "{url} 的应答自相矛盾：{field} 里最可能的 Token 概率只有 {p}，小于 1/{vocab}；而 {vocab} 个或更少的 Token 里总有一个的概率不小于这个值。页面不会据此走这一步；请检查服务端如何计算对数概率。",
  "server.error.timeout": "{url} 没有及时应答。大模型在 CPU 上处理长提示词可能要一段时间：请重试，或者缩短提示词。",
  "server.error.loading":
    "{url} 上的服务还在加载模型，或者正忙（HTTP 503：{detail}）。请等它准备好（llama-server 会打印 “server is listening”），然后再点击「连接」。",
  "server.error.no_model":
    "{url} 上的服务有应答，但没有加载模型。请先加载一个（Ollama：ollama pull qwen2.5:0.5b；LM Studio：在 Developer 页加载模型），然后再点击「连接」。",
  "server.error.cut_off":
    "{url} 上的服务在应答完成之前关闭了连接：它停止或重启了。请重新启动它，然后点击「单步」（已生成的文本会保留）。",
  "server.error.too_large":
    "{url} 的应答超过 {detail}，比这个页面请求的任何应答都大，所以没有读取。请检查地址是不是模型服务，或者调低「每步候选数」。",
  "server.error.model_changed":
    "{url} 上的服务换了模型，不再是你连接时的那个（{detail}）：它的 Token 和页面上的对不上了。请点击「连接」重新连接，用新模型重新开始。",
  "server.error.mixed_content":
    "这个页面是用 https 打开的，浏览器不允许它访问不在本机上的普通 http 服务（{url}）。请在本机运行服务并连接 http://127.0.0.1:{port}（或者转发它的端口：ssh -N -L {port}:127.0.0.1:{port} 你的GPU服务器），或者用 https 提供模型服务。",
  "server.cancel": "取消",
  "server.cancelLabel": "取消对服务的请求",
  "server.stepFailed": "{url} 上的服务有应答，但它最近的应答无法使用：原因见页面顶部的消息。",
  "server.error.cancelled": "已取消：{url} 上的服务 {detail} 秒后还没有应答。点击「单步」重新请求，或者检查服务（CPU 上的大模型处理长提示词可能要几分钟）。",
  "server.fewerListed": "这一步只列出了最可能的 {n} 个 Token，比请求的整个词表少：其余部分见下方。",
  "server.error.logprobs_off":
    "{url} 上的服务拒绝返回对数概率（{detail}）。请在启动时允许它们，例如 vLLM：--max-logprobs 20（-1 表示不限），然后再点击「连接」。",
  "server.error.connect_timeout":
    "{url} 在 {detail} 秒内没有回答页面的第一个请求（GET /v1/models）。请检查这个地址上是否在运行模型服务、它是否已经启动完毕，然后再点击「连接」。",
};
