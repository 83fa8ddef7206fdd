// Scenarios in and out of the playground: `applyScenario` is the one place a whole state is enacted
// (links, lessons, the element and Undo reset all go through it: tokens are replayed through the
// core, never restored from stored traces), `snapshot` is the state as a scenario (what a link
// records). A long model link replays the path on screen first and the others in the background.
import { coreMessage, t } from "../i18n/index";
import { findPreset } from "../presets";
import { PathLogits } from "../path-logits";
import { Backfill, PathFiller } from "../replay";
import type { Scenario, ScenarioRequest, ScenarioToken } from "../scenario";
import { entryParams, pathSettings, sameSettings, settingsAt } from "../step-settings";
import type { ScenarioSettings, StepParams } from "../step-settings";
import { ManualSource } from "../sources/manual";
import { generatedStop } from "../sources/model";
import { DEFAULT_PARAMS } from "../state";
import type { Params, PathEntry } from "../state";
import type { Generator } from "../core";
import { clearPaths, fork, rewindTo, switchBranch } from "./paths";
import type { Playground } from "./playground";

/** Something the page could not do, worded when shown (so it follows the language toggle). */
export type Problem = () => string;

/** `applyScenario` for views: its problems in the current language. */
export async function apply(pg: Playground, wanted: ScenarioRequest): Promise<string[]> {
  const problems: Problem[] = [];
  await applyScenario(pg, wanted, problems);
  return problems.map((say) => say());
}

/** A token of a scenario as an id of the current source, if it is one. */
export function resolveToken(pg: Playground, token: number | string): number | undefined {
  if (typeof token === "string") return pg.source.idOf(token);
  return Number.isInteger(token) && token >= 0 && token < pg.source.vocabSize ? token : undefined;
}

/**
 * Append `tokens` to the path on screen, each with one step of the core under the settings it was
 * made under (`settings(i)` over the link's; same seed and draw, so the same trace as then): a token
 * the core chooses there is recorded as chosen; a forced one, or one the core would not choose, as
 * forced. Stops at the first token that cannot be appended and says why. Nothing is drawn and no preview is computed meanwhile;
 * an async source is waited for before each token.
 */
async function replay(pg: Playground, tokens: readonly ScenarioToken[], problems: Problem[], where: () => string, settings: (i: number) => StepParams = () => ({})): Promise<boolean> {
  const epoch = pg.epoch;
  // each token under the settings it was made under; the link's own ones again afterwards
  const linkParams = pg.state.params;
  try {
    const settle = (i: number): void => {
      pg.state.params = { ...linkParams, ...settings(i) };
    };
    return await replayUnder(pg, tokens, problems, where, settle, (i) => i > 0 && !sameSettings(settings(i), settings(i - 1)), epoch);
  } finally {
    if (pg.epoch === epoch) pg.state.params = linkParams;
  }
}

/**
 * `replay`'s loop: `settle(i)` sets token i's settings, `changed(i)` says they differ from token
 * i − 1's.
 */
async function replayUnder(pg: Playground, tokens: readonly ScenarioToken[], problems: Problem[], where: () => string, settle: (i: number) => void, changed: (i: number) => boolean, epoch: number): Promise<boolean> {
  // the embedded model runs over every token at once (one batched forward pass), and the core at
  // each position under the config the steps below will have; each step then reads what that run
  // gave for its position (its logits, the core's choice and the token's record; the full trace
  // when something reads it). Where the settings change, the tokens left run again under the new
  // ones (the model's pass over the tokens already run is undone exactly, by rewinding)
  settle(0);
  if (!pg.finished()) pg.source.prefill?.(knownPrefix(pg, tokens), pg.config());
  for (const [i, token] of tokens.entries()) {
    const id = resolveToken(pg, token.token);
    const at = (): string => `${where()} ${t("url.token", { n: i + 1 })}`;
    if (id === undefined) {
      problems.push(() => t("url.badToken", { at: at(), token: String(token.token) }));
      return false;
    }
    if (pg.finished()) {
      problems.push(() => t("url.pastStop", { at: at() }));
      return false;
    }
    if (pg.source.capabilities.async && pg.source.nextLogits() === null) {
      try {
        await pg.source.loadNextLogits();
      } catch {
        // said below, as any step the source could not give
      }
      // a later action (a new prompt, another scenario) came first: it wins, nothing is said
      if (pg.epoch !== epoch) return false;
    }
    settle(i);
    if (changed(i) && !pg.finished()) pg.source.prefill?.(knownPrefix(pg, tokens.slice(i)), pg.config());
    const next = pg.stepWith(id);
    if (typeof next === "string" || !pg.appendStep(id, next, token.forced || next.token !== id)) {
      if (typeof next === "string") pg.fail(next);
      problems.push(() => t("url.badToken", { at: at(), token: String(token.token) }));
      return false;
    }
  }
  return true;
}

