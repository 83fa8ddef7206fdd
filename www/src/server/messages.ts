// A ServerError in the page's language: what went wrong and what to run to fix it.
import { t } from "../i18n";
import type { MessageKey } from "../i18n";
import { ServerError } from "./types";

export function describeServerError(e: unknown): string {
  if (e instanceof ServerError) {
    const vars: Record<string, string | number> = { url: "", origin: "", port: "", detail: "", status: "", server: "", ...e.vars };
    return t(`server.error.${e.code}` as MessageKey, vars);
  }
  return e instanceof Error ? e.message : String(e);
}
