// The trace's JavaScript half. Rust hands over the scalars as one Float64Array, the names (engine,
// strategy, stages…) as one string, and each column as a view of wasm memory; the head, its
// stages and `chosen` are built here as object literals (one shape each, no key strings decoded
// per call), and every column is copied out, before any other call into the module can move that
// memory, into ONE fresh ArrayBuffer per call, of which each column is a view: one allocation
// instead of fifteen, and a caller who writes into a column changes only that call's result.
// `candidates` stays available as an array of objects, built from the columns on first read (and
// cached; the chosen token's entry is the `chosen` object itself), so callers who want objects still have them and callers who read columns (a full
// 8,000-candidate trace) never pay for 8,000 objects.

// Intrinsics captured once, so a caller cannot redirect them by patching prototypes later.
const defineProperty = Object.defineProperty;
const U32 = Uint32Array;
const F32 = Float32Array;
const F64 = Float64Array;
const U8 = Uint8Array;
const I8 = Int8Array;
const ArrayBufferCtor = ArrayBuffer;
const TypedArrayProto = Object.getPrototypeOf(U8.prototype);
const subarray = TypedArrayProto.subarray;
const setFrom = TypedArrayProto.set;
const split = String.prototype.split;
const ArrayCtor = Array;
const WeakMapCtor = WeakMap;
const weakGet = WeakMap.prototype.get;
const weakSet = WeakMap.prototype.set;
const weakHas = WeakMap.prototype.has;

/** removed_by codes in `columns.removed_by`: the stage's index in `stages`, or these. */
const KEPT = -1;
const BY_LOGITS = -2;

/** Each trace's `chosen` as it was built: the chosen token's place in `candidates` holds this very
 * object, so `r.candidates.includes(r.chosen)` and `indexOf` work as the docs promise. Kept
 * apart from the trace's own `chosen` property, which a caller may overwrite. */
const chosenOf = new WeakMapCtor();

/** The objects `candidates[i]` has always been, from the columns; the chosen token's is `chosen`. */
function candidateObjects(trace) {
  const c = trace.columns;
  const n = c.id.length;
  const out = new ArrayCtor(n);
  const chosen = weakGet.call(chosenOf, trace);
  const chosenId = chosen === undefined ? -1 : chosen.id;
  for (let i = 0; i < n; i++) {
    if (c.id[i] === chosenId) {
      out[i] = chosen;
      continue;
    }
    const by = c.removed_by[i];
    out[i] = {
      id: c.id[i],
      rank: c.rank[i],
      logit: c.logit[i],
      logit_processed: c.logit_processed[i],
      p_raw: c.p_raw[i],
      p_tempered: c.p_tempered[i],
      p: c.p[i],
      cum: c.cum[i],
      kept: c.kept[i] === 1,
      removed_by: by === KEPT ? null : by === BY_LOGITS ? "logits" : trace.stages[by].name,
    };
  }
  return out;
}

// `candidates`: one getter and setter for every trace (the same accessor pair, so every trace
// shares its shape), each trace's objects cached by the trace. A trace whose candidates were set
// reads what was set; set to null, they are built again from the columns.
const built = new WeakMapCtor();
const CANDIDATES = {
  enumerable: true,
  configurable: true,
  get() {
    let list = weakGet.call(built, this);
    if (list === undefined && !weakHas.call(built, this)) list = null;
    if (list === null) {
      list = candidateObjects(this);
      weakSet.call(built, this, list);
    }
    return list;
  },
  set(value) {
    weakSet.call(built, this, value);
  },
};

/** The names of the last trace, split: a run of steps repeats the same string. */
let lastNames = "";
let lastSplit = [];

/** An optional number: `present` 1 → `value`, 0 → null. */
const optional = (present, value) => (present === 1 ? value : null);

