// The final distribution as a 0–1 strip (the CDF): kept tokens laid end to end in candidate order,
// with the random number u drawn where it lands. The strip covers all of [0, 1]: the listed tokens'
// bands, one "rest" band for the kept tokens the trace does not list (count and mass from the
// trace), and the chosen token's own band wherever it ranks. Under greedy there is no u; the argmax
// is marked. The strip's accessible name says where u fell. A model server's top N: the rest of the
// vocabulary is a hatched box beside the strip, outside [0, 1], because the core never draws it
// (u falls among the listed tokens: `rest.removed_by` names the cut that removed it, if one did).
import { tokenLang } from "../token-lang";
import * as d3 from "d3";
import type { Candidate, StepResult } from "../core";
import { percent } from "../format";
import { duration } from "./frame";
import { drawHatch, hatch } from "./rest";
import { rove, setTip, tipName, viewTips } from "./tooltip";
import type { StepView } from "./frame";
import { textUnits } from "./text-units";

/** The viewBox's width as designed; a strip drawn narrower than W·11/10 px gets a narrower viewBox (`stripWidth`). */
const W = 820;
const H = 104;
const M = { top: 30, right: 14, bottom: 24, left: 14 };
/** The u label: its baseline level with the marker's triangle, this far to its side. */
const U_BASELINE = M.top - 8;
const U_GAP = 10;
/** The rest-of-the-vocabulary box: its width and the gap that keeps it apart from the strip. */
const BOX = 196;
const BOX_GAP = 18;

interface Band {
  c: Candidate;
  from: number;
  to: number;
}

export interface CdfTexts {
  u: (u: number) => string;
  argmax: string;
  /** The rest band's label and tooltip, from the unlisted count and mass. */
  rest: (count: number, mass: number) => string;
  restTitle: (count: number, mass: number) => string;
  /** The rest of the vocabulary's box: its label, what became of it, its accessible name (null: none). */
  vocabRest: (r: StepResult) => { label: string; status: string; name: string } | null;
  /** Between two sentences of the accessible name (". " / "。"). */
  sentenceEnd: string;
  /** The strip's accessible name: where u fell (null under greedy). */
  name: (token: string, band: { from: number; to: number } | null, u: number | null) => string;
}

/** Each listed kept token's band: [cum − p, cum), its true place on 0–1 whatever its rank. */
export function bandsOf(candidates: readonly Candidate[]): Band[] {
  return candidates.filter((c) => c.kept).map((c) => ({ c, from: Math.max(0, c.cum - c.p), to: c.cum }));
}

/** Where the listed head ends: the rest band runs from there to 1 (later listed bands sit on it). */
function headEnd(bands: readonly Band[]): number {
  let end = 0;
  for (const [i, b] of bands.entries()) {
    if (b.c.rank !== i) break;
    end = b.to;
  }
  return end;
}

