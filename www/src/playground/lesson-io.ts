// What lessons read beside the path on screen, on whichever model the page is on: a glimpse of
// another prompt's next-token distribution (the embedded model's own Generator, or a server source of
// its own on the connected server, one request per prompt) and a step that waits for an async
// source's logits (so a lesson can run a path to its end over a server as it does on the model).
import { messageOf, runStep } from "../core";
import type { Generator } from "../core";
import type { Glimpse } from "../actions";
import { visible } from "../format";
import { t } from "../i18n/index";
import type { NextLogits } from "../sources/logits-source";
import { ServerSource } from "../sources/server";
import { stepConfig } from "../state";
import type { Params } from "../state";
import type { Playground } from "./playground";

/** One step, once an async source has the next logits (at once for the others); false if it could not. */
export async function stepWhenReady(pg: Playground): Promise<boolean> {
  const { source } = pg;
  if (source.capabilities.async && source.nextLogits() === null && !pg.finished() && !pg.blocked()) {
    try {
      await source.loadNextLogits();
    } catch (err) {
      pg.failSource(messageOf(err));
      return false;
    }
  }
  return pg.step();
}

/**
 * The next-token distribution after `prompt` under `params` (the path on screen is untouched): over
 * the model server when the page is on it, else on the embedded model. A string says why not.
 */
export function glimpse(pg: Playground, prompt: string, params: Params): Glimpse | string | Promise<Glimpse | string> {
  const { server } = pg;
  if (server !== null && pg.source === server) return serverGlimpse(server, prompt, params);
  return modelGlimpse(pg, prompt, params);
}

/** The same glimpse over the server: its answer for `prompt`, then the core's step (with a top N's rest). */
async function serverGlimpse(server: ServerSource, prompt: string, params: Params): Promise<Glimpse | string> {
  const glimpses = serverGlimpses(server);
  let next: NextLogits;
  try {
    next = await glimpses.answer(prompt);
  } catch (err) {
    return messageOf(err);
  }
  const rest = next.known.kind === "top" ? { rest_mass: next.known.restMass } : {};
  return describe(next.logits, { ...stepConfig(params, [], 0, 0), ...rest }, (id) => glimpses.source.tokenText(id));
}

/** The model's glimpse Generator (made on first use). */
let glimpseGen: Generator | null = null;

function modelGlimpse(pg: Playground, prompt: string, params: Params): Glimpse | string {
  const model = pg.model;
  if (model === null) return t("url.noModel");
  glimpseGen ??= model.spawnGenerator();
  if (glimpseGen === null) return t("url.noModel");
  try {
    glimpseGen.setPrompt(prompt);
    return describe(glimpseGen.logits(), stepConfig(params, [], 0, 0), (id) => model.tokenText(id));
  } catch (err) {
    return messageOf(err);
  }
}

/** The core's step over `logits`, as a glimpse: kept candidates and the top ten by p_raw. */
function describe(logits: Float32Array, config: ReturnType<typeof stepConfig>, tokenText: (id: number) => string): Glimpse | string {
  const out = runStep(logits, { ...config, trace_top: 64 });
  if (!out.ok) return out.message;
  const text = (id: number): string => visible(tokenText(id));
  const byRaw = [...out.result.candidates].sort((a, b) => b.p_raw - a.p_raw);
  return {
    kept: out.result.candidates.filter((c) => c.kept).map((c) => ({ text: text(c.id), p: c.p })),
    top: byRaw.slice(0, 10).map((c) => ({ text: text(c.id), p: c.p_raw, pTempered: c.p_tempered, kept: c.kept })),
    keptCount: out.result.kept_count,
    vocabSize: out.result.vocab_size,
  };
}

interface ServerGlimpses {
  source: ServerSource;
  answer(prompt: string): Promise<NextLogits>;
}

/** Per connection: a source of its own, one answer per prompt (asked one at a time, kept). */
const byServer = new WeakMap<ServerSource, ServerGlimpses>();

function serverGlimpses(server: ServerSource): ServerGlimpses {
  const found = byServer.get(server);
  if (found !== undefined) return found;
  const source = new ServerSource(server.client, server.info);
  source.eosId = server.eosId;
  source.topN = server.topN;
  const answers = new Map<string, Promise<NextLogits>>();
  let queue: Promise<unknown> = Promise.resolve();
  const made: ServerGlimpses = {
    source,
    answer(prompt) {
      let answer = answers.get(prompt);
      if (answer === undefined) {
        // one context at a time on this source: the next prompt waits for the one before
        answer = queue.then(async () => {
          await source.reset(prompt);
          return source.loadNextLogits();
        });
        queue = answer.catch(() => undefined);
        answers.set(prompt, answer);
        // a failure is not kept: the next glimpse asks again
        answer.catch(() => answers.delete(prompt));
      }
      return answer;
    },
  };
  byServer.set(server, made);
  return made;
}
