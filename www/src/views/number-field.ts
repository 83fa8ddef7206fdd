// A number box read as the person meant it, or refused in words. The boxes are text inputs, not
// type="number": Chromium's number box drops a typed comma (0,7 became 7) and keeps a value out of
// its range without a word. Here full-width digits and a Chinese IME's 。 (０.７, 0。7) and a comma
// decimal (0,7) are the number they look like; anything else out of the field's range leaves the
// typed text in the box, an error under it naming the field and the range in the page's language,
// and the last valid value in use.
import { t } from "../i18n/index";

export interface NumberRule {
  min: number;
  max: number;
  integer: boolean;
}

/** The text's number, or null when it is not one (empty, letters, two separators, ±Infinity). */
export function readNumber(text: string, rule: Pick<NumberRule, "integer">): number | null {
  let plain = text.normalize("NFKC").replace(/\u3002/g, ".").replace(/[\s\u00a0]/g, "").replace(/^\u2212/, "-");
  // 1,000 in a whole-number box is a thousands group; any other single comma is a decimal point
  if (rule.integer && /^[+-]?[1-9]\d{0,2}(,\d{3})+$/.test(plain)) plain = plain.replace(/,/g, "");
  else if (/^[^,.]*,[^,.]*$/.test(plain)) plain = plain.replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain)) return null;
  const value = Number(plain);
  return Number.isFinite(value) ? value : null;
}

export function inRange(value: number | null, rule: NumberRule): value is number {
  return value !== null && value >= rule.min && value <= rule.max && (!rule.integer || Number.isInteger(value));
}

export interface NumberField {
  /** Show `value` (the state's), unless the box still holds a refused entry made while it was in use. */
  render(value: number): void;
}

/** Boxes without an id so far (a table's logits): each error's id is numbered. */
let unnamed = 0;

/**
 * Reads `input` on change (leaving the box, Enter): a number in `rule` goes to `accept`; anything
 * else is named under the box (or where `placeError` puts the message: a table's cell has no room
 * for a sentence). ArrowUp/ArrowDown step by 1 (whole numbers) or 0.1, as the number box did.
 */
export function numberField(input: HTMLInputElement, rule: NumberRule, accept: (value: number) => void, placeError?: (error: HTMLElement) => void): NumberField {
  input.type = "text";
  input.inputMode = rule.integer && rule.min >= 0 ? "numeric" : "decimal";
  input.autocomplete = "off";
  input.spellcheck = false;
  const error = document.createElement("p");
  error.id = `${input.id || `number-field-${++unnamed}`}-error`;
  error.className = "field-error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  if (placeError !== undefined) placeError(error);
  else (input.closest(".field") ?? input).after(error);
  // the refused text and the state's value when it was refused: while both still hold, it stays shown
  let refused: { text: string; kept: number } | null = null;
  let shown = Number.NaN;

  const name = (): string => (input.labels?.[0]?.textContent ?? input.getAttribute("aria-label") ?? "").trim();
  const say = (): void => {
    error.hidden = refused === null;
    // "true", not an empty value: ARIA reads aria-invalid="" as false
    if (refused !== null) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    const described = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id !== "" && id !== error.id);
    if (refused !== null) described.push(error.id);
    if (described.length > 0) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
    if (refused === null) return;
    const ruleText = t(rule.integer ? "number.rule.whole" : "number.rule.decimal", { min: rule.min, max: rule.max });
    const vars = { field: name(), rule: ruleText, got: refused.text, kept: refused.kept };
    error.textContent = t(refused.text.trim() === "" ? "number.empty" : "number.refused", vars);
  };
  const commit = (): void => {
    const value = readNumber(input.value, rule);
    if (inRange(value, rule)) {
      refused = null;
      say();
      input.value = String(value);
      if (value !== shown) accept(value);
      return;
    }
    refused = { text: input.value, kept: shown };
    say();
  };
  input.addEventListener("change", commit);
  input.addEventListener("keydown", (event) => {
    if ((event.key !== "ArrowUp" && event.key !== "ArrowDown") || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const from = readNumber(input.value, rule) ?? shown;
    const step = (event.key === "ArrowUp" ? 1 : -1) * (rule.integer ? 1 : 0.1);
    const next = Math.min(rule.max, Math.max(rule.min, Math.round((from + step) * 10) / 10));
    input.value = String(next);
    commit();
  });

  return {
    render(value) {
      if (refused !== null && value === refused.kept) {
        say(); // (the language may have changed)
        shown = value;
        return;
      }
      refused = null;
      say();
      shown = value;
      if (document.activeElement !== input) input.value = String(value);
    },
  };
}
