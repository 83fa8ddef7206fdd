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
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings) -> Applied {
    let mut t = s.temperature;
    if s.dynatemp_range > 0.0 && work.kept.len() > 1 {
        let normalised = super::dynatemp::normalised_entropy(work);
        let min_t = (s.temperature - s.dynatemp_range).max(0.0);
        let max_t = s.temperature + s.dynatemp_range;
        t = min_t + (max_t - min_t) * normalised.powf(s.dynatemp_exponent);
        if t <= 0.0 {
            // A dynamic temperature of exactly 0 keeps only the maximum (llama.cpp divides by 0).
            t = f32::MIN_POSITIVE;
        }
    }
    work.inv_t = 1.0 / t;
    // (dynamic temperature's own T is reported as applied; a fixed one as the caller wrote it)
    let reported = if t == s.temperature {
        s.temperature_given
    } else {
        f64::from(t)
    };
    Applied {
        value: Some(reported),
        threshold: None,
    }
}