/** The ids of `tokens` up to the first that is not a token of the source. */
function knownPrefix(pg: Playground, tokens: readonly ScenarioToken[]): number[] {
  const ids: number[] = [];
  for (const token of tokens) {
    const id = resolveToken(pg, token.token);
    if (id === undefined) break;
    ids.push(id);
  }
  return ids;
}

/**
 * Token i of path `index` of a scenario (counted from the path's first generated token) → the
 * settings it was made under beyond the scenario's own, as a whole replay sets them: a branch's
 * tokens before its fork are its parent's (made there), the rest its own `set=` runs.
 */
function pathStepSettings(wanted: ScenarioRequest, index: number): (i: number) => StepParams {
  const own = settingsAt(wanted.settings, index);
  const branch = index === 0 ? undefined : wanted.branches?.[index - 1];
  if (branch === undefined || branch.parent >= index) return own;
  const parent = pathStepSettings(wanted, branch.parent);
  return (i) => (i < branch.forkAt ? parent(i) : own(i));
}

/** Links with more tokens than this replay the path on screen first and the others in the background. */
const EAGER_TOKENS = 256;

/** Every path of a scenario as its whole token list (ids of the source), or null if one does not fit. */
function pathTokens(pg: Playground, wanted: ScenarioRequest): ScenarioToken[][] | null {
  const paths: ScenarioToken[][] = [wanted.path ?? []];
  for (const branch of wanted.branches ?? []) {
    const parent = paths[branch.parent];
    const first = branch.tokens[0];
    if (parent === undefined || first === undefined || branch.forkAt >= parent.length) return null;
    paths.push([...parent.slice(0, branch.forkAt), { ...first, forced: true }, ...branch.tokens.slice(1)]);
  }
  const resolved: ScenarioToken[][] = [];
  for (const path of paths) {
    const ids: ScenarioToken[] = [];
    for (const token of path) {
      const id = resolveToken(pg, token.token);
      if (id === undefined) return null;
      ids.push({ token: id, forced: token.forced });
    }
    resolved.push(ids);
  }
  return resolved;
}

/**
 * A long model link whose paths fit its settings (no end-of-sequence inside a path, none longer than
 * max new tokens): replay only the path on screen now, and the other paths on a Generator of their
 * own after the page is ready. False, with nothing changed, for any other link (replayed whole).
 * Only a hand-made link can still stop inside a path that waits (a stop sequence): it is cut there
 * and said so in the notice, as a link replayed whole would.
 */
