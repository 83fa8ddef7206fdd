// The vocabulary's JavaScript half: every entry crosses as one string with the UTF-16 offset where
// each ends, and is cut here. Decoding 8,000 short strings one by one cost the page more than
// this whole list.

// Captured once, so a caller cannot redirect it by patching the prototype later.
const slice = String.prototype.slice;
const call = Function.prototype.call;
const ArrayCtor = Array;

/** `text` cut at `ends` (UTF-16 offsets, ascending): entry i is text[ends[i − 1] .. ends[i]]. */
export function split_vocab(text, ends) {
  const out = new ArrayCtor(ends.length);
  let at = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = call.call(slice, text, at, ends[i]);
    at = ends[i];
  }
  return out;
}
