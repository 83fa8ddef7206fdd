// A chart as a self-contained SVG file: the drawn elements with their computed styles written
// inline, the page's background behind them, and nothing that refers outside the file (no
// stylesheet, class rules, fonts or links), so it opens anywhere and pastes into slides as drawn.

const SVG_NS = "http://www.w3.org/2000/svg";

/** The presentation properties the charts' stylesheet sets; each is copied as computed. */
const PROPERTIES = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "stroke-linejoin",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "paint-order",
] as const;

/** Interaction layers that draw nothing (transparent hit areas). */
const DROP = ".hits, .hit";

/** The SVG text of `svg` as drawn now, titled `title`. */
export function svgFile(svg: SVGSVGElement, title: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  copyStyles(svg, clone);
  for (const node of clone.querySelectorAll(DROP)) node.remove();
  for (const node of [clone, ...clone.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      if (/^(class|tabindex|role|aria-.*|data-.*|on.*)$/.test(attr.name)) node.removeAttribute(attr.name);
    }
  }
  const box = svg.viewBox.baseVal;
  clone.setAttribute("xmlns", SVG_NS);
  clone.setAttribute("width", String(box.width));
  clone.setAttribute("height", String(box.height));
  clone.style.setProperty("overflow", "visible");
  const name = document.createElementNS(SVG_NS, "title");
  name.textContent = title;
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("x", String(box.x));
  background.setAttribute("y", String(box.y));
  background.setAttribute("width", String(box.width));
  background.setAttribute("height", String(box.height));
  background.style.setProperty("fill", backgroundOf(svg));
  clone.prepend(name, background);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

/** Walk the original and the clone together; hidden elements are dropped, the rest styled inline. */
function copyStyles(from: Element, to: Element): void {
  const style = getComputedStyle(from);
  if (style.display === "none" || style.visibility === "hidden") {
    to.remove();
    return;
  }
  if (to instanceof SVGElement) {
    for (const property of PROPERTIES) to.style.setProperty(property, style.getPropertyValue(property));
  }
  const a = [...from.children];
  const b = [...to.children];
  a.forEach((child, i) => {
    const twin = b[i];
    if (twin !== undefined) copyStyles(child, twin);
  });
}

/** The first opaque background behind the chart on the page (white if none). */
function backgroundOf(el: Element): string {
  for (let node: Element | null = el; node !== null; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (colour !== "" && colour !== "transparent" && !/rgba\(.*,\s*0\)$/.test(colour)) return colour;
  }
  return "#ffffff";
}
