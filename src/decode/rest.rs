//! `rest_mass`: logits that cover only the top of the vocabulary (a model server asked for its
//! top N), the other tokens together holding probability `rest_mass` (1 − Σ p of those given).
//! The given logits are then log-probabilities; unlisted ids are −inf in the input because they
//! are unknown, not impossible.
//!
//! What stays exact (`Trace::rest`): each given token's `p_raw` is its probability over the whole
//! vocabulary (the plain softmax scaled by 1 − rest_mass, never renormalised over the listed
//! tokens). Every later stage and the draw run over the given tokens only; `exact` says whether
//! the final `p` (and so the draw) still equals what the full vocabulary would give. It does
//! when a rank or ratio cut (top-k, min-p, greedy) removed the least likely given token: every
//! unknown token is at most as likely, so it would have been removed too, and what is left is
//! entirely known. It does not when a stage whose decision depends on the unknown tail (top-p,
//! typical-p, epsilon and eta cutoff: they need the normaliser) or that moves logits (logit_bias,
//! penalties) ran while the tail was still in play, or when the tail is still in play at the end.

use serde::Serialize;

use super::error::StepError;
use super::trace::StageKind;

/// What the trace says about logits that leave out the rest of the vocabulary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rest {
    /// The probability of every token not given (the `rest_mass` of the config).
    pub mass: f64,
    /// Whether the final `p` of every candidate equals the full vocabulary's (see the module doc);
    /// `p_raw` is exact either way.
    pub exact: bool,
    /// The stage that provably removed every token not given (top-k, min-p or greedy cut below
    /// the least likely given token), when `exact`; null otherwise. The draw never lands on a
    /// token not given: it runs over the given tokens (so when not `exact`, their final `p` is
    /// over the given tokens only).
    pub removed_by: Option<&'static str>,
    /// How many tokens were given (finite logits): `kept_count` and `entropy_bits` are over
    /// these when not `exact`.
    pub given: usize,
    /// Bounds on the raw (T = 1) entropy of the whole vocabulary, in bits. The given tokens'
    /// share is exact; the rest holds `mass` spread over the other ids, none more likely than
    /// the least likely given token: at least mass·log2(1/p_min), at most mass·log2(m/mass)
    /// for m tokens not given. (`raw_entropy_bits` covers the given tokens only.)
    pub raw_entropy_bits_min: f64,
    pub raw_entropy_bits_max: f64,
}

/// What the stages did to the tokens not given: whether the final `p` is exact, and which
/// stage removed them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fate {
    pub exact: bool,
    pub removed_by: Option<StageKind>,
}

/// Bounds on the whole vocabulary's raw entropy (bits) from what is given: `given_bits` the
/// entropy of the given tokens renormalised among themselves, `mass` the rest, `p_min` the least
/// likely given token's probability over the whole vocabulary, `unlisted` the number of ids not
/// given. Each unknown token has p ≤ p_min, so −log2 p ≥ −log2 p_min (the lower bound), and
/// mass spread evenly over `unlisted` ids is the most entropy it can carry (the upper bound).
pub(crate) fn entropy_bounds(
    given_bits: f64,
    mass: f64,
    p_min: f64,
    unlisted: usize,
) -> (f64, f64) {
    let known = 1.0 - mass;
    // −Σ q log2 q for q = known·p: known·(H_given − log2 known)
    let given_part = if known > 0.0 {
        known * (given_bits - known.log2())
    } else {
        0.0
    };
    if mass <= 0.0 || unlisted == 0 {
        return (given_part, given_part);
    }
    let low = if p_min > 0.0 {
        -mass * p_min.log2()
    } else {
        0.0
    };
    let high = mass * (unlisted as f64 / mass).log2();
    // a server whose rest cannot fit under its least likely token (mass > unlisted · p_min)
    // contradicts itself; the bounds then still hold in order
    (given_part + low.min(high), given_part + low.max(high))
}

/// Checks the `rest_mass` key: a number in [0, 1).
pub(crate) fn check(rest_mass: Option<f64>) -> Result<Option<f64>, StepError> {
    match rest_mass {
        None => Ok(None),
        Some(r) if (0.0..1.0).contains(&r) => Ok(Some(r)),
        Some(r) => Err(StepError::OutOfRange {
            field: "rest_mass".into(),
            allowed: super::ranges::range("rest_mass", super::engine::Engine::Hf)
                .unwrap_or_default()
                .into(),
            got: super::value::format_number(r),
        }),
    }
}

