//! The final distribution: one pass turns the kept tokens into weights and order keys (draw.rs),
//! the entropy's sum and the sorted head the trace lists.

use super::candidates::Work;
use super::config::Settings;
use super::draw::{self, key, key_id};
use super::gathered;
use super::head::{
    heap_head, heap_head_by_exp, heap_head_gated, heap_head_gated_by_exp, heap_head_keys,
};
use super::softmax::{final_weight, logit_of, weights_into, weights_keys_and_sums, weights_sums};

/// What the final pass leaves: every kept token's key (in `Work::keys`, weights also in
/// `Work::scratch`), the ids of the best `head` candidates in order, and the entropy.
#[derive(Debug)]
pub(crate) struct FinalPass {
    /// Σ e·s over the kept tokens (s = scaled logit): with z it gives the entropy.
    pub weighted: f64,
    /// The first `min(trace_top, kept)` candidates, best first.
    pub head: Vec<u32>,
    /// Whether `Work::draw_tables` holds the draw's bucket tables of these keys (draw.rs `tally`).
    pub counted: bool,
    /// When the tables hold only the keys at or above the draw's gate: how many there are (the
    /// first ones of the `gated` buffer passed in, in id order).
    pub gated: Option<usize>,
    /// The draw, when it landed among the best keys (draw.rs `within_head`): then no key was
    /// tallied.
    pub drawn: Option<draw::Drawn>,
}

/// A draw follows the final pass: the least key it can reach (draw.rs `gate`) and where the
/// keys at or above it go, in id order (reused between calls).
#[derive(Debug)]
pub(crate) struct Gate<'a> {
    pub gate: u64,
    pub gated: &'a mut Vec<u64>,
    /// u·z and z: where the draw lands.
    pub target: f64,
    pub z: f64,
}

/// The best keys a flat distribution's draw is first looked for among (draw.rs `within_head`)
/// before every key is tallied: at least this many.
const DRAW_HEAD: usize = 32;

/// Above this head length a selection over the keys beats a heap.
const HEAP_HEAD_MAX: usize = 256;

