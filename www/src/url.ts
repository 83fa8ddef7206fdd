// The URL holds the whole state (scenario + page modes) so a link reproduces exactly what its author
// saw. Reading is field by field: a malformed or hostile field falls back to its default and is
// reported (field, value, rule) for a visible notice; nothing read here ever becomes markup.
import type { Lang } from "./i18n/index";
import type { Scenario, ScenarioBranch, ScenarioTable, ScenarioToken, PageModes } from "./scenario";
import { PARAM_LIMITS } from "./state";
import type { NumericParam, Params, SourceKind } from "./state";
import type { Engine } from "./core";
import { formatSettings, parseSettings } from "./step-settings";
import { MAX_HEIGHT, MIN_HEIGHT } from "./element-attributes";
import { addedOnTheWay, arrivedEntries, arrivedQuery, fragmentFlags } from "./url-arrival";
import type { ScenarioSettings } from "./step-settings";

/**
 * The link format this page writes (`v=3`): 2 added `set`, the settings of steps made under other
 * settings than the link's last ones; 3 added `end=1` as the last field, so a link cut off on the way
 * is known to be (and its cut field named). A link without `v` (written before) holds one set of
 * settings for every step and opens as it always did.
 */
export const LINK_VERSION = 3;
/** The first link version that ends with `end`. */
const ENDS_AFTER = 3;

/**
 * Longest prompt a link may carry, in characters: far above what the model reads (127 tokens, which
 * its own message names); only what a server with a longer context could read needs more.
 */
export const MAX_PROMPT_CHARS = 2000;
/** Most tokens a link may replay over all its paths. */
export const MAX_LINK_TOKENS = 4096;
export const MAX_BRANCHES = 64;
/** Limits of one edited table in a link: rows, token length, |logit|. */
export const MAX_TABLE_ROWS = 64;
export const MAX_TOKEN_CHARS = 32;
export const MAX_TABLES = 32;
export const MAX_LOGIT = 1000;
/** Longest query a link may have: far above anything the page writes (tables, 4096 tokens, prompt). */
export const MAX_LINK_CHARS = 1 << 20;
/** Problems named one by one in the notice; the rest are counted in one line. */
export const MAX_LISTED_PROBLEMS = 20;
const ENGINES: readonly Engine[] = ["hf", "llama.cpp", "vllm"];

/** Why one field of the link was ignored. `rule` is a message key's variables, filled by the view. */
export interface UrlProblem {
  field: string;
  value: string;
  rule: UrlRule;
}
export type UrlRule =
  | { kind: "range"; min: number; max: number; integer: boolean }
  | { kind: "oneOf"; options: readonly string[] }
  | { kind: "tooLong"; max: number }
  /** A prompt longer than a link may carry: its first `max` characters were used (the model reads far fewer). */
  | { kind: "promptCut"; max: number }
  | { kind: "tokens" }
  /** A path or branch whose first `kept` tokens were read and used, the rest not (a link cut short). */
  | { kind: "tokensCut"; kept: number }
  /** A field given more than once: `value` holds the earlier ones, `used` the last, which was read. */
  | { kind: "repeated"; used: string }
  /** Free text (a prompt, a stop, a table) whose escapes were bytes that are not UTF-8: each run became U+FFFD. */
  | { kind: "notText" }
  | { kind: "table" }
  /** A `set` field: path_from_key:value,… (the keys a step reads, each in its range). */
  | { kind: "settings" }
  | { kind: "unknown" }
  /** The field the link was cut off in (it said it ends with `end`, and did not). */
  | { kind: "cut"; kept: number | null }
  /** Not one field: the whole link was over MAX_LINK_CHARS and nothing of it was used. */
  | { kind: "linkTooLong"; max: number }
  /** Not one field: `count` more problems beyond MAX_LISTED_PROBLEMS. */
  | { kind: "more"; count: number };