/// One stage as applied: its kind, whether it ran, and its cut (top-k: the k-th logit).
pub(crate) struct Ran {
    pub kind: StageKind,
    pub active: bool,
    pub threshold: Option<f64>,
}

/// Follows the unknown tail through the stages. `lowest` is the least likely given token's raw
/// logit and the stage that removed it (None: kept).
pub(crate) fn assess(mass: f64, stages: &[Ran], lowest: (f32, Option<StageKind>)) -> Fate {
    let mut in_play = mass > 0.0;
    let mut exact = true;
    let mut removed_by = None;
    for stage in stages.iter().filter(|s| s.active) {
        if !in_play {
            break;
        }
        match stage.kind {
            StageKind::MinNewTokens | StageKind::Temperature => {}
            StageKind::LogitBias
            | StageKind::Penalties
            | StageKind::TopP
            | StageKind::TypicalP
            | StageKind::EpsilonCutoff
            | StageKind::EtaCutoff => exact = false,
            StageKind::TopK => {
                // A tie at the k-th logit could let an unknown token in: the cut must be strictly above.
                let above = stage.threshold.is_some_and(|t| t > f64::from(lowest.0));
                if lowest.1 == Some(StageKind::TopK) && above {
                    in_play = false;
                    removed_by = Some(stage.kind);
                }
            }
            StageKind::MinP | StageKind::Greedy => {
                if lowest.1 == Some(stage.kind) {
                    in_play = false;
                    removed_by = Some(stage.kind);
                }
            }
        }
    }
    let exact = exact && !in_play;
    Fate {
        exact,
        removed_by: if exact { removed_by } else { None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(kind: StageKind, threshold: Option<f64>) -> Ran {
        Ran {
            kind,
            active: true,
            threshold,
        }
    }

    #[test]
    fn a_cut_below_the_top_n_makes_the_rest_irrelevant() {
        let top_k = [ran(StageKind::TopK, Some(2.0)), ran(StageKind::TopP, None)];
        assert!(assess(0.1, &top_k, (-3.0, Some(StageKind::TopK))).exact);
        // top-k kept the least likely given token: unknown tokens may belong in the top k.
        assert!(!assess(0.1, &top_k, (-3.0, None)).exact);
        // a tie at the cut: not provably exact
        assert!(!assess(0.1, &top_k, (2.0, Some(StageKind::TopK))).exact);
        let greedy = [ran(StageKind::Greedy, None)];
        assert!(assess(0.4, &greedy, (-9.0, Some(StageKind::Greedy))).exact);
    }

    #[test]
    fn stages_that_need_the_tail_are_not_exact_while_it_is_in_play() {
        let top_p_first = [ran(StageKind::TopP, None), ran(StageKind::TopK, Some(1.0))];
        assert!(!assess(0.1, &top_p_first, (-3.0, Some(StageKind::TopK))).exact);
        let penalties = [
            ran(StageKind::Penalties, None),
            ran(StageKind::Greedy, None),
        ];
        assert!(!assess(0.1, &penalties, (-3.0, Some(StageKind::Greedy))).exact);
        assert!(
            !assess(0.1, &[], (-3.0, None)).exact,
            "plain sampling over the top N"
        );
        assert!(assess(0.0, &[], (-3.0, None)).exact, "nothing left out");
    }

    /// The top 3 of a distribution whose other tokens hold 0.1, as a server would give them.
    fn top3() -> Vec<f32> {
        vec![0.5f32.ln(), 0.3f32.ln(), 0.1f32.ln(), f32::NEG_INFINITY]
    }

    fn traced(config: crate::decode::Config) -> crate::decode::Trace {
        let config = crate::decode::Config {
            rest_mass: Some(0.1),
            seed: Some(1),
            ..config
        };
        crate::decode::step(&top3(), &config).unwrap()
    }

    #[test]
    fn p_raw_is_the_whole_vocabulary_probability_never_renormalised() {
        let t = traced(crate::decode::Config::default());
        let p_raw: Vec<f64> = t
            .candidates
            .iter()
            .filter(|c| c.id < 3)
            .map(|c| c.p_raw)
            .collect();
        for (got, want) in p_raw.iter().zip([0.5, 0.3, 0.1]) {
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
        let rest = t.rest.expect("rest_mass was given");
        assert_eq!(
            (rest.mass, rest.exact, rest.removed_by, rest.given),
            (0.1, false, None, 3),
            "plain sampling over the top 3"
        );
        // one unknown token holding 0.1: both bounds are the whole vocabulary's entropy
        let whole = -[0.5f64, 0.3, 0.1, 0.1]
            .iter()
            .map(|p| p * p.log2())
            .sum::<f64>();
        assert!(
            (rest.raw_entropy_bits_min - whole).abs() < 1e-6,
            "{rest:?} vs {whole}"
        );
        assert!(
            (rest.raw_entropy_bits_max - whole).abs() < 1e-6,
            "{rest:?} vs {whole}"
        );
        assert!(
            t.raw_entropy_bits < whole,
            "raw_entropy_bits covers the given tokens only"
        );
    }

    #[test]
    fn the_trace_says_when_the_final_p_is_exact() {
        use crate::decode::{Config, Strategy};
        let exact = |c: Config| traced(c).rest.map(|r| r.exact);
        assert_eq!(
            exact(Config {
                strategy: Some(Strategy::Greedy),
                ..Config::default()
            }),
            Some(true)
        );
        assert_eq!(
            exact(Config {
                top_k: Some(2),
                ..Config::default()
            }),
            Some(true)
        );
        assert_eq!(
            exact(Config {
                top_k: Some(3),
                ..Config::default()
            }),
            Some(false)
        );
        assert_eq!(
            exact(Config {
                top_p: Some(0.7),
                ..Config::default()
            }),
            Some(false)
        );
        assert_eq!(
            exact(Config {
                min_p: Some(0.5),
                ..Config::default()
            }),
            Some(true)
        );
        let no_rest = crate::decode::step(
            &top3(),
            &Config {
                seed: Some(1),
                ..Config::default()
            },
        )
        .unwrap();
        assert_eq!(no_rest.rest, None);
    }

    #[test]
    fn the_stage_that_removed_the_rest_is_named() {
        use crate::decode::{Config, Strategy};
        let by = |c: Config| traced(c).rest.and_then(|r| r.removed_by);
        assert_eq!(
            by(Config {
                top_k: Some(2),
                ..Config::default()
            }),
            Some("top_k")
        );
        assert_eq!(
            by(Config {
                strategy: Some(Strategy::Greedy),
                ..Config::default()
            }),
            Some("greedy")
        );
        assert_eq!(
            by(Config {
                min_p: Some(0.5),
                ..Config::default()
            }),
            Some("min_p")
        );
        assert_eq!(by(Config::default()), None, "still in play at the end");
        assert_eq!(
            by(Config {
                repetition_penalty: Some(1.3),
                history: Some(vec![0]),
                top_k: Some(2),
                ..Config::default()
            }),
            None,
            "penalties moved logits while the tail was in play: not exact, nothing proven removed"
        );
    }

    #[test]
    fn entropy_bounds_bracket_every_tail_that_fits_under_the_least_likely_token() {
        // given: 0.4, 0.3, 0.1 (rest 0.2 over 6 ids, each ≤ 0.1)
        let given = [0.4f64, 0.3, 0.1];
        let known: f64 = given.iter().sum();
        let given_bits = -given
            .iter()
            .map(|p| (p / known) * (p / known).log2())
            .sum::<f64>();
        let (lo, hi) = entropy_bounds(given_bits, 0.2, 0.1, 6);
        let h = |tail: &[f64]| -> f64 {
            -given
                .iter()
                .chain(tail)
                .filter(|&&p| p > 0.0)
                .map(|p| p * p.log2())
                .sum::<f64>()
        };
        let tails: [&[f64]; 3] = [
            &[0.1, 0.1, 0.0, 0.0, 0.0, 0.0],
            &[0.2 / 6.0; 6],
            &[0.1, 0.05, 0.05, 0.0, 0.0, 0.0],
        ];
        for tail in tails {
            let whole = h(tail);
            assert!(
                lo - 1e-9 <= whole && whole <= hi + 1e-9,
                "{lo} ≤ {whole} ≤ {hi}"
            );
        }
        // the extremes are reached
        assert!((lo - h(tails[0])).abs() < 1e-9);
        assert!((hi - h(tails[1])).abs() < 1e-9);
        // nothing left out: the given tokens' entropy itself
        assert_eq!(entropy_bounds(1.5, 0.0, 0.1, 6), (1.5, 1.5));
    }

    #[test]
    fn rest_mass_is_checked() {
        assert_eq!(check(Some(0.25)), Ok(Some(0.25)));
        let e = check(Some(1.0)).unwrap_err().to_string();
        assert_eq!(e, "rest_mass must be in [0, 1), got 1");
        assert!(check(Some(f64::NAN)).is_err());
    }
}