async function replayShownPath(pg: Playground, wanted: ScenarioRequest, problems: Problem[]): Promise<boolean> {
  const { state, source } = pg;
  if (source !== pg.model || pg.model === null) return false;
  const paths = pathTokens(pg, wanted);
  const shown = wanted.current ?? (wanted.branches?.length ?? 0);
  const count = (wanted.path?.length ?? 0) + (wanted.branches ?? []).reduce((sum, b) => sum + b.tokens.length, 0);
  const tokens = paths?.[shown];
  if (paths === null || tokens === undefined || count <= EAGER_TOKENS) return false;
  const eos = (token: ScenarioToken): boolean => source.isEos(token.token as number);
  if (paths.some((path) => path.length > state.params.max_new_tokens || path.slice(0, -1).some(eos))) return false;
  const here: Problem[] = [];
  const epoch = pg.epoch;
  // each token under the settings it was made under (a link's `set=` runs), as a whole replay sets them
  const replayed = await replay(pg, tokens, here, () => t("url.path", { n: shown + 1 }), pathStepSettings(wanted, shown));
  if (pg.epoch !== epoch) return true; // superseded: nothing more to do
  if (!replayed) {
    // something this check did not foresee: start again and replay the link whole
    clearPaths(pg);
    rewindTo(pg, 0);
    return false;
  }
  problems.push(...here);
  const entries = state.path;
  state.branches = paths.map((path, i) => {
    const branch = i === 0 ? null : (wanted.branches ?? [])[i - 1];
    return { ids: path.map((token) => token.token as number), entries: i === shown ? [...entries] : [], parent: branch?.parent ?? null, forkAt: branch?.forkAt ?? 0 };
  });
  state.currentBranch = shown;
  pg.branchStops.clear();
  pg.branchStops.set(shown, state.stopReason);
  const rest = new Map(paths.map((path, i): [number, ScenarioToken[]] => [i, path]).filter(([i]) => i !== shown));
  pg.backfill = startBackfill(pg, rest, state.prompt, { ...state.params, stop: [...state.params.stop] }, (index) => pathStepSettings(wanted, index));
  return true;
}

/** The Generator backfills run on (made on first use, kept for the page's life). */
let backfillGen: Generator | null = null;
/** The Generator a rebuilt path's logits are made again on when read (path-logits.ts; made on first use). */
let logitsGen: Generator | null = null;

/**
 * Rebuild `waiting` paths in the background, each token under the link's `params` with its path's
 * `settingsOf` over them; each path joins the page when it is in.
 */
function startBackfill(pg: Playground, waiting: Map<number, ScenarioToken[]>, prompt: string, params: Params, settingsOf: (index: number) => (i: number) => StepParams): Backfill | null {
  const spawn = pg.model;
  if (spawn === null) return null;
  const logits = new PathLogits(() => (logitsGen ??= spawn.spawnGenerator()), prompt);
  const makeFiller = (): PathFiller => {
    backfillGen ??= spawn.spawnGenerator();
    if (backfillGen === null) throw new Error("the model cannot be loaded twice");
    return new PathFiller(backfillGen, prompt, params, logits);
  };
  const run = new Backfill(makeFiller, waiting, {
    onFilled(index, filled, given) {
      const branch = pg.state.branches[index];
      if (branch === undefined) return;
      branch.entries = filled.entries;
      branch.ids = filled.entries.map((e) => e.id);
      pg.branchStops.set(index, filled.last === null ? null : pg.stopOf(generatedStop(filled.last)));
      if (filled.error !== null) {
        // a link the page did not write (a stop, or a token refused, inside a path): said as `replay` says it
        const token = String(given[filled.entries.length]?.token ?? "");
        const at = (): string => `${t("url.path", { n: index + 1 })} ${t("url.token", { n: filled.entries.length + 1 })}`;
        pg.linkProblems.push(filled.last?.stop != null ? () => t("url.pastStop", { at: at() }) : () => t("url.badToken", { at: at(), token }));
        pg.onLinkProblem();
      }
      if (waiting.size === 0) pg.backfill = null;
      pg.notify();
    },
    onError: (message) => pg.fail(message),
  }, params, settingsOf);
  run.start();
  return run;
}

/**
 * Put the page in a scenario's exact state: input, every parameter, then the tokens of every path
 * replayed through the core. Fields left out take their defaults (a lesson is reproducible).
 * `defer`: a long model link may rebuild the paths not on screen in the background.
 */