/// One pass over the kept tokens at (max, inv_t): weights into `scratch`, keys into `keys`, the
/// entropy sum, and the `head_len` best keys (a small heap rejects almost every key with one
/// comparison; long heads are selected and sorted instead).
/// `ready`: Σ e·s when a pass already summed every weight (temperature the only stage,
/// softmax::raw_and_final, or the patched raw sums); then only the head is picked here.
/// `draws`: a draw follows (not greedy); then the same read of the keys fills the draw's bucket
/// tables when it uses them (`FinalPass::counted`), so the draw reads the keys once instead of
/// twice. Weights stored nowhere yet (`Work::weights_by_exp`) stay so when the draw's gate lets
/// few through (`gated_by_exp`); otherwise the keys are written first.
pub(crate) fn final_pass(
    work: &mut Work,
    max: f32,
    inv_t: f32,
    head_len: usize,
    ready: Option<f64>,
    mut draws: Option<Gate<'_>>,
) -> FinalPass {
    if let (Some(scale), Some(weighted), Some(d)) = (work.weights_by_exp, ready, draws.as_mut()) {
        let n = work.processed.len();
        if draw::uses_tables(n) && head_len <= HEAP_HEAD_MAX && few_pass_by_exp(work, scale, d.gate)
        {
            return gated_by_exp(work, scale, head_len, weighted, d);
        }
    }
    work.materialise_keys();
    let mut keys = std::mem::take(&mut work.keys);
    let weighted = if let Some(sum) = ready {
        sum
    } else if work.all_kept && work.input_removed == 0 {
        keys.clear();
        keys.reserve(work.kept.len());
        // Every id is kept: contiguous passes that vectorise (weights, then keys).
        let n = work.processed.len();
        let out = work.scratch.get_mut(..n).unwrap_or_default();
        let weighted = weights_into(&work.processed, max, inv_t, out);
        keys.extend(
            out.iter()
                .enumerate()
                .map(|(i, &e)| key(e as f32, i as u32)),
        );
        weighted
    } else {
        gathered::weights_and_keys(work, max, inv_t, &mut keys).1
    };
    let counted = draws.is_some() && draw::uses_tables(keys.len());
    let mut tables = std::mem::take(&mut work.draw_tables);
    if counted {
        draw::clear_tables(&mut tables);
    }
    let small_head = head_len <= HEAP_HEAD_MAX;
    let mut gated_len = None;
    let mut drawn = None;
    let aim = draws.as_ref().map(|d| (d.target, d.z));
    let head = if small_head {
        let draws = draws.filter(|_| counted);
        if let Some(Gate { gate, gated, .. }) =
            draws.filter(|d| few_pass(keys.iter().copied(), d.gate))
        {
            // Only the keys the draw can reach are tallied (draw.rs `gate`): on a peaked
            // distribution a few per cent, copied out as the heap reads them.
            if gated.len() < keys.len() {
                gated.resize(keys.len(), 0);
            }
            let (head, len) = heap_head_gated(&keys, head_len, gate, gated);
            for (i, &k) in gated.get(..len).unwrap_or_default().iter().enumerate() {
                draw::tally(&mut tables, i, k);
            }
            gated_len = Some(len);
            head
        } else if let (true, Some((target, z))) = (counted, aim) {
            // Many keys pass the gate (a flat distribution): the best ones first, since the draw
            // lands among them more often than not; every key is tallied only when it does not.
            let best = heap_head_keys(&keys, head_len.max(DRAW_HEAD));
            drawn = within_head_or_tally(&best, &keys, &mut tables, (target, z));
            best.iter().take(head_len).map(|&k| key_id(k)).collect()
        } else {
            heap_head(&keys, head_len)
        }
    } else {
        let mut copy = keys.clone();
        let n = head_len.min(copy.len());
        if n < copy.len() {
            copy.select_nth_unstable_by(n, |a, b| b.cmp(a));
        }
        let mut best = copy.get(..n).unwrap_or_default().to_vec();
        best.sort_unstable_by(|a, b| b.cmp(a));
        if let (true, Some(aim)) = (counted, aim) {
            drawn = within_head_or_tally(&best, &keys, &mut tables, aim);
        }
        best.into_iter().map(key_id).collect()
    };
    work.draw_tables = tables;
    work.keys = keys;
    FinalPass {
        weighted,
        head,
        counted,
        gated: gated_len,
        drawn,
    }
}

/// The draw when it lands among `best` (draw.rs `within_head`); otherwise every key goes into
/// the draw's bucket tables (`tally`) for the draw to walk, and None.
fn within_head_or_tally(
    best: &[u64],
    keys: &[u64],
    tables: &mut [u64],
    (target, z): (f64, f64),
) -> Option<draw::Drawn> {
    let drawn = draw::within_head(best, target, z);
    if drawn.is_none() {
        for (i, &k) in keys.iter().enumerate() {
            draw::tally(tables, i, k);
        }
    }
    drawn
}

/// Whether few enough keys pass the draw's gate for the gated read to pay (at most one in eight
/// of the first 4,096; a flatter distribution, T 1.5, passes a third, and copying those out
/// costs more than tallying every key): only a matter of speed, the draw is the same either way.
fn few_pass(keys: impl ExactSizeIterator<Item = u64>, gate: u64) -> bool {
    let sample = keys.take(FEW_PASS_SAMPLE);
    let len = sample.len();
    let passed: usize = sample.map(|k| usize::from(k >= gate)).sum();
    passed * 8 <= len
}

/// How many of the first keys `few_pass` reads.
const FEW_PASS_SAMPLE: usize = 4096;

/// Whether the one-read first pass over a whole vocabulary at one temperature (softmax
/// `raw_and_final`) should write every key, from the first ones it wrote (`first`, whose weights
/// sum to `z_first`): when no single draw follows (`u` None: many draws read every key), the
/// listing ranks asked-for ids, the head is long, the list short, or the draw's gate at z_first
/// lets many of them through. z_first ≤ z, so that gate is at or below the draw's own, and when
/// few of the first keys pass it, few pass the draw's (`few_pass_by_exp` agrees): the final
/// pass reads only those, computed again (`gated_by_exp`). Only speed depends on this; a peaked
/// distribution whose mass lies past the first ids is sent the stored keys' way.
pub(crate) fn store_keys(
    u: Option<f64>,
    s: &Settings,
    n: usize,
    first: &[u64],
    z_first: f64,
) -> bool {
    match gated_draw(u, s, n) {
        Some(u) if !first.is_empty() => !few_pass(first.iter().copied(), draw::gate(u, z_first, n)),
        _ => true,
    }
}

