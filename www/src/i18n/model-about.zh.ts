// 中文：页面上的内嵌模型说明，以及训练文本的许可要求的署名（English: model-about.en.ts）。
export const modelAboutZh = {
  "about.summary": "关于这个模型：规模、训练文本、许可",
  "about.size":
    "一个只有解码器的 Transformer，240 万个参数（7 层，上下文 128 个 Token，词表 8,000），由本项目在 2 个 CPU 核上训练。权重为 int8，2.5 MB，在你的浏览器里运行。",
  "about.data": "它从这些文本中学习（权重由它们改编而来）：",
  "about.react": "React 文档，简体中文与英文 —— CC BY 4.0，Meta Platforms, Inc. 及贡献者",
  "about.vue": "Vue 文档，简体中文 —— CC BY 4.0，尤雨溪（Evan You）及 Vue 文档贡献者",
  "about.ts": "TypeScript 使用手册（TypeScript Handbook 的中文翻译）—— MIT，© 2015 Shengping Zhong",
  "about.hf":
    "Hugging Face LLM 课程，简体中文与英文 —— Apache-2.0，© Hugging Face 及贡献者；从其 Markdown 提取并清理（删去了代码块、表格、图片和链接地址）",
  "about.lessons": "nexttoken 团队编写的课程文本与日常文本",
  "about.licence": "Apache License 2.0（全文）",
} as const;
