//! temperature (温度) T: divides the logits by T before softmax; T < 1 sharpens, T > 1 flattens.
//! Default 1 (off); 0 means greedy. Position: HF and vLLM first, llama.cpp last (so its filters
//! see T = 1). vLLM raises (0, 0.01) to 0.01 (config does that). llama.cpp's dynamic temperature
//! (`dynatemp_range` d > 0) picks T' = max(0, T − d) + 2d·(H / ln N)^exponent from the entropy H
//! of the N current candidates (llama-sampler.cpp, `llama_sampler_temp_ext_apply`).
//!
//! Scaling is applied as (l − max)/T inside every exp, never as l/T: float32 l/T overflows for
//! |l| ≈ 3e38 and T = 0.1, where HF fails.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::softmax::weight;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings) -> Applied {
    let mut t = s.temperature;
    if s.dynatemp_range > 0.0 && work.kept.len() > 1 {
        let (z, max) = work.normaliser();
        let mut entropy = 0.0f64;
        for &id in &work.kept {
            if let Some(&l) = work.processed.get(id as usize) {
                let p = weight(l, max, work.inv_t) / z;
                if p > 0.0 {
                    entropy -= p * p.ln();
                }
            }
        }
        let max_entropy = (work.kept.len() as f64).ln();
        let min_t = (s.temperature - s.dynatemp_range).max(0.0);
        let max_t = s.temperature + s.dynatemp_range;
        let normalised = (entropy / max_entropy) as f32;
        t = min_t + (max_t - min_t) * normalised.powf(s.dynatemp_exponent);
        if t <= 0.0 {
            // A dynamic temperature of exactly 0 keeps only the maximum (llama.cpp divides by 0).
            t = f32::MIN_POSITIVE;
        }
    }
    work.inv_t = 1.0 / t;
    Applied {
        value: Some(f64::from(t)),
        threshold: None,
    }
}