/** What a link asked for: every field present and valid, or undefined. */
export interface UrlRequest {
  lang?: Lang;
  source?: SourceKind;
  presetId?: string;
  prompt?: string;
  params: Partial<Params>;
  path?: ScenarioToken[];
  branches?: ScenarioBranch[];
  current?: number;
  stopped?: boolean;
  viewing?: number;
  tables?: ScenarioTable[];
  /** Steps made under other settings than `params` (`set=`, link version 2). */
  settings?: ScenarioSettings[];
  lesson?: string;
  projector: boolean;
  embed: boolean;
  /** `source=server`: the server's address and API (`server=…&api=…`); the page waits for Connect. */
  server?: string;
  api?: "llama.cpp" | "openai";
}

/** The keys this page writes and reads; anything else in a link is reported as unknown. */
const KNOWN: ReadonlySet<string> = new Set([
  "lang", "source", "preset", "prompt", "strategy", "engine", "stop",
  "path", "branch", "at", "stopped", "step", "table", "lesson", "projector", "embed", "server", "api", "v", "set", "end", "height",
  ...(Object.keys(PARAM_LIMITS) as NumericParam[]),
]);

/** Fields a link may repeat; of any other field given twice, the last is read (and the rest named). */
const LISTS: ReadonlySet<string> = new Set(["stop", "branch", "table", "set"]);

