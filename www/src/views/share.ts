// The Share / Embed dialog: a link, an <iframe> snippet and a <nexttoken-playground> snippet, all
// reproducing the page's current state (the same query the address bar holds). Plain text only.
import { elementAttributes, IFRAME_ALLOW, IFRAME_SANDBOX } from "../element-attributes";
import { t } from "../i18n/index";
import { linkWithState } from "../address";
import { el } from "./controls";

export interface ShareInput {
  /** The page's query for its current state (without embed). */
  query: URLSearchParams;
  /** A short description for the iframe's title (the prompt). */
  title: string;
}

/**
 * `<`, `>`, `&` and the quote escaped for an HTML attribute value; line breaks and tabs as character
 * references too, which the HTML parser keeps exactly (a literal CR would become LF).
 */
function attr(value: string, quote: '"' | "'" = '"'): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(quote === '"' ? /"/g : /'/g, quote === '"' ? "&quot;" : "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** ` name="value"`, or ` name='value'` when that reads better (JSON lists, tables). */
function attribute(name: string, value: string): string {
  const quote = value.includes('"') && !value.includes("'") ? "'" : '"';
  return ` ${name}=${quote}${attr(value, quote)}${quote}`;
}

/** The page's own address (no query or hash), the base every snippet points at. */
function pageUrl(): URL {
  const url = new URL(location.href);
  url.search = "";
  url.hash = "";
  // the single file shares the multi-file page's state too, but it can only point at itself
  return url;
}

export function shareSnippets(input: ShareInput, withTokens: boolean): { link: string; iframe: string; element: string } {
  const query = new URLSearchParams(input.query);
  if (!withTokens) for (const key of ["path", "branch", "at", "stopped", "step", "set"]) query.delete(key);
  const link = linkWithState(pageUrl(), query);
  const framed = new URLSearchParams(query);
  framed.set("embed", "1");
  framed.delete("projector");
  const embed = linkWithState(pageUrl(), framed);
  const iframe =
    `<iframe src="${attr(embed.href)}" title="${attr(`nexttoken: ${input.title}`)}" ` +
    `width="100%" height="640" style="border:0;max-width:100%" loading="lazy" sandbox="${IFRAME_SANDBOX}" allow="${IFRAME_ALLOW}"></iframe>`;
  const script = new URL("nexttoken-element.js", pageUrl());
  // every field of the link (lists such as `stop` as one JSON array): the element opens this page
  const attributes = elementAttributes(query)
    .map(([key, value]) => attribute(key, value))
    .join("");
  const element = `<script src="${attr(script.href)}"></script>\n<nexttoken-playground${attributes}></nexttoken-playground>`;
  return { link: link.href, iframe, element };
}

export function createShare(current: () => ShareInput): { open(): void } {
  const dialog = el<HTMLDialogElement>("share-dialog");
  const withTokens = el<HTMLInputElement>("share-tokens");
  const fields = {
    link: el<HTMLInputElement>("share-link"),
    iframe: el<HTMLTextAreaElement>("share-iframe"),
    element: el<HTMLTextAreaElement>("share-element"),
  };
  const status = el("share-status");
  const fill = (): void => {
    const snippets = shareSnippets(current(), withTokens.checked);
    fields.link.value = snippets.link;
    fields.iframe.value = snippets.iframe;
    fields.element.value = snippets.element;
    el("share-file-note").hidden = location.protocol !== "file:";
  };
  withTokens.addEventListener("change", fill);
  for (const button of dialog.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    button.addEventListener("click", () => {
      const field = fields[button.dataset["copy"] as keyof typeof fields];
      void copy(field).then((ok) => {
        status.textContent = ok ? t("share.copied") : t("share.copyByHand");
      });
    });
  }
  el<HTMLButtonElement>("share-close").addEventListener("click", () => dialog.close());
  return {
    open() {
      fill();
      status.textContent = "";
      dialog.showModal();
      fields.link.select();
    },
  };
}

/** Copy a field's text: the Clipboard API where allowed, else the selection (older or file:// pages). */
async function copy(field: HTMLInputElement | HTMLTextAreaElement): Promise<boolean> {
  field.focus();
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    return true;
  } catch {
    return document.execCommand("copy");
  }
}