/// u, when one draw follows over `n` kept tokens that a final pass may read gated (a short
/// head, no ids to rank, the draw's tables in use): only then can weights stay stored nowhere.
pub(crate) fn gated_draw(u: Option<f64>, s: &Settings, n: usize) -> Option<f64> {
    u.filter(|_| {
        s.trace_ids.is_empty() && s.trace_top.min(n) <= HEAP_HEAD_MAX && draw::uses_tables(n)
    })
}

/// `few_pass` over the keys of weights stored nowhere (`Work::weights_by_exp`): the same count,
/// each key computed from its logit.
fn few_pass_by_exp(work: &Work, (max, inv_t): (f32, f32), gate: u64) -> bool {
    let sample = work.processed.get(..4096).unwrap_or(&work.processed);
    let passed: usize = sample
        .iter()
        .enumerate()
        .map(|(i, &l)| usize::from(key(final_weight(l, max, inv_t), i as u32) >= gate))
        .sum();
    passed * 8 <= sample.len()
}

/// The final pass over weights stored nowhere, when few keys pass the draw's gate: the head and
/// the gated keys in one read of the logits (head.rs `heap_head_gated_by_exp`), tallied as the
/// stored keys' gated read tallies them. The keys stay unwritten (`Work::materialise_keys` if a
/// reader of every key needs them later).
fn gated_by_exp(
    work: &mut Work,
    scale: (f32, f32),
    head_len: usize,
    weighted: f64,
    d: &mut Gate<'_>,
) -> FinalPass {
    let n = work.processed.len();
    // The penalties' raw pass remembered every weight (refreshed where they changed logits).
    let remembered = work.exps.hit(scale.0, scale.1, work.holes.is_empty());
    // The best keys first (a read that takes the exps of the few groups that can reach them):
    // the draw lands among them more often than not, and then no key is tallied or copied.
    let best = heap_head_by_exp(
        &work.processed,
        scale,
        remembered,
        &work.holes,
        head_len.max(DRAW_HEAD),
    );
    if let Some(drawn) = draw::within_head(&best, d.target, d.z) {
        return FinalPass {
            weighted,
            head: best.iter().take(head_len).map(|&k| key_id(k)).collect(),
            counted: true,
            gated: None,
            drawn: Some(drawn),
        };
    }
    if d.gated.len() < n {
        d.gated.resize(n, 0);
    }
    let (head, len) = heap_head_gated_by_exp(
        &work.processed,
        scale,
        remembered,
        &work.holes,
        head_len,
        d.gate,
        d.gated,
    );
    let tables = &mut work.draw_tables;
    draw::clear_tables(tables);
    for (i, &k) in d.gated.get(..len).unwrap_or_default().iter().enumerate() {
        draw::tally(tables, i, k);
    }
    FinalPass {
        weighted,
        head,
        counted: true,
        gated: Some(len),
        drawn: None,
    }
}

/// `store_keys`' test on the first 4,096 kept ids (`kept` in id order): whether few of their
/// keys pass the gate a draw at `u` would have over a lower bound of z (their sum, or the max's
/// weight when the mass lies past them): a gate at or below the draw's own. The logits, then
/// their weights, then the keys' test, each in a loop of its own, so the exps vectorise (one
/// loop building each key from its exp took an eighth of a floor on a held-back end id's step).
#[inline(never)]
fn few_pass_first(work: &Work, max: f32, inv_t: f32, u: f64) -> bool {
    let ids = work.kept.get(..FEW_PASS_SAMPLE).unwrap_or(&work.kept);
    let mut weights = [0.0f32; FEW_PASS_SAMPLE];
    let weights = weights.get_mut(..ids.len()).unwrap_or_default();
    for (w, &id) in weights.iter_mut().zip(ids) {
        *w = logit_of(&work.processed, id);
    }
    for w in weights.iter_mut() {
        *w = final_weight(*w, max, inv_t);
    }
    // z is at least the max's own weight (e^0), wherever the max is.
    let at_max = f64::from(final_weight(max, max, inv_t));
    let z_first = weights
        .iter()
        .map(|&w| f64::from(w))
        .sum::<f64>()
        .max(at_max);
    let keys = weights.iter().zip(ids).map(|(&w, &id)| key(w, id));
    few_pass(keys, draw::gate(u, z_first, work.kept.len()))
}