/** Reads `?a=b…` (or the same after `#`, and `#embed`) field by field. `known` validates preset ids and lists the lessons'. */
export function readUrl(
  search: string,
  hash: string,
  known: { preset(id: string): boolean; lessons: readonly string[]; lessonNamed(name: string): string | undefined },
): { request: UrlRequest; problems: UrlProblem[] } {
  const request: UrlRequest = { params: {}, projector: false, embed: false };
  if (search.length + hash.length > MAX_LINK_CHARS) {
    return { request, problems: [{ field: "", value: "", rule: { kind: "linkTooLong", max: MAX_LINK_CHARS } }] };
  }
  // one pass over the query (URLSearchParams.get scans every entry: per key, that is quadratic)
  const fields = new Map<string, string[]>();
  const { entries, cut, notText } = arrivedEntries(arrivedQuery(search, hash), KNOWN, ENDS_AFTER);
  for (const [key, value] of entries) {
    const values = fields.get(key);
    if (values === undefined) fields.set(key, [value]);
    else values.push(value);
  }
  const query = {
    // a field given twice: the last one, as a teacher appending `&lang=zh` to a link means
    get: (field: string): string | null => fields.get(field)?.at(-1) ?? null,
    getAll: (field: string): string[] => fields.get(field) ?? [],
  };
  const problems: UrlProblem[] = [];
  let unlisted = 0;
  const bad = (field: string, value: string, rule: UrlRule): void => {
    if (problems.length >= MAX_LISTED_PROBLEMS) unlisted++;
    else problems.push({ field: clip(field), value: clip(value), rule });
  };
  const oneOf = <T extends string>(field: string, options: readonly T[]): T | undefined => {
    const value = query.get(field);
    if (value === null) return undefined;
    // `lang=EN`, `strategy=Greedy`: the options are lower case and none differ by case alone
    const option = options.find((o) => o === value.toLowerCase());
    if (option !== undefined) return option;
    bad(field, value, { kind: "oneOf", options });
    return undefined;
  };
  // a bare flag (`?embed`, as `#embed` is written) is on, and an HTML author's true / false are 1 / 0:
  // `?embed` opened the full page with a notice that "" is not one of 0, 1
  const flag = (field: string): boolean => {
    const value = query.get(field)?.trim().toLowerCase();
    if (value === "" || value === "true") return true;
    if (value === "false") return false;
    return oneOf(field, ["0", "1"]) === "1";
  };
  // first in the notice: it explains whatever else is missing
  if (cut !== undefined) bad(cut.key, cut.value, { kind: "cut", kept: cut.kept });

  // a language tag as HTML authors write it (`zh-CN`, `en-US`, `zh-Hans`) names its language
  const tag = query.get("lang");
  const primary = tag?.split(/[-_]/)[0]?.toLowerCase();
  request.lang = primary === "zh" || primary === "en" ? primary : oneOf("lang", ["zh", "en"]);
  request.source = oneOf("source", ["model", "manual", "server"]);
  const server = query.get("server");
  if (server !== null) {
    // an http(s) address only; it is shown in the Server address field and used on Connect
    if (server.length <= 200 && /^https?:\/\/[^\s/?#@]+\/?$/i.test(server)) request.server = server.replace(/\/$/, "");
    else bad("server", server, { kind: "oneOf", options: ["http://127.0.0.1:8080"] });
  }
  request.api = oneOf("api", ["llama.cpp", "openai"]);
  const preset = query.get("preset");
  if (preset !== null) {
    if (known.preset(preset)) request.presetId = preset;
    else bad("preset", preset, { kind: "unknown" });
  }
  const prompt = query.get("prompt");
  if (prompt !== null) {
    if (prompt.length <= MAX_PROMPT_CHARS) request.prompt = prompt;
    else {
      // its start, not the preset's prompt: the model then names its own limit (in tokens), and a
      // path the link carries is not replayed over another text (nor lost: main.ts holds the address)
      request.prompt = prompt.slice(0, MAX_PROMPT_CHARS).replace(/[\uD800-\uDBFF]$/, "");
      bad("prompt", prompt, { kind: "promptCut", max: MAX_PROMPT_CHARS });
    }
  }
  const strategy = oneOf("strategy", ["sample", "greedy"]);
  if (strategy !== undefined) request.params.strategy = strategy;
  const engine = oneOf("engine", ENGINES);
  if (engine !== undefined) request.params.engine = engine;
  for (const [key, limit] of Object.entries(PARAM_LIMITS) as Array<[NumericParam, (typeof PARAM_LIMITS)[NumericParam]]>) {
    const value = query.get(key);
    if (value === null) continue;
    const n = value.trim() === "" ? Number.NaN : Number(value);
    if (Number.isFinite(n) && n >= limit.min && n <= limit.max && (!limit.integer || Number.isInteger(n))) {
      request.params[key] = n;
    } else {
      bad(key, value, { kind: "range", ...limit });
    }
  }
  const stops = query.getAll("stop");
  if (stops.length > 0) {
    if (stops.length <= 8 && stops.every((s) => s.length > 0 && s.length <= 64)) request.params.stop = stops;
    else bad("stop", stops.join(" "), { kind: "tooLong", max: 64 });
  }

  let budget = MAX_LINK_TOKENS;
  const path = query.get("path");
  if (path !== null) {
    const read = parseTokens(path, budget);
    if (read === null || (!read.complete && read.tokens.length === 0)) bad("path", path, { kind: "tokens" });
    else {
      // a link cut short (or a typo) keeps the tokens before the first one it could not read
      if (!read.complete) bad("path", path, { kind: "tokensCut", kept: read.tokens.length });
      request.path = read.tokens;
      budget -= read.tokens.length;
    }
  }
  const branches: ScenarioBranch[] = [];
  for (const text of query.getAll("branch")) {
    const match = /^(\d{1,4})_(\d{1,4})_(.*)$/.exec(text);
    const read = match === null ? null : parseTokens(match[3] ?? "", budget);
    if (match === null || read === null || branches.length >= MAX_BRANCHES || (!read.complete && read.tokens.length === 0)) {
      bad("branch", text, { kind: "tokens" });
      break; // later paths may hang off this one: stop here
    }
    branches.push({ parent: Number(match[1]), forkAt: Number(match[2]), tokens: read.tokens });
    budget -= read.tokens.length;
    if (!read.complete) {
      bad("branch", text, { kind: "tokensCut", kept: read.tokens.length });
      break; // the rest of this path is lost, so are paths that may hang off it
    }
  }
  if (branches.length > 0) request.branches = branches;
  const at = query.get("at");
  if (at !== null) {
    const n = Number(at);
    if (/^\d{1,4}$/.test(at) && n <= branches.length) request.current = n;
    else bad("at", at, { kind: "range", min: 0, max: branches.length, integer: true });
  } else if (branches.length > 0) {
    // every page that wrote links before `at` was always written (v=2) left it out only for the
    // first path: a link with branches and no `at` was made with the first path on screen
    request.current = 0;
  }
  request.stopped = flag("stopped");
  const step = query.get("step");
  if (step !== null) {
    if (/^\d{1,5}$/.test(step) && Number(step) >= 1) request.viewing = Number(step) - 1;
    else bad("step", step, { kind: "range", min: 1, max: MAX_LINK_TOKENS, integer: true });
  }
  const tables: ScenarioTable[] = [];
  for (const text of query.getAll("table")) {
    const table = tables.length >= MAX_TABLES ? null : parseTable(text);
    // one edit per table: a second one for the same table is as malformed as an empty one
    if (table === null || tables.some((other) => other.index === table.index)) bad("table", text, { kind: "table" });
    else tables.push(table);
  }
  if (tables.length > 0) request.tables = tables;
  oneOf("v", ["1", "2", String(LINK_VERSION)]);
  oneOf("end", ["1"]);
  const settings: ScenarioSettings[] = [];
  const places = new Set<string>();
  for (const text of query.getAll("set")) {
    const run = settings.length >= MAX_LINK_TOKENS ? null : parseSettings(text);
    // one run per path and token: a second one for the same place is as malformed as a bad value
    const place = run === null ? "" : `${run.path}_${run.from}`;
    if (run === null || places.has(place)) bad("set", text, { kind: "settings" });
    else {
      places.add(place);
      settings.push(run);
    }
  }
  if (settings.length > 0) request.settings = settings;
  // (a lesson's name as its button says it, `lesson=实验二`, is that lesson; a wrong one is named with
  // the ids there are; `MYTH3` is myth3, as `strategy=Greedy` is greedy)
  const named = query.get("lesson");
  const lesson = (named === null ? undefined : known.lessonNamed(named)) ?? oneOf("lesson", known.lessons);
  if (lesson !== undefined) request.lesson = lesson;
  // only <nexttoken-playground> writes `height`, and only one it could not use (element-attributes.ts)
  const height = query.get("height");
  if (height !== null) bad("height", height, { kind: "range", min: MIN_HEIGHT, max: MAX_HEIGHT, integer: false });
  request.projector = flag("projector");
  request.embed = flag("embed") || fragmentFlags(hash).includes("embed");
  // used as it arrived (the page cannot guess the characters meant), and said so
  for (const key of notText) bad(key, fields.get(key)?.find((value) => value.includes("\uFFFD")) ?? "", { kind: "notText" });
  for (const [key, values] of fields) {
    const used = values.at(-1) ?? "";
    if (KNOWN.has(key) && !LISTS.has(key) && values.length > 1) bad(key, values.slice(0, -1).join(" "), { kind: "repeated", used: clip(used) });
  }
  // unknown keys last, so a flood of them cannot push the known fields' problems out of the list
  for (const [key, values] of fields) if (!KNOWN.has(key) && !addedOnTheWay(key)) bad(key, values[0] ?? "", { kind: "unknown" });
  if (unlisted > 0) problems.push({ field: "", value: "", rule: { kind: "more", count: unlisted } });
  return { request, problems };
}

/** At most 40 characters (whole code points) of a field or value, for the notice. */
function clip(text: string): string {
  if (text.length <= 40) return text;
  let out = "";
  let count = 0;
  for (const char of text) {
    if (count++ === 40) return `${out}…`;
    out += char;
  }
  return out;
}

/**
 * `12.34f.56` → tokens (`f` = forced), up to the first part that is not one (`complete` false: a
 * link cut off at `12.34f.` or `12.3x`); null if over `budget` tokens.
 */
function parseTokens(text: string, budget: number): { tokens: ScenarioToken[]; complete: boolean } | null {
  if (text === "") return { tokens: [], complete: true };
  const parts = text.split(".");
  if (parts.length > budget) return null;
  const tokens: ScenarioToken[] = [];
  for (const part of parts) {
    const match = /^(\d{1,7})(f?)$/.exec(part);
    if (match === null) return { tokens, complete: false };
    tokens.push({ token: Number(match[1]), forced: match[2] === "f" });
  }
  return { tokens, complete: true };
}

/**
 * `3:[["超集",3],["一个",2.2]]` → table 3's rows; null unless there are 1 to MAX_TABLE_ROWS rows, each a
 * short token and a finite logit, no token twice (the page's table editor never writes those).
 */
function parseTable(text: string): ScenarioTable | null {
  const match = /^(\d{1,3}):(.*)$/s.exec(text);
  if (match === null) return null;
  let rows: unknown;
  try {
    rows = JSON.parse(match[2] ?? "");
  } catch {
    return null;
  }
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > MAX_TABLE_ROWS) return null;
  const out: ScenarioTable["rows"] = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 2) return null;
    const [token, logit] = row as unknown[];
    if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS) return null;
    if (typeof logit !== "number" || !Number.isFinite(logit) || Math.abs(logit) > MAX_LOGIT) return null;
    if (out.some((other) => other.token === token)) return null;
    out.push({ token, logit });
  }
  return { index: Number(match[1]), rows: out };
}

