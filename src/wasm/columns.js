// The trace's JavaScript half: the candidates arrive as columns. Rust passes each column as a view
// of wasm memory; each is copied out here in one typed-array copy, before any other call into the
// module can move that memory. `candidates` stays available as an array of objects, built from
// the columns on first read (and cached), so callers who want objects still have them and callers
// who read columns (a full 8,000-candidate trace) never pay for 8,000 objects.

// Intrinsics captured once, so a caller cannot redirect them by patching prototypes later.
const defineProperty = Object.defineProperty;
const U32 = Uint32Array;
const F32 = Float32Array;
const F64 = Float64Array;
const U8 = Uint8Array;
const I8 = Int8Array;
const subarray = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), "subarray").value;
const ArrayCtor = Array;

/** removed_by codes in `columns.removed_by`: the stage's index in `stages`, or these. */
const KEPT = -1;
const BY_LOGITS = -2;

/** The objects `candidates[i]` has always been, from the columns. */
function candidateObjects(trace) {
  const c = trace.columns;
  const n = c.id.length;
  const out = new ArrayCtor(n);
  for (let i = 0; i < n; i++) {
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

/**
 * Completes a trace: `head` (everything but the candidates and the stages' p_in / cum_in, already
 * a fresh object) gets `columns` (copies of the views), each stage its p_in and cum_in (slices of
 * one flat column, `stageLens[i]` values each), and a lazy `candidates`. With a `holder` (the
 * Generator's token), the trace becomes its `trace` property. Returns the holder or the trace.
 */
export function columnar_trace(head, holder, id, rank, logit, logitProcessed, pRaw, pTempered, p, cum, kept, removedBy, stagePIn, stageCumIn, stageLens) {
  const columns = {
    id: new U32(id),
    rank: new U32(rank),
    logit: new F32(logit),
    logit_processed: new F32(logitProcessed),
    p_raw: new F64(pRaw),
    p_tempered: new F64(pTempered),
    p: new F64(p),
    cum: new F64(cum),
    kept: new U8(kept),
    removed_by: new I8(removedBy),
  };
  defineProperty(head, "columns", { value: columns, enumerable: true, writable: true, configurable: true });
  const pIn = new F64(stagePIn);
  const cumIn = new F64(stageCumIn);
  let at = 0;
  for (let i = 0; i < stageLens.length; i++) {
    const len = stageLens[i];
    const stage = head.stages[i];
    defineProperty(stage, "p_in", { value: subarray.call(pIn, at, at + len), enumerable: true, writable: true, configurable: true });
    defineProperty(stage, "cum_in", { value: subarray.call(cumIn, at, at + len), enumerable: true, writable: true, configurable: true });
    at += len;
  }
  let cache = null;
  defineProperty(head, "candidates", {
    enumerable: true,
    configurable: true,
    get() {
      if (cache === null) cache = candidateObjects(head);
      return cache;
    },
    set(value) {
      cache = value;
    },
  });
  if (holder === undefined) return head;
  defineProperty(holder, "trace", { value: head, enumerable: true, writable: true, configurable: true });
  return holder;
}