export function createCdfChart(svgNode: SVGSVGElement, texts: CdfTexts): { update(view: StepView): void } {
  // dimensions and margins
  const svg = d3.select(svgNode).attr("viewBox", `0 0 ${W} ${H}`).attr("class", "chart cdf");
  let width = W;
  // room above the strip's box for the u label (viewBox units): its projector size needs more
  let above = 0;
  const viewBox = (): void => void svg.attr("viewBox", `0 ${-above} ${width} ${H + above}`);
  let drawn: StepView | null = null;
  // a narrow box (a 360 px embed, a phone) drew the 820-unit strip's numbers 4 px tall: there the
  // viewBox narrows with the box, so its smallest text (the 10-unit axis) is 11 px on screen
  new ResizeObserver(() => {
    const next = stripWidth(svgNode);
    if (next === null || Math.abs(next - width) < 2) return;
    width = next;
    viewBox();
    if (drawn !== null) update(drawn);
  }).observe(svgNode);
  // projector mode grows the strip's text (--pj-k, set after a draw): the labels are fitted again
  let drawnK = svgNode.style.getPropertyValue("--pj-k");
  new MutationObserver(() => {
    const k = svgNode.style.getPropertyValue("--pj-k");
    if (k === drawnK) return;
    drawnK = k;
    if (drawn !== null) update(drawn);
  }).observe(svgNode, { attributes: true, attributeFilter: ["style"] });
  const stripTop = M.top;
  const stripH = H - M.top - M.bottom;

  // scales
  const x = d3.scaleLinear().domain([0, 1]).range([M.left, W - M.right]);

  // layers: the rest band under the listed bands
  const rest = svg.append("g").attr("class", "rest");
  const restRect = rest.append("rect").attr("class", "rest-band").attr("y", stripTop).attr("height", stripH);
  const restTitle = restRect.append("title");
  const restText = rest.append("text").attr("class", "rest-label").attr("text-anchor", "middle").attr("y", stripTop + stripH / 2 + 4);
  const bands = svg.append("g").attr("class", "bands");
  const axis = svg.append("g").attr("class", "axis").attr("transform", `translate(0,${stripTop + stripH})`);
  const marker = svg.append("g").attr("class", "u-marker");
  marker.append("line").attr("y1", stripTop - 8).attr("y2", stripTop + stripH + 4);
  marker.append("path").attr("d", `M-6,${stripTop - 16}L6,${stripTop - 16}L0,${stripTop - 7}Z`);
  // beside the triangle, not over it: above it, the label reached into the chart's heading
  const uText = marker.append("text").attr("y", U_BASELINE);
  // the bands' words over u's line (the chosen band's label has a halo of its band's colour: the
  // line, which always falls in that band, no longer runs through its letters)
  const labels = svg.append("g").attr("class", "band-labels");
  // the rest of the vocabulary, apart from the strip: not a band of the draw
  const vocabRest = svg.append("g").attr("class", "vocab-rest-box").attr("role", "img");
  const boxRect = vocabRest.append("rect").attr("class", "vocab-rest").attr("y", stripTop).attr("height", stripH).attr("width", BOX);
  const boxHatch = vocabRest.append("g").attr("class", "rest-marks");
  const boxLabel = vocabRest.append("text").attr("class", "vocab-rest-label").attr("text-anchor", "middle").attr("y", stripTop + stripH / 2 - 3);
  const boxStatus = vocabRest.append("text").attr("class", "vocab-rest-status").attr("text-anchor", "middle").attr("y", stripTop + stripH / 2 + 13);
  const boxTitle = vocabRest.append("title");

  return { update };

  function update(view: StepView): void {
    drawn = view;
    const ms = duration();
    const r = view.result;
    const data = bandsOf(r.candidates);
    const grow = textScale(svgNode);
    const wide = (text: string): number => textWidth(text) * grow;
    const key = (d: Band): string => String(d.c.id);

    // a server's top N: the strip gives room to the rest of the vocabulary's box on its right
    const outside = texts.vocabRest(r);
    const box = Math.min(BOX, Math.round(width * 0.3));
    x.range([M.left, outside === null ? width - M.right : width - M.right - box - BOX_GAP]);
    axis.call(d3.axisBottom(x).ticks(4).tickFormat(d3.format(".0%")).tickSizeOuter(0));
    vocabRest.attr("display", outside === null ? "none" : null);
    if (outside !== null) {
      const left = width - M.right - box;
      boxRect.attr("x", left);
      drawHatch(boxHatch, hatch(left, stripTop, box, stripH, 7));
      boxRect.attr("width", box);
      boxLabel.attr("x", left + box / 2).text(outside.label);
      boxStatus.attr("x", left + box / 2).text(outside.status);
      boxTitle.text(outside.name);
      vocabRest.attr("aria-label", outside.name);
    }

    // the kept tokens the trace does not list, as one band from the head's end to 1
    const restFrom = headEnd(data);
    const hasRest = r.unlisted_kept_count > 0 && restFrom < 1;
    rest.attr("display", hasRest ? null : "none");
    if (hasRest) {
      restRect.attr("x", x(restFrom)).attr("width", Math.max(0, x(1) - x(restFrom)));
      restTitle.text(texts.restTitle(r.unlisted_kept_count, r.unlisted_mass));
      // the label sits in the widest stretch of the rest band not covered by a listed band as drawn
      // (the chosen one at least MIN_CHOSEN wide), in the type it is drawn in (projector mode's is
      // larger): a chosen band there was drawn over the label's first or last character
      const covered = data.filter((d) => d.from >= restFrom - 1e-12).map((d) => drawnSpan(d, view.chosenId, x));
      const gap = widestGap(x(restFrom), x(1), covered);
      const label = texts.rest(r.unlisted_kept_count, r.unlisted_mass);
      const fits = gap.to - gap.from > wide(label) + 6;
      restText.attr("display", fits ? null : "none").attr("x", (gap.from + gap.to) / 2).text(label);
    }

    bands
      .selectAll<SVGRectElement, Band>("rect")
      .data(data, key)
      .join((enter) => enter.append("rect").attr("x", (d) => x(d.from)).attr("width", 0))
      .attr("class", (d, i) => `band ${d.c.id === view.chosenId ? "chosen" : i % 2 === 0 ? "even" : "odd"}`)
      .attr("y", stripTop)
      .attr("height", stripH)
      .on("click", (_e, d) => view.onForce(d.c.id))
      .transition()
      .duration(ms)
      .attr("x", (d) => span(d, view.chosenId, x).x)
      .attr("width", (d) => span(d, view.chosenId, x).width);
    // hover or focus shows a band's numbers (charts/tooltip.ts); Enter forces it like a click
    const tips = viewTips(view);
    const bandNodes = bands.selectAll<SVGRectElement, Band>("rect");
    bandNodes.each(function (d) {
      setTip(this, () => tips(d.c.id));
    });
    // a band is a tab stop that Enter forces: a button with its numbers as its name, as the bars
    // (without them a screen reader announced the focused band with no name at all)
    bandNodes.attr("role", "button").attr("aria-label", (d) => {
      const data = tips(d.c.id);
      return data === null ? view.forceName(d.c.id) : tipName(data);
    });
    bandNodes.on("keydown", (event: KeyboardEvent, d) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      view.onForce(d.c.id);
    });
    rove(bandNodes.nodes(), data.findIndex((d) => d.c.id === view.chosenId));
    // a band's token is written inside it when there is room
    labels
      .selectAll<SVGTextElement, Band>("text")
      .data(data.filter((d) => x(d.to) - x(d.from) > wide(`${view.label(d.c.id)} ${percent(d.c.p)}`) + 6), key)
      .join("text")
      .attr("class", (d) => (d.c.id === view.chosenId ? "chosen" : ""))
      .attr("text-anchor", "middle")
      .attr("y", stripTop + stripH / 2 + 4)
      .text((d) => `${view.label(d.c.id)} ${percent(d.c.p)}`)
      .attr("lang", (d) => tokenLang(view.label(d.c.id)))
      .transition()
      .duration(ms)
      .attr("x", (d) => (x(d.from) + x(d.to)) / 2);
    // the random number u, or the argmax under greedy (both mark the core's pick, even if forced)
    const chosen = data.find((d) => d.c.id === r.token);
    const at = r.u ?? (chosen === undefined ? null : (chosen.from + chosen.to) / 2);
    marker.attr("display", at === null ? "none" : null).classed("greedy", r.u === null);
    if (at !== null) {
      marker.transition().duration(ms).attr("transform", `translate(${x(at)},0)`);
      uText
        .attr("text-anchor", at > 0.5 ? "end" : "start")
        .attr("x", at > 0.5 ? -U_GAP : U_GAP)
        .text(r.u === null ? texts.argmax : texts.u(r.u));
      // its top inside the drawing (projector mode grows the text by --pj-k): the box grows upward
      const font = drawnK === "" ? 12 : 13 * Number(drawnK);
      const need = Math.max(0, Math.ceil(0.9 * font - U_BASELINE) + 1);
      if (need !== above) {
        above = need;
        viewBox();
      }
    }
    const name = texts.name(view.label(r.token), chosen ?? null, r.u);
    svg.attr("aria-label", outside === null ? name : `${name}${texts.sentenceEnd}${outside.name}`);
  }
}

