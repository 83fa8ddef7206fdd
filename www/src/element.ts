// <nexttoken-playground>: the playground for course pages that include this one script
// (dist/nexttoken-element.js, next to the page). It shows the page in embed mode in a sandboxed
// iframe (IFRAME_SANDBOX: which permissions, and why) whose URL carries the element's attributes —
// every field of a link, a repeated one (stop, table, branch) as a JSON array — so the same link
// rules (and the same field-by-field checking) apply, and the course page's styles and scripts
// never mix with ours.
//
//   <script src="https://example.org/nexttoken/nexttoken-element.js"></script>
//
// A classic script (not a module), so a course page on another origin can include it without CORS.
//   <nexttoken-playground preset="react-zh" prompt="React 是一个用于构建" strategy="greedy" seed="7" lang="zh">
//   </nexttoken-playground>

import { DEFAULT_HEIGHT, ELEMENT_ATTRIBUTES, embedUrl, frameHeight, IFRAME_ALLOW, IFRAME_SANDBOX } from "./element-attributes";

/**
 * Where this script was loaded from: the page sits next to it. Read while the script first runs;
 * a module script has no `currentScript` (`<script type="module" src=…>`, as authors often paste
 * it), so then the script tag that names this file.
 */
const scriptUrl =
  (document.currentScript as HTMLScriptElement | null)?.src ??
  document.querySelector<HTMLScriptElement>('script[src*="nexttoken-element"]')?.src ??
  location.href;

class NextTokenPlayground extends HTMLElement {
  static get observedAttributes(): string[] {
    return [...ELEMENT_ATTRIBUTES, ...ELEMENT_ATTRIBUTES.map((n) => n.replace(/_/g, "-")), "height", "title"];
  }

  private frame: HTMLIFrameElement;

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = ":host{display:block;min-width:280px}iframe{display:block;width:100%;border:0;border-radius:8px}";
    this.frame = newFrame();
    root.append(style, this.frame);
  }

  connectedCallback(): void {
    this.update();
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.update();
  }

  private update(): void {
    const page = new URL(pageFile(scriptUrl), scriptUrl);
    const src = embedUrl(page, (name) => this.getAttribute(name), this.getAttributeNames()).href;
    if (this.frame.src !== src) {
      // the fields are after `#`: a new src on a loaded frame would only move to another fragment
      // (no reload, the page would not read it), so changed attributes get a frame of their own
      if (this.frame.src !== "") {
        const fresh = newFrame();
        this.frame.replaceWith(fresh);
        this.frame = fresh;
      }
      this.frame.src = src;
    }
    // `700` or `700px`; anything else keeps the default, and the page's notice names it
    this.frame.style.height = `${frameHeight(this.getAttribute("height") ?? "") ?? DEFAULT_HEIGHT}px`;
    this.frame.title = this.getAttribute("title") ?? "nexttoken";
  }
}

/**
 * The page beside the script: index.html from a server; from disk (a lesson on a USB stick, the
 * Share dialog's snippet on a file:// page) the single file, since a file:// page may not load
 * index.html's module script, stylesheet, wasm or model (each refused as a CORS request) and the
 * frame stayed an unstyled, dead form.
 */
function pageFile(script: string): string {
  return script.startsWith("file:") ? "./nexttoken.html" : "./index.html";
}

function newFrame(): HTMLIFrameElement {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", IFRAME_SANDBOX);
  frame.setAttribute("allow", IFRAME_ALLOW);
  frame.setAttribute("loading", "lazy");
  return frame;
}

if (customElements.get("nexttoken-playground") === undefined) {
  customElements.define("nexttoken-playground", NextTokenPlayground);
}
