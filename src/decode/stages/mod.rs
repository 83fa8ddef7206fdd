//! The stages, one file each, named after the config key that controls them. Each takes the
//! working set and the resolved settings, removes what it removes, and reports what it did.
//! Which stages run, and in which order, is decided only in `decode::Decoder::run`.

pub(crate) mod epsilon_cutoff;
pub(crate) mod greedy;
pub(crate) mod logit_bias;
pub(crate) mod min_new_tokens;
pub(crate) mod min_p;
pub(crate) mod penalties;
pub(crate) mod temperature;
pub(crate) mod top_k;
pub(crate) mod top_p;
pub(crate) mod typical_p;

/// What a stage reports for the trace: its parameter as applied and the cut it became.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Applied {
    pub value: Option<f64>,
    pub threshold: Option<f64>,
}
