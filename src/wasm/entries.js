// An object of numbers (a logit_bias, most configs), as boundary.js's `snapshot_tree` hands it to
// Rust: its keys joined by KEY_SEPARATOR, in order, and its values in one Float64Array, which
// read.rs `value_of` reads in two calls instead of about eight per entry.

/** What joins the keys; an object with a key holding it goes the general way. */
export const KEY_SEPARATOR = "\u0000";

export class NumberEntries {
  constructor(keys, numbers) {
    this.keys = keys;
    this.numbers = numbers;
  }
}
