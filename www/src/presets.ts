// Hand-made logit tables for "manual logits": the chapter's examples (zh) and English equivalents.
// They are data, not a model: each table gives the scores for the next token after a given last
// token, written so that greedy reads as a sensible sentence and sampling wanders plausibly.

/** One table: the scores for the next token when the last generated token is one of `after`. */
export interface LogitTable {
  /** Last-token texts this table follows; `null` = the first step, `"*"` = any other token. */
  after: readonly string[] | null | "*";
  rows: ReadonlyArray<readonly [token: string, logit: number]>;
}

export interface ManualPreset {
  id: string;
  lang: "zh" | "en";
  prompt: string;
  /** The end-of-sequence token's text; choosing it ends generation. */
  eos: string;
  tables: readonly LogitTable[];
}

export const EOS = "<eos>";

const t = (after: string | null | "*", rows: Array<readonly [string, number]>): LogitTable => ({
  after: after === null || after === "*" ? after : after.split("|"),
  rows,
});

export const PRESETS: readonly ManualPreset[] = [
  {
    id: "ts-zh",
    lang: "zh",
    prompt: "TypeScript 是 JavaScript 的",
    eos: EOS,
    tables: [
      t(null, [["超集", 3.0], ["一个", 2.2], ["类型", 1.3], ["扩展", 0.6], ["语法糖", 0.2], ["升级版", -0.1], ["。", -1.5], [EOS, -3]]),
      t("超集", [["，", 2.4], ["。", 1.6], ["：", 0.4], ["语言", 0.2], [EOS, -0.5]]),
      t("一个", [["超集", 1.8], ["带", 1.6], ["方言", 0.4], ["版本", 0.2], ["工具", -0.2]]),
      t("类型", [["系统", 2.0], ["检查", 1.5], ["注解", 0.8], ["化", 0.6], ["。", 0.2]]),
      t("扩展|语法糖|升级版", [["。", 1.8], ["，", 1.5], ["语言", 0.5]]),
      t("，", [["增加了", 2.0], ["它", 1.5], ["加入了", 1.4], ["为", 0.3], ["并且", 0.1]]),
      t("它|并且", [["增加了", 1.8], ["提供了", 1.2], ["支持", 1.0], ["是", 0.2]]),
      t("增加了|加入了|提供了|支持", [["静态", 2.2], ["类型", 1.8], ["可选的", 0.9], ["接口", 0.6], ["泛型", 0.5]]),
      t("静态|可选的|带", [["类型", 3.5], ["检查", 1.0], ["分析", 0.2]]),
      t("系统|检查|注解|接口|泛型|方言|版本|工具|化|分析|语言", [["。", 2.2], ["，", 1.0], ["和", 0.4], [EOS, 0.0]]),
      t("和", [["接口", 1.5], ["泛型", 1.3], ["类型", 1.0], ["静态", 0.5]]),
      t("是|为", [["一个", 2.0], ["超集", 1.5]]),
      t("。", [[EOS, 3.5], ["它", 0.8]]),
      t("*", [["。", 1.5], [EOS, 1.0], ["，", 0.2]]),
    ],
  },
  {
    id: "react-zh",
    lang: "zh",
    prompt: "React 是一个用于构建",
    eos: EOS,
    tables: [
      t(null, [["用户", 2.6], ["界面", 1.9], ["Web", 1.3], ["交互式", 0.9], ["单页", 0.6], ["组件", 0.4], ["前端", 0.2], ["移动", -0.4], [EOS, -3]]),
      t("用户", [["界面", 4.2], ["交互", 1.3], ["体验", 0.9], ["端", 0.2]]),
      t("界面", [["的", 2.2], ["。", 1.6], ["，", 1.0], [EOS, -1]]),
      t("交互|体验", [["的", 1.5], ["。", 1.5], ["界面", 1.2]]),
      t("Web|移动|单页|交互式|前端", [["应用", 2.5], ["界面", 1.8], ["程序", 0.9], ["页面", 0.8]]),
      t("组件", [["的", 1.5], ["化", 1.0], ["。", 1.0]]),
      t("应用|程序|页面|端", [["的", 2.0], ["。", 1.5], ["，", 0.8]]),
      t("的", [["库", 2.4], ["JavaScript", 2.0], ["前端", 1.0], ["开源", 0.8]]),
      t("JavaScript", [["库", 3.0], ["框架", 1.5]]),
      t("开源", [["库", 2.5], ["JavaScript", 1.2]]),
      t("库|框架|化", [["。", 2.4], ["，", 1.0], [EOS, 0.3]]),
      t("，", [["由", 1.6], ["它", 1.0], ["最初由", 0.8]]),
      t("由|最初由", [["Meta", 2.5], ["Facebook", 2.0]]),
      t("Meta|Facebook", [["开发", 2.5], ["维护", 1.5], ["推出", 0.8]]),
      t("开发|维护|推出", [["。", 2.5], ["，", 0.5]]),
      t("它", [["使用", 1.5], ["采用", 1.2]]),
      t("使用|采用", [["组件", 2.0], ["JSX", 1.5]]),
      t("。", [[EOS, 3.5], ["它", 0.6]]),
      t("*", [["。", 1.5], [EOS, 1.0], ["，", 0.3]]),
    ],
  },
  {
    id: "capital-zh",
    lang: "zh",
    prompt: "中国的首都是",
    eos: EOS,
    tables: [
      t(null, [["北京", 6.0], ["哪里", 1.6], ["哪个", 1.0], ["北平", 0.4], ["南京", 0.3], ["一座", 0.2], ["什么", 0.0], ["上海", -0.5], [EOS, -3]]),
      t("北京", [["。", 3.2], ["，", 2.0], ["市", 1.0], [EOS, 0.5]]),
      t("哪里|哪个|什么", [["？", 3.0], ["城市", 1.5]]),
      t("城市", [["？", 3.0], ["。", 1.0]]),
      t("北平|南京|上海", [["。", 2.0], ["？", 1.0], ["，", 0.8]]),
      t("一座", [["历史", 1.5], ["古老", 1.3], ["城市", 1.0]]),
      t("市|京|北部|平原|中心", [["。", 2.5], ["，", 0.8]]),
      t("，", [["也是", 1.6], ["简称", 1.5], ["位于", 1.0]]),
      t("简称", [["京", 3.5]]),
      t("也是", [["政治", 1.8], ["文化", 1.5], ["一座", 1.0]]),
      t("政治|文化", [["中心", 3.0], ["和", 1.0]]),
      t("和", [["文化", 2.0], ["政治", 1.0]]),
      t("位于", [["华北", 2.0], ["中国", 1.5]]),
      t("华北|中国", [["北部", 2.0], ["平原", 1.0]]),
      t("。|？", [[EOS, 4.0], ["它", 0.5]]),
      t("*", [["。", 1.5], [EOS, 1.0], ["，", 0.3]]),
    ],
  },
  {
    id: "plugin-zh",
    lang: "zh",
    prompt: "给一个代码编辑器插件起名：",
    eos: EOS,
    tables: [
      t(null, [["码", 1.2], ["Code", 1.1], ["智", 1.0], ["灵", 0.95], ["「", 0.9], ["极", 0.9], ["快", 0.85], ["Dev", 0.8], ["光", 0.75], ["妙", 0.7], ["Snip", 0.65], ["星", 0.6], ["Flow", 0.55], ["墨", 0.5], ["Lint", 0.45], [EOS, -2]]),
      t("「", [["码", 1.0], ["智", 1.0], ["灵", 0.9], ["墨", 0.8], ["光", 0.8], ["星", 0.7]]),
      t("码|智|灵|极|快|光|妙|星|墨", [["助手", 1.1], ["笔", 1.0], ["灵", 0.9], ["精灵", 0.8], ["速", 0.7], ["匠", 0.6], ["流", 0.6], ["影", 0.5], ["」", 0.3], ["。", 0.2]]),
      t("Code|Dev|Snip|Flow|Lint", [["Pilot", 1.1], ["Mate", 1.0], ["Buddy", 0.9], ["Genie", 0.7], ["Lens", 0.6], ["Helper", 0.5], ["。", 0.2]]),
      t("助手|笔|精灵|速|匠|流|影|Pilot|Mate|Buddy|Genie|Lens|Helper", [["。", 1.6], [EOS, 1.0], ["，", 0.8], ["」", 0.4]]),
      t("」", [["。", 1.5], [EOS, 1.2], ["，", 1.0]]),
      t("。", [[EOS, 3.0]]),
      t("*", [["。", 1.5], [EOS, 1.2]]),
    ],
  },
  {
    id: "ts-en",
    lang: "en",
    prompt: "TypeScript is a",
    eos: EOS,
    tables: [
      t(null, [[" superset", 3.0], [" typed", 2.2], [" programming", 1.3], [" language", 0.6], [" strict", 0.2], [" dialect", -0.1], [".", -1.5], [EOS, -3]]),
      t(" superset", [[" of", 4.0], [".", 0.5], [",", 0.2]]),
      t(" of| top", [[" JavaScript", 4.0], [" ECMAScript", 1.5], [" JS", 1.0]]),
      t(" JavaScript| ECMAScript| JS", [[" that", 2.2], [".", 2.0], [" with", 1.5], [",", 0.8]]),
      t(" that", [[" adds", 2.5], [" compiles", 2.0], [" brings", 1.0]]),
      t(" adds| brings| with", [[" static", 2.2], [" types", 1.6], [" optional", 1.4], [" interfaces", 0.5]]),
      t(" static| optional| strict", [[" types", 3.0], [" typing", 2.2], [" type", 1.0]]),
      t(" type", [[" checking", 3.0], [" annotations", 2.0]]),
      t(" compiles", [[" to", 4.0]]),
      t(" to", [[" plain", 2.0], [" JavaScript", 2.0]]),
      t(" plain", [[" JavaScript", 4.0]]),
      t(" typed", [[" superset", 2.0], [" language", 1.8], [" version", 1.2], [" extension", 0.5]]),
      t(" programming", [[" language", 4.0]]),
      t(" language| version| extension| dialect", [[" that", 1.6], [" built", 1.5], [".", 1.2], [" for", 0.8]]),
      t(" built", [[" on", 4.0]]),
      t(" on", [[" JavaScript", 3.0], [" top", 1.0]]),
      t(" types| typing| checking| annotations| interfaces| classes| generics", [[".", 2.5], [" and", 1.2], [",", 0.8]]),
      t(" and", [[" interfaces", 1.5], [" classes", 1.2], [" generics", 1.0]]),
      t(".", [[EOS, 3.5], [" It", 0.5]]),
      t("*", [[".", 1.5], [EOS, 1.0]]),
    ],
  },
  {
    id: "react-en",
    lang: "en",
    prompt: "React is a library for building",
    eos: EOS,
    tables: [
      t(null, [[" user", 2.6], [" interactive", 1.9], [" web", 1.4], [" UI", 1.1], [" single", 0.6], [" reusable", 0.4], [" modern", 0.2], [" mobile", -0.4], [EOS, -3]]),
      t(" user", [[" interfaces", 4.2], [" experiences", 1.5], [" interface", 1.0], ["-facing", 0.2]]),
      t(" interactive| modern", [[" user", 2.0], [" web", 1.6], [" UIs", 1.3], [" apps", 1.0]]),
      t(" web| mobile", [[" apps", 2.2], [" applications", 2.0], [" interfaces", 1.4], [" pages", 0.8]]),
      t(" UI", [[" components", 2.6], ["s", 1.5], [".", 0.5]]),
      t(" single", [["-page", 4.0]]),
      t("-page", [[" applications", 3.0], [" apps", 2.0]]),
      t(" reusable", [[" components", 3.5], [" UI", 1.0]]),
      t(" interfaces| experiences| interface| apps| applications| pages| components| UIs|s|-facing", [[".", 2.4], [" with", 1.5], [",", 1.0], [" in", 0.8], [EOS, -0.5]]),
      t(" with", [[" components", 2.0], [" JavaScript", 1.8], [" JSX", 1.2]]),
      t(" JavaScript| JSX| browser| Meta| Facebook", [[".", 2.5], [" and", 0.5]]),
      t(" in", [[" JavaScript", 2.5], [" the", 1.2]]),
      t(" the", [[" browser", 3.0]]),
      t(",", [[" maintained", 1.5], [" created", 1.2], [" built", 1.0]]),
      t(" maintained| created", [[" by", 4.0]]),
      t(" built", [[" with", 2.0], [" by", 1.5]]),
      t(" by", [[" Meta", 3.0], [" Facebook", 2.5]]),
      t(" and", [[" JSX", 1.0], [" components", 1.0]]),
      t(".", [[EOS, 3.5]]),
      t("*", [[".", 1.5], [EOS, 1.0]]),
    ],
  },
  {
    id: "capital-en",
    lang: "en",
    prompt: "The capital of China is",
    eos: EOS,
    tables: [
      t(null, [[" Beijing", 6.0], [" a", 1.2], [" located", 0.8], [" the", 0.6], [" Peking", 0.3], [" not", 0.1], [" Shanghai", -0.4], [EOS, -3]]),
      t(" Beijing", [[".", 3.2], [",", 2.0], [" City", 0.8], [EOS, 0.5]]),
      t(" City| China| city| largest| historic| large", [[".", 3.0], [",", 0.8]]),
      t(",", [[" which", 1.5], [" a", 1.3], [" also", 1.0]]),
      t(" which| also", [[" is", 3.0]]),
      t(" is", [[" a", 1.5], [" the", 1.2]]),
      t(" a| the", [[" city", 2.0], [" historic", 1.2], [" large", 1.0], [" largest", 0.8]]),
      t(" located", [[" in", 4.0]]),
      t(" in", [[" northern", 2.2], [" the", 2.0]]),
      t(" northern", [[" China", 3.0]]),
      t(" Shanghai| Peking| not", [[".", 1.5], ["?", 1.0], [",", 0.8]]),
      t(".|?", [[EOS, 4.0]]),
      t("*", [[".", 1.5], [EOS, 1.0]]),
    ],
  },
  {
    id: "plugin-en",
    lang: "en",
    prompt: "Name a code editor plugin:",
    eos: EOS,
    tables: [
      t(null, [[" Code", 1.2], [" Snip", 1.1], [" Lint", 1.0], [" Dev", 0.95], [" Quick", 0.9], [" Flow", 0.85], [" Spark", 0.8], [" Zen", 0.75], [" Pixel", 0.7], [" Auto", 0.65], [" Smart", 0.6], [" Nova", 0.55], [" Hyper", 0.5], [EOS, -2]]),
      t(" Code| Snip| Lint| Dev| Quick| Flow| Spark| Zen| Pixel| Auto| Smart| Nova| Hyper", [["Pilot", 1.1], ["Mate", 1.0], ["Buddy", 0.9], ["Genie", 0.7], ["Lens", 0.6], ["Smith", 0.55], ["Craft", 0.5], ["ify", 0.5], ["ly", 0.4], [".", 0.3]]),
      t("Pilot|Mate|Buddy|Genie|Lens|Smith|Craft|ify|ly", [[".", 1.6], [EOS, 1.2], ["!", 0.5]]),
      t(".|!", [[EOS, 3.0]]),
      t("*", [[".", 1.5], [EOS, 1.2]]),
    ],
  },
];

export function findPreset(id: string): ManualPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}
