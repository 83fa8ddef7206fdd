// English text for the classroom fixes of issue 11 (points 3, 4, 7): the self-test key, the lesson's
// own sliders, glosses of the Chinese prompts, the custom preset, greedy's dimmed sliders, the embed
// settings drawer and reset's undo (merged into en.ts; the zh twin is classroom.zh.ts).
export const classroomEn = {
  "help.word": "Shortcuts ",
  "help.key": "(?)",
  "help.quiz": "Open the self-test",
  "lesson.own.group": "This lesson's settings",
  "lesson.own.temperature": "Lesson temperature",
  "lesson.own.topP": "Lesson top-p",
  "lesson.exp3.settings": "At T = {t}, top-p = {p}",
  "lesson.exp3.greedy": "Greedy (or T = 0): the model takes its most likely token, top-p does not run, so each prompt keeps 1. Choose sampling with a temperature above 0 to compare them.",
  "preset.custom": "custom",
  "greedy.dimmed": "Greedy takes the top token: temperature, top-k, top-p and min-p are skipped (as Hugging Face skips its warpers).",
  "inspector.pRaw": "softmax {p}",
  "embed.settings": "Settings",
  "embed.settingsName": "Show or hide the settings",
  "reset.undo": "Undo reset",
  "reset.undoName": "Undo the reset: bring the tokens and paths back",
} as const;

/** English glosses of the Chinese prompts and tokens the lessons use (shown in the English interface). */
export const GLOSSES: Readonly<Record<string, string>> = {
  "中国的首都是": "The capital of China is",
  "德国的首都是": "The capital of Germany is",
  "英国的首都是": "The capital of the UK is",
  "React 是一个用于构建": "React is a … for building",
  "给一个代码编辑器插件起名：": "Name a code-editor plugin:",
  "TypeScript 是 JavaScript 的": "TypeScript is JavaScript's",
  "状态": "state",
  "北京": "Beijing",
  "柏林": "Berlin",
  "巴黎": "Paris",
  "伦敦": "London",
  // 误解六's column heads: the first tokens of 巴黎 and 伦敦 (its intro says so)
  "巴": "Paris",
  "伦": "London",
  "用户": "user",
  "界面": "interface",
  "超集": "superset",
  // the other candidates experiment 1 offers to predict, and the chapter's table of 误解二
  "的": "’s/of",
  "工具": "tool",
  "一个": "a",
  "类型": "type",
  "扩展": "extension",
  "语法糖": "syntactic sugar",
  "升级版": "upgrade",
  // the second edition's other candidates to predict in experiment 1 (after 「React 是一个用于构建」;
  // after 用户, 界面 takes 0.998 and the rest are left as they are, so the lesson fits projector mode)
  "移动": "mobile",
  "跨": "cross-",
  "应用": "app",
  // 实验三's and 误解三's other candidates, and 误解二's table (a learner met them unglossed)
  "中国": "China",
  "哪": "which",
  "基础": "basis",
  "一种": "a kind of",
};