/** Byte offsets in one buffer: every f64 column first, then the 4-byte ones, then the bytes. */
function copyColumns(n, m, id, rank, logit, logitProcessed, pRaw, pTempered, p, cum, kept, removedBy, stagePIn, stageCumIn) {
  const f64At = 0;
  const b4At = 8 * (4 * n + 2 * m);
  const b1At = b4At + 4 * 4 * n;
  const buffer = new ArrayBufferCtor(b1At + 2 * n);
  const f64 = (k, len, from) => {
    const view = new F64(buffer, f64At + 8 * k, len);
    setFrom.call(view, from);
    return view;
  };
  const b4 = (Ctor, k, from) => {
    const view = new Ctor(buffer, b4At + 4 * k * n, n);
    setFrom.call(view, from);
    return view;
  };
  const b1 = (Ctor, k, from) => {
    const view = new Ctor(buffer, b1At + k * n, n);
    setFrom.call(view, from);
    return view;
  };
  return {
    columns: {
      id: b4(U32, 0, id),
      rank: b4(U32, 1, rank),
      logit: b4(F32, 2, logit),
      logit_processed: b4(F32, 3, logitProcessed),
      p_raw: f64(0, n, pRaw),
      p_tempered: f64(n, n, pTempered),
      p: f64(2 * n, n, p),
      cum: f64(3 * n, n, cum),
      kept: b1(U8, 0, kept),
      removed_by: b1(I8, 1, removedBy),
    },
    pIn: f64(4 * n, m, stagePIn),
    cumIn: f64(4 * n + m, m, stageCumIn),
  };
}

/**
 * Builds a trace (`StepResult`): the head from `s` (scalars, in trace.rs `scalars_of`'s order) and
 * `names`; `columns` (copies of the views, in one buffer); each stage's p_in and cum_in (views of
 * one flat column, `stageLens[i]` values each); and a lazy `candidates`. With a `holder` (the
 * Generator's token), the trace becomes its `trace` property. Returns the holder or the trace.
 */
export function columnar_trace(holder, s, names, id, rank, logit, logitProcessed, pRaw, pTempered, p, cum, kept, removedBy, stagePIn, stageCumIn, stageLens) {
  if (names !== lastNames) {
    lastNames = names;
    lastSplit = split.call(names, "\n");
  }
  const name = lastSplit;
  const n = id.length;
  const m = stagePIn.length;
  const { columns, pIn, cumIn } = copyColumns(n, m, id, rank, logit, logitProcessed, pRaw, pTempered, p, cum, kept, removedBy, stagePIn, stageCumIn);
  const stageCount = s[11];
  const stages = new ArrayCtor(stageCount);
  let k = 31; // the first stage's scalars (after the head's 12, u's 2, chosen's 10 and rest's 7)
  let at = 0;
  for (let i = 0; i < stageCount; i++, k += 7) {
    const len = stageLens[i];
    stages[i] = {
      name: name[4 + i],
      active: s[k] === 1,
      kept_count: s[k + 1],
      removed_count: s[k + 2],
      value: optional(s[k + 3], s[k + 4]),
      threshold: optional(s[k + 5], s[k + 6]),
      p_in: subarray.call(pIn, at, at + len),
      cum_in: subarray.call(cumIn, at, at + len),
    };
    at += len;
  }
  const head = {
    token: s[0],
    u: optional(s[12], s[13]),
    seed: s[1],
    draw: s[2],
    engine: name[0],
    strategy: name[1],
    temperature: s[3],
    vocab_size: s[4],
    kept_count: s[5],
    entropy_bits: s[6],
    raw_entropy_bits: s[7],
    stages,
    unlisted_kept_count: s[8],
    unlisted_mass: s[9],
    chosen_rank: s[10],
    chosen: {
      id: s[14],
      rank: s[15],
      logit: s[16],
      logit_processed: s[17],
      p_raw: s[18],
      p_tempered: s[19],
      p: s[20],
      cum: s[21],
      kept: s[22] === 1,
      removed_by: s[23] === 1 ? name[2] : null,
    },
  };
  if (s[24] === 1) {
    head.rest = {
      mass: s[25],
      exact: s[26] === 1,
      removed_by: s[27] === 1 ? name[3] : null,
      given: s[28],
      raw_entropy_bits_min: s[29],
      raw_entropy_bits_max: s[30],
    };
  }
  head.columns = columns;
  weakSet.call(chosenOf, head, head.chosen);
  defineProperty(head, "candidates", CANDIDATES);
  if (holder === undefined) return head;
  defineProperty(holder, "trace", { value: head, enumerable: true, writable: true, configurable: true });
  return holder;
}
