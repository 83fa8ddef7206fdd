// The final distribution as a 0–1 strip (the CDF): kept tokens laid end to end in candidate order,
// with the random number u drawn where it lands. Under greedy there is no u; the argmax is marked.
import * as d3 from "d3";
import type { Candidate } from "../core";
import { percent } from "../format";
import { duration } from "./frame";
import type { StepView } from "./frame";

const W = 820;
const H = 104;
const M = { top: 30, right: 14, bottom: 24, left: 14 };

interface Band {
  c: Candidate;
  from: number;
  to: number;
}

export function createCdfChart(
  svgNode: SVGSVGElement,
  texts: { u: (u: number) => string; argmax: string },
): { update(view: StepView): void } {
  // dimensions and margins
  const svg = d3.select(svgNode).attr("viewBox", `0 0 ${W} ${H}`).attr("class", "chart cdf");
  const stripTop = M.top;
  const stripH = H - M.top - M.bottom;

  // scales
  const x = d3.scaleLinear().domain([0, 1]).range([M.left, W - M.right]);

  // layers
  const bands = svg.append("g").attr("class", "bands");
  const labels = svg.append("g").attr("class", "band-labels");
  const axis = svg.append("g").attr("class", "axis").attr("transform", `translate(0,${stripTop + stripH})`);
  const marker = svg.append("g").attr("class", "u-marker");
  marker.append("line").attr("y1", stripTop - 8).attr("y2", stripTop + stripH + 4);
  marker.append("path").attr("d", `M-6,${stripTop - 16}L6,${stripTop - 16}L0,${stripTop - 7}Z`);
  const uText = marker.append("text").attr("y", stripTop - 19);

  axis.call(d3.axisBottom(x).ticks(4).tickFormat(d3.format(".0%")).tickSizeOuter(0));

  return {
    update(view) {
      const ms = duration();
      const r = view.result;
      // bands from the trace's cumulative probabilities (kept tokens come first, in order)
      const kept = r.candidates.filter((c) => c.kept);
      // (a listed token beyond the head, such as the chosen one, starts where its own mass begins)
      const data: Band[] = kept.map((c) => ({ c, from: Math.max(0, c.cum - c.p), to: c.cum }));
      const key = (d: Band): string => String(d.c.id);
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
        .attr("x", (d) => x(d.from))
        .attr("width", (d) => Math.max(0, x(d.to) - x(d.from)));
      bands
        .selectAll<SVGRectElement, Band>("rect")
        .selectAll("title")
        .data((d) => [d])
        .join("title")
        .text((d) => `${view.label(d.c.id)} · ${percent(d.c.p)}`);
      // a band's token is written inside it when there is room
      labels
        .selectAll<SVGTextElement, Band>("text")
        .data(data.filter((d) => x(d.to) - x(d.from) > textWidth(`${view.label(d.c.id)} ${percent(d.c.p)}`) + 6), key)
        .join("text")
        .attr("class", (d) => (d.c.id === view.chosenId ? "chosen" : ""))
        .attr("text-anchor", "middle")
        .attr("y", stripTop + stripH / 2 + 4)
        .text((d) => `${view.label(d.c.id)} ${percent(d.c.p)}`)
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
          .attr("text-anchor", at < 0.1 ? "start" : at > 0.9 ? "end" : "middle")
          .text(r.u === null ? texts.argmax : texts.u(r.u));
      }
    },
  };
}

/** Rough width of a band label in viewBox units (12–13px type; CJK characters are about twice as wide). */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) > 0x2e80 ? 13 : 7.5;
  return w;
}