export async function applyScenario(pg: Playground, wanted: ScenarioRequest, problems: Problem[], defer = false): Promise<void> {
  const { state } = pg;
  pg.pause();
  const preset = findPreset(wanted.presetId ?? "") ?? (wanted.presetId === undefined ? findPreset(state.presetId) : undefined) ?? pg.firstPreset;
  state.presetId = preset.id;
  state.prompt = wanted.prompt ?? preset.prompt;
  state.params = { ...DEFAULT_PARAMS, ...wanted.params };
  const kind = wanted.source ?? state.source;
  if (kind === "model" && pg.model === null) problems.push(() => t("url.noModel"));
  const server = kind === "server" ? pg.server : null;
  pg.serverChosen = server !== null;
  state.source = server !== null ? "server" : kind === "model" && pg.model !== null ? "model" : "manual";
  if (server !== null) {
    pg.source = server;
    // every prefix of the link's paths is fetched while the prompt is read: the replay is then synchronous
    server.preload = scenarioPaths(wanted);
  } else if (state.source === "model" && pg.model !== null) pg.source = pg.model;
  else {
    const manual = new ManualSource(preset);
    // edits in table order, so the vocabulary (and the ids a link carries) come out the same
    for (const table of [...(wanted.tables ?? [])].sort((a, b) => a.index - b.index)) {
      if (!manual.setRows(table.index, table.rows)) problems.push(() => t("url.badTable", { n: table.index }));
    }
    pg.source = manual;
  }
  await replayScenario(pg, wanted, problems, defer);
}

/** Every path of a scenario as token ids from the start (a branch: its parent's first tokens, then its own). */
function scenarioPaths(wanted: ScenarioRequest): number[][] {
  const ids = (tokens: readonly ScenarioToken[]): number[] => tokens.map((x) => x.token).filter((x): x is number => typeof x === "number");
  const paths = [ids(wanted.path ?? [])];
  for (const b of wanted.branches ?? []) paths.push([...(paths[b.parent] ?? []).slice(0, b.forkAt), ...ids(b.tokens)]);
  return paths;
}

/**
 * The paths of a scenario replayed on the source already chosen (under the state's prompt and
 * parameters): the prompt is read, then every path's tokens go through the core again.
 */