/// When every finite id is still kept, nothing is −inf and the normaliser is not known yet (a
/// bias or the penalties changed logits): the weights, keys, z and Σ e·s in one pass; z is
/// handed to `work` as its normaliser. Returns Σ e·s for `final_pass`'s `ready`, or None (then
/// the normaliser and the final pass compute what they need as before). After a removal the
/// same, through `kept`; but when a few ids were removed from an id-ordered list (bans, an end
/// id held back) and few of the first keys pass the draw's gate (`gated`: `gated_draw`'s u),
/// only z and Σ e·s: the weights stay stored nowhere, the removed ids as `Work::holes`; with
/// every id kept (the dynamic temperature, the penalties at T ≠ 1), likewise with no holes.
pub(crate) fn with_normaliser(work: &mut Work, gated: Option<f64>) -> Option<f64> {
    if work.all_kept {
        // The raw pass's sums are the final ones but for a few blocks (softmax/patched.rs).
        let max = work.max_logit();
        if let Some((z, weighted)) = work.raw_blocks_sums(max) {
            work.weights_by_exp = Some((max, 1.0));
            // A normaliser already known stays: nothing changed since it was summed, and the
            // raw pass's (nothing changed at all) adds a tail of n mod 8 in its own order.
            if !work.has_normaliser() {
                work.seed_normaliser(z, max);
            }
            return Some(weighted);
        }
    }
    if work.has_normaliser() {
        return None;
    }
    if !work.all_kept {
        // A stage removed tokens: the normaliser is summed over `kept` in its order (as
        // `Work::normaliser` sums it), from the same exps the weights are.
        let max = work.max_logit();
        let inv_t = work.inv_t;
        let holes = gated
            .and_then(|u| gathered::holes(&work.kept, work.processed.len()).map(|h| (u, h)))
            .filter(|(u, _)| few_pass_first(work, max, inv_t, *u));
        let (z, weighted) = if let Some((_, holes)) = holes {
            work.holes = holes;
            work.weights_by_exp = Some((max, inv_t));
            work.raw_blocks_sums(max)
                .unwrap_or_else(|| gathered::sums(work, max, inv_t))
        } else {
            let mut keys = std::mem::take(&mut work.keys);
            let sums = gathered::weights_and_keys(work, max, inv_t, &mut keys);
            work.keys = keys;
            // The same z whichever way the weights are read.
            work.raw_blocks_sums(max).unwrap_or(sums)
        };
        work.set_normaliser(z, max);
        return Some(weighted);
    }
    if work.input_removed != 0 {
        return None;
    }
    let max = work.max_logit();
    let inv_t = work.inv_t;
    if gated.is_some_and(|u| few_pass_first(work, max, inv_t, u)) {
        // Few keys pass the draw's gate (a peaked distribution): the sums alone; the final pass
        // computes the few weights it reads again, as after a few removals (above).
        let cached = work.exps.hit(max, inv_t, true);
        let (z, weighted) = weights_sums(&work.processed, max, inv_t, cached);
        work.weights_by_exp = Some((max, inv_t));
        work.seed_normaliser(z, max);
        return Some(weighted);
    }
    let n = work.processed.len();
    let mut keys = std::mem::take(&mut work.keys);
    let out = work.scratch.get_mut(..n).unwrap_or_default();
    let cached = work.exps.hit(max, work.inv_t, true);
    let (z, weighted) =
        weights_keys_and_sums(&work.processed, max, work.inv_t, cached, out, &mut keys);
    work.keys = keys;
    work.seed_normaliser(z, max);
    Some(weighted)
}
