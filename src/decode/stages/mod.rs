//! The stages, one file each, named after the config key that controls them. Each takes the
//! working set and the resolved settings, removes what it removes, and reports what it did.
//! Which stages run, and in which order, is decided only in `decode::Decoder::run`.

pub(crate) mod dynatemp;
pub(crate) mod epsilon_cutoff;
pub(crate) mod eta_cutoff;
pub(crate) mod greedy;
pub(crate) mod logit_bias;
pub(crate) mod min_new_tokens;
pub(crate) mod min_p;
pub(crate) mod penalties;
pub(crate) mod temperature;
pub(crate) mod top_k;
pub(crate) mod top_p;
pub(crate) mod top_p_head;
pub(crate) mod typical_p;

/// What a stage reports for the trace: its parameter as applied and the cut it became.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Applied {
    pub value: Option<f64>,
    pub threshold: Option<f64>,
}

/// The smallest float32 `c` near `guess` with `passes(c)`, for a `passes` that is monotone in its
/// argument (an f64 test whose operations round monotonically): then `x >= c` is the same test as
/// `passes(x)` for every float32 x, and a plain comparison over contiguous values vectorises.
/// None if a few ulps of adjustment do not settle it (the caller then tests each value).
pub(crate) fn lowest_passing_f32(guess: f32, passes: impl Fn(f32) -> bool) -> Option<f32> {
    let mut c = guess;
    for _ in 0..64 {
        if !passes(c) {
            c = c.next_up();
        } else if passes(c.next_down()) && c.next_down() != c {
            c = c.next_down();
        } else {
            return Some(c);
        }
    }
    None
}

/// A seeded xorshift32 stream of uniforms in [0, 1) for the stages' unit tests.
#[cfg(test)]
pub(crate) fn test_uniforms(seed: u32) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        f64::from(state) / 4_294_967_296.0
    }
}