function formatTokens(tokens: readonly ScenarioToken[]): string {
  return tokens.map((t) => `${t.token}${t.forced ? "f" : ""}`).join(".");
}

/** The query string for a scenario and the page's modes (every parameter written out explicitly). */
export function scenarioQuery(scenario: Scenario, modes: PageModes): URLSearchParams {
  const query = new URLSearchParams();
  query.set("v", String(LINK_VERSION));
  query.set("lang", modes.lang);
  query.set("source", scenario.source);
  query.set("preset", scenario.presetId);
  query.set("prompt", scenario.prompt);
  const p = scenario.params;
  query.set("strategy", p.strategy);
  query.set("engine", p.engine);
  for (const key of Object.keys(PARAM_LIMITS) as NumericParam[]) query.set(key, String(p[key]));
  for (const s of p.stop) query.append("stop", s);
  for (const table of scenario.tables) query.append("table", `${table.index}:${JSON.stringify(table.rows.map((r) => [r.token, r.logit]))}`);
  if (scenario.path.length > 0) query.set("path", formatTokens(scenario.path));
  for (const b of scenario.branches) query.append("branch", `${b.parent}_${b.forkAt}_${formatTokens(b.tokens)}`);
  for (const run of scenario.settings ?? []) query.append("set", formatSettings(run));
  // written whenever there are paths to choose from: a link without `at` opens on the last path
  if (scenario.current !== 0 || scenario.branches.length > 0) query.set("at", String(scenario.current));
  if (scenario.stopped) query.set("stopped", "1");
  if (scenario.viewing !== null) query.set("step", String(scenario.viewing + 1));
  if (modes.lesson !== null) query.set("lesson", modes.lesson);
  if (modes.projector) query.set("projector", "1");
  if (modes.embed) query.set("embed", "1");
  if (scenario.source === "server" && modes.server) {
    query.set("server", modes.server.url);
    if (modes.server.api !== null) query.set("api", modes.server.api);
  }
  query.set("end", "1");
  return query;
}

/** The browser's preference: Chinese if its first language is Chinese. */
export function browserLang(): Lang {
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}
