// The page's number formatting without the locale machinery (format.ts `grouped`): the same text
// as `toLocaleString("en-US")`, which it replaces because ICU's first use costs tens of ms while
// the page opens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importTs } from "./ts.mjs";

const { grouped } = await importTs("format", `export { grouped } from "./format";`);

test("grouped writes every count as toLocaleString('en-US') does", () => {
  const values = [0, -0, 1, 7, 12, 999, 1000, 1001, 7999, 8000, 12345, 151936, 999999, 1000000, 1234567890, -1, -1000, -987654321, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
  for (let k = 0; k < 200; k++) values.push(Math.floor(Math.random() * 10 ** (k % 16)));
  // not whole counts: left to toLocaleString itself
  values.push(0.5, 1234.5678, 2 ** 60, NaN, Infinity, -Infinity);
  for (const n of values) assert.equal(grouped(n), n.toLocaleString("en-US"), `value ${n}`);
});
