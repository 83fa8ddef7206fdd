// How far a comparison got, in words (beside "Prompt …, seed …"): a server's columns arrive token by
// token, so the note says how many are in, or why the run ended early.
import { t } from "../i18n/index";
import type { CompareRun } from "./compare";

export function compareStatusText(run: CompareRun): string {
  const { status } = run;
  switch (status.kind) {
    case "done":
      return run.source === "server" ? t("srv.compare.done") : "";
    case "running":
      return t("srv.compare.running", { done: status.done, total: status.total });
    case "cancelled":
      return status.why === "user" ? t("srv.compare.stopped") : t("srv.compare.changed");
    case "failed":
      return t("srv.compare.failed");
  }
}
