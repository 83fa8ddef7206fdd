// A label's rough width before it is drawn, for placing it without a layout: Han and other wide
// characters (from U+2E80) count `wide`, every other character `narrow`. Each chart passes its own
// units for its own type.

/** The sum over `text`'s characters of `wide` (U+2E80 and above) or `narrow` (the rest). */
export function textUnits(text: string, wide: number, narrow: number): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) > 0x2e80 ? wide : narrow;
  return w;
}