export async function replayScenario(pg: Playground, wanted: ScenarioRequest, problems: Problem[], defer = false): Promise<void> {
  const { state } = pg;
  pg.compareRun = null;
  clearPaths(pg);
  pg.syncLimits();
  const epoch = ++pg.epoch;
  /** A later action (a new prompt, another scenario) came while this one waited: it wins. */
  const superseded = (): boolean => pg.epoch !== epoch;
  pg.replaying = true;
  pg.replayingEpoch = epoch;
  try {
    try {
      await pg.source.reset(state.prompt);
    } catch {
      if (superseded()) return;
      // the prompt error is shown; the link's paths cannot be replayed, and the notice says so (the
      // address bar keeps them: main.ts)
      const tokens = (wanted.path?.length ?? 0) + (wanted.branches ?? []).reduce((sum, b) => sum + b.tokens.length, 0);
      const reason = pg.source.promptError ?? "";
      const paths = 1 + (wanted.branches?.length ?? 0);
      const why = /^prompt must be at most \d+ tokens/.test(reason) ? "url.promptTooLong" : "url.promptUnreadable";
      if (tokens > 0) problems.push(() => t("url.promptUnread", { paths, tokens, why: t(why), reason: coreMessage(reason) }));
      pg.refresh();
      return;
    }
    if (superseded()) return;
    // the next step's preview is computed once the tokens are in (nothing is drawn meanwhile); an
    // async source is asked for the prompt's logits now, which the first token needs anyway
    const tokens = (wanted.path?.length ?? 0) > 0;
    pg.refresh(!tokens || pg.source.capabilities.async);
    if (!(defer && (await replayShownPath(pg, wanted, problems)))) {
      if (!(await replay(pg, wanted.path ?? [], problems, () => t("url.path", { n: 1 }), settingsAt(wanted.settings, 0)))) return;
      for (const [i, branch] of (wanted.branches ?? []).entries()) {
        const parent = state.branches[branch.parent];
        const first = branch.tokens[0];
        const where = (): string => t("url.path", { n: i + 2 });
        const fits = parent !== undefined && first !== undefined && branch.forkAt < parent.entries.length && resolveToken(pg, first.token) !== undefined;
        if (!fits || !fork(pg, branch.parent, branch.forkAt)) {
          problems.push(() => t("url.badBranch", { at: where() }));
          break;
        }
        // a path starts with the token forced where it left its parent (as `force` made it)
        const at = settingsAt(wanted.settings, i + 1);
        const replayed = await replay(pg, [{ ...first, forced: true }, ...branch.tokens.slice(1)], problems, where, (j) => at(branch.forkAt + j));
        if (superseded()) return;
        if (state.path.length === branch.forkAt) {
          // not even its first token: no empty path is kept (the page's link could not say it)
          state.branches.pop();
          pg.branchStops.delete(state.branches.length);
          switchBranch(pg, branch.parent);
        }
        if (!replayed) break;
      }
      const current = wanted.current ?? state.branches.length - 1;
      if (wanted.branches !== undefined && current < state.branches.length && current !== state.currentBranch) switchBranch(pg, current);
    }
    if (superseded()) return;
    if (wanted.stopped === true) pg.userStop();
    if (wanted.viewing !== undefined && wanted.viewing !== null && wanted.viewing < state.path.length) state.viewing = wanted.viewing;
  } finally {
    // a later scenario clears the flag itself; after a later reset the page shows what it made
    if (pg.replayingEpoch === epoch) pg.replaying = false;
    if (!superseded()) pg.refresh();
    else if (!pg.replaying) pg.notify();
  }
}

/**
 * The page's state as a scenario (what a link records). With edited hand-made tables, token ids
 * are given as the vocabulary `apply` will rebuild (preset, then edits in table order) numbers them.
 */
export function snapshot(pg: Playground): Scenario {
  const { state, source } = pg;
  let idOf = (id: number): number => id;
  const tables = source instanceof ManualSource ? source.edits() : [];
  if (source instanceof ManualSource && tables.length > 0) {
    const rebuilt = new ManualSource(source.preset);
    for (const table of tables) rebuilt.setRows(table.index, table.rows);
    idOf = (id) => rebuilt.idOf(source.tokenText(id)) ?? id;
  }
  const tokensOf = (entries: readonly PathEntry[]): ScenarioToken[] => entries.map((e) => ({ token: idOf(e.id), forced: e.forced }));
  // a path of the opening link still being rebuilt is written as the link gave it
  const pathOf = (index: number): ScenarioToken[] => pg.backfill?.waiting.get(index) ?? tokensOf(state.branches[index]?.entries ?? []);
  // the steps made under other settings than the page's last ones (a waiting path: the link's)
  const settings: ScenarioSettings[] = state.branches.flatMap((branch, index) => {
    const start = index === 0 ? 0 : branch.forkAt;
    const waiting = pg.backfill?.waiting.get(index);
    const backfill = pg.backfill;
    if (waiting !== undefined && backfill !== null) return pathSettings(index, waiting.length, start, backfill.paramsOf(index), state.params);
    return pathSettings(index, branch.entries.length, start, entryParams(branch.entries), state.params);
  });
  return {
    source: state.source,
    presetId: state.presetId,
    prompt: state.prompt,
    params: { ...state.params, stop: [...state.params.stop] },
    path: pathOf(0),
    branches: state.branches.slice(1).map((b, i) => ({ parent: b.parent ?? 0, forkAt: b.forkAt, tokens: pathOf(i + 1).slice(b.forkAt) })),
    current: state.currentBranch,
    stopped: state.stopReason?.kind === "user",
    viewing: state.viewing,
    tables,
    settings,
  };
}
