//! Interpolated Kneser-Ney trigram baseline (absolute discount 0.75) over
//! the same tokens as the model, for the model card.

use std::collections::HashMap;

const D: f64 = 0.75;

/// Mean negative log-likelihood (nats/token) of `val` under a trigram model
/// fitted on `train`.
pub fn eval(train: &[u32], val: &[u32], vocab: usize) -> f64 {
    let nll = nll(train, val, vocab);
    nll.iter().sum::<f64>() / nll.len().max(1) as f64
}

/// Negative log-likelihood (nats) of each `val[i]`, `i` from 2 on (index
/// `i - 2`), under a trigram model fitted on `train`.
pub fn nll(train: &[u32], val: &[u32], vocab: usize) -> Vec<f64> {
    // Counts.
    let mut c3: HashMap<(u32, u32, u32), u32> = HashMap::new();
    for w in train.windows(3) {
        *c3.entry((w[0], w[1], w[2])).or_default() += 1;
    }
    // Context (a,b): total count, distinct continuations.
    let mut ctx2: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
    // Continuation counts for bigrams: N1+(• b c).
    let mut n1_bc: HashMap<(u32, u32), u32> = HashMap::new();
    for (&(a, b, c), &n) in &c3 {
        let e = ctx2.entry((a, b)).or_default();
        e.0 += n;
        e.1 += 1;
        *n1_bc.entry((b, c)).or_default() += 1;
    }
    // For the middle level: context b → (Σ_c N1+(• b c), distinct c).
    let mut ctx1: HashMap<u32, (u32, u32)> = HashMap::new();
    // Unigram continuation: N1+(• c) over bigram types.
    let mut n1_c: HashMap<u32, u32> = HashMap::new();
    for (&(b, c), &n) in &n1_bc {
        let e = ctx1.entry(b).or_default();
        e.0 += n;
        e.1 += 1;
        *n1_c.entry(c).or_default() += 1;
    }
    let bigram_types = n1_bc.len() as f64;
    let uniform = 1.0 / vocab as f64;
    let p1 = |c: u32| -> f64 {
        // Interpolate the continuation unigram with uniform so unseen tokens
        // get mass.
        let n = *n1_c.get(&c).unwrap_or(&0) as f64;
        let seen = n1_c.len() as f64;
        ((n - D).max(0.0) + D * seen * uniform) / bigram_types
    };
    let p2 = |b: u32, c: u32| -> f64 {
        match ctx1.get(&b) {
            Some(&(tot, types)) => {
                let n = *n1_bc.get(&(b, c)).unwrap_or(&0) as f64;
                ((n - D).max(0.0) + D * types as f64 * p1(c)) / tot as f64
            }
            None => p1(c),
        }
    };
    let mut nll = Vec::with_capacity(val.len().saturating_sub(2));
    for i in 2..val.len() {
        let (a, b, c) = (val[i - 2], val[i - 1], val[i]);
        let p = match ctx2.get(&(a, b)) {
            Some(&(tot, types)) => {
                let n = *c3.get(&(a, b, c)).unwrap_or(&0) as f64;
                ((n - D).max(0.0) + D * types as f64 * p2(b, c)) / tot as f64
            }
            None => p2(b, c),
        };
        nll.push(-p.max(1e-12).ln());
    }
    nll
}