/** The viewBox width for the strip's box: W, or 10/11 of its width in px when that is less (projector mode sizes its text with --pj-k instead); null while hidden. */
function stripWidth(svg: SVGSVGElement): number | null {
  const px = svg.getBoundingClientRect().width;
  if (px <= 0) return null;
  return document.body.dataset["projector"] === "true" ? W : Math.min(W, Math.round((px * 10) / 11));
}

/** A band's rectangle; the chosen one is never thinner than MIN_CHOSEN, so it shows at any p. */
const MIN_CHOSEN = 5;
function span(d: Band, chosenId: number, x: d3.ScaleLinear<number, number>): { x: number; width: number } {
  const width = Math.max(0, x(d.to) - x(d.from));
  if (d.c.id !== chosenId || width >= MIN_CHOSEN) return { x: x(d.from), width };
  const mid = Math.min(Math.max((x(d.from) + x(d.to)) / 2, x(0) + MIN_CHOSEN / 2), x(1) - MIN_CHOSEN / 2);
  return { x: mid - MIN_CHOSEN / 2, width: MIN_CHOSEN };
}

/** A band's extent as drawn, in viewBox units (`span`). */
function drawnSpan(d: Band, chosenId: number, x: d3.ScaleLinear<number, number>): { from: number; to: number } {
  const s = span(d, chosenId, x);
  return { from: s.x, to: s.x + s.width };
}

/** The widest stretch of [from, to] (viewBox units) that none of `covered` covers (where the rest band's label goes). */
function widestGap(from: number, to: number, covered: ReadonlyArray<{ from: number; to: number }>): { from: number; to: number } {
  let best = { from, to: from };
  let cursor = from;
  for (const b of [...covered].sort((a, c) => a.from - c.from)) {
    if (b.from - cursor > best.to - best.from) best = { from: cursor, to: b.from };
    cursor = Math.max(cursor, b.to);
  }
  if (to - cursor > best.to - best.from) best = { from: cursor, to };
  return best;
}

/** How much larger than designed (12 px) the strip's words are drawn: projector mode's 11 px × --pj-k (projector.css). */
function textScale(svg: SVGSVGElement): number {
  if (document.body.dataset["projector"] !== "true") return 1;
  const k = Number(svg.style.getPropertyValue("--pj-k"));
  return Number.isFinite(k) && k > 0 ? Math.max(1, (11 * k) / 12) : 1;
}

/** Rough width of a band label in viewBox units (12–13px type; CJK characters are about twice as wide). */
function textWidth(text: string): number {
  return textUnits(text, 13, 7.5);
}
