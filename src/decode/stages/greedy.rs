//! greedy (贪心): keep only the most likely token, the lowest id among tied maxima.
//!
//! HF (`do_sample=False`) and vLLM (T < 1e-5) take the argmax of the penalised logits and skip
//! every warper; llama.cpp runs its filters first and its temperature sampler (T ≤ 0) keeps the
//! first maximum among the survivors.

use super::super::candidates::Work;
use super::Applied;

pub(crate) fn apply(work: &mut Work, stage: u8) -> Applied {
    work.keep_best(stage, 1);
    Applied::default()
}
