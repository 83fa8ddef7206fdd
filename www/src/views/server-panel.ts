// The model server's controls in the source card: address, API, candidates per step, Connect,
// and one status line (which server and model, the vocabulary, progress while a request is
// out, and each step's rest of the vocabulary). It connects only when Connect is clicked.
import { t } from "../i18n";
import { ServerClient } from "../server/client";
import { describeServerError } from "../server/messages";
import { DEFAULT_TOP_N, FULL_VOCAB_MAX } from "../server/requests";
import type { ServerApi, ServerErrorCode } from "../server/types";
import { ServerSource } from "../sources/server";
import type { RestTrace } from "../core";
import { grouped, percent } from "../format";
import { say } from "../lessons/kit";

/** Failures after which the server is said to have stopped answering (else: its answer was unusable). */
const STOPPED: ReadonlySet<ServerErrorCode> = new Set(["refused", "cut_off", "timeout", "cancelled", "cors", "ollama_origin", "private_network", "mixed_content"]);

/** Where a model server listens by default (llama.cpp's llama-server; `make serve` uses 8000). */
export const DEFAULT_SERVER_ADDRESS = "http://127.0.0.1:8080";

export interface ServerPanel {
  /** The connected source, or null. */
  readonly source: ServerSource | null;
  /** Fill the controls from a link (never connects). */
  prefill(address: string, api: ServerApi | null): void;
  address(): string;
  api(): ServerApi | null;
  /**
   * Redraw the status line; `rest` is the current step's rest-of-vocabulary trace, if any; `lost`:
   * the connected server's last request failed (it stopped answering).
   */
  render(rest: RestTrace | null | undefined, lost?: boolean): void;
}

function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found as T;
}

/**
 * `onStatus` hears every redraw of the status line (its text and state: "idle", "connected" or
 * "error"), so a notice elsewhere on the page (a server link waiting for Connect) can echo it.
 */
export function createServerPanel(onConnected: (source: ServerSource) => void, onStatus?: (text: string, state: string) => void): ServerPanel {
  const address = el<HTMLInputElement>("server-address");
  const api = el<HTMLSelectElement>("server-api");
  const topN = el<HTMLInputElement>("server-top-n");
  const connect = el<HTMLButtonElement>("server-connect");
  const status = el("server-status");
  const cancel = el<HTMLButtonElement>("server-cancel");
  const restLine = el("server-rest");
  address.value = DEFAULT_SERVER_ADDRESS;
  topN.value = String(DEFAULT_TOP_N);
  let source: ServerSource | null = null;
  let message: () => string = () => t("server.notConnected");
  let failed = false;
  let lost = false;
  /** How many tokens the current step's answer listed, when not the whole vocabulary. */
  let listed: number | null = null;
  let busySince: number | null = null;
  let timer = 0;

  const show = (): void => {
    // progress only for a request that takes a while (a long prompt's first step), not every step
    const elapsed = busySince === null ? 0 : performance.now() - busySince;
    const waiting = elapsed < 400 ? "" : ` ${t("server.waiting", { seconds: (elapsed / 1000).toFixed(1) })}`;
    // a wait that goes on can be given up (a hung server): Play stops, the next Step asks again
    cancel.hidden = waiting === "";
    const lostUrl = lost && !failed ? source?.info.url : undefined;
    const connectedLost = lostUrl !== undefined;
    // "stopped answering" only when it did; an answer it could not use says so
    const stopped = source?.lastFailure == null || STOPPED.has(source.lastFailure);
    const lostText = lostUrl === undefined ? "" : t(stopped ? "server.lost" : "server.stepFailed", { url: lostUrl });
    say(status, (lostUrl !== undefined ? lostText : message()) + waiting);
    status.dataset["state"] = failed || connectedLost ? "error" : source !== null ? "connected" : "idle";
    onStatus?.(status.textContent, status.dataset["state"]);
  };
  const chosenApi = (): ServerApi | null => (api.value === "llama.cpp" || api.value === "openai" ? api.value : null);

  connect.addEventListener("click", () => {
    let client: ServerClient;
    failed = false;
    try {
      client = new ServerClient(address.value);
    } catch (err) {
      failed = true;
      message = () => t("server.failed", { message: describeServerError(err) });
      show();
      return;
    }
    connect.disabled = true;
    message = () => t("server.connecting", { url: client.url });
    show();
    ServerSource.connect(client, chosenApi() ?? undefined).then(
      (connected) => {
        source = connected;
        connected.topN = Math.max(1, Math.min(16_384, Math.round(Number(topN.value)) || DEFAULT_TOP_N));
        connected.onBusy = (busy) => {
          window.clearInterval(timer);
          busySince = busy ? performance.now() : null;
          // the first request of a long prompt can take seconds: count them
          if (busy) timer = window.setInterval(show, 250);
          show();
        };
        const info = connected.info;
        message = () => {
          const vocab = info.vocabSize === null ? t("server.vocabUnknown") : grouped(info.vocabSize);
          // llama.cpp names a model by its file path: the file name is enough
          const model = info.kind === "llama.cpp" ? (info.model.split(/[\\/]/).pop() ?? info.model) : info.model;
          const head = t("server.connected", { server: info.kind, url: info.url, model, vocab });
          const whole = info.vocabSize !== null && info.vocabSize <= FULL_VOCAB_MAX && info.maxTop === null;
          // a server that listed fewer than the whole vocabulary it was asked for: say so, not "exact"
          const asked = whole && listed !== null ? t("server.fewerListed", { n: grouped(listed) }) : whole ? t("server.exact") : t("server.topListed", { n: Math.min(connected.topN, info.maxTop ?? Infinity) });
          return `${head}${t("server.headEnd")}${asked}${info.hasIds ? "" : ` ${t("server.noIds")}`}`;
        };
        connect.disabled = false;
        show();
        onConnected(connected);
      },
      (err: unknown) => {
        failed = true;
        connect.disabled = false;
        message = () => t("server.failed", { message: describeServerError(err) });
        show();
      },
    );
  });
  cancel.addEventListener("click", () => source?.cancel());
  topN.addEventListener("change", () => {
    if (source !== null) source.topN = Math.max(1, Math.min(16_384, Math.round(Number(topN.value)) || DEFAULT_TOP_N));
  });
  show();

  return {
    get source() {
      return source;
    },
    prefill(url, chosen) {
      address.value = url;
      api.value = chosen ?? "auto";
      message = () => t("server.linkWaiting", { url });
      show();
    },
    address: () => address.value.trim(),
    api: chosenApi,
    render(rest, stopped = false) {
      lost = stopped;
      listed = rest?.given ?? null;
      show();
      restLine.hidden = rest === null || rest === undefined;
      if (rest) restLine.textContent = `${t("server.rest", { p: percent(rest.mass) })} ${rest.exact ? t("server.rest.exact") : t("server.rest.inexact")}`;
    },
  };
}
