//! Held-out loss: the run log's cheap windows and the evaluation's strided pass.

use nexttoken::train::data::Stream;
use nexttoken::train::nn::Net;

pub(crate) const VAL_WINDOWS: usize = 192;

/// Mean loss over non-overlapping windows of `seq_len` + 1 tokens (at most
/// `max_windows`, spread evenly over the held-out stream, so every file's
/// tail has its share): each window's first targets see almost no context.
/// Cheap; the training log's number (`VAL_WINDOWS` windows), which also picks
/// `ckpt-best.bin`. (The first edition's log used the first 128 windows: the
/// React zh tail only.)
pub(crate) fn val_loss(net: &Net, params: &[f32], val: &Stream, max_windows: usize) -> f32 {
    let t = net.c.seq_len;
    let all = val.tokens.len() / (t + 1);
    let n = all.min(max_windows);
    let windows: Vec<usize> = (0..n).map(|i| i * all / n).collect();
    let mut total = 0.0;
    let mut count = 0;
    for chunk in windows.chunks(16) {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for &w in chunk {
            let s = &val.tokens[w * (t + 1)..(w + 1) * (t + 1)];
            x.extend_from_slice(&s[..t]);
            y.extend_from_slice(&s[1..]);
        }
        let mut acts = net.forward(params, &x, chunk.len(), t);
        total += net.loss_and_probs(&mut acts, &y) as f64 * chunk.len() as f64;
        count += chunk.len();
    }
    (total / count.max(1) as f64) as f32
}

/// Strided (sliding-window) evaluation, as in Hugging Face's "perplexity of
/// fixed-length models": windows of `seq_len` tokens every `stride` tokens;
/// the first window scores all its targets, each later one only its last
/// `stride` (which see `seq_len - stride` or more tokens of preceding held-out
/// text). Every target from stream position 2 on is scored exactly once —
/// the same targets the Kneser-Ney 3-gram scores. Returns each target's loss
/// (nats; index = stream position - 2).
pub(crate) fn val_loss_strided(
    net: &Net,
    params: &[f32],
    tokens: &[u32],
    stride: usize,
) -> Vec<f64> {
    let t = net.c.seq_len;
    assert!(stride >= 1 && stride <= t, "--stride must be in 1..={t}");
    let n = tokens.len();
    // (window start, window length, first scored position within the window)
    let mut windows = Vec::new();
    let mut scored_to = 2; // next target position (in the stream) to score
    let mut begin = 0;
    while scored_to < n {
        let len = t.min(n - 1 - begin);
        let end = begin + len; // targets are positions begin+1 ..= end
        let from = scored_to - (begin + 1);
        windows.push((begin, len, from));
        scored_to = end + 1;
        begin += stride;
    }
    let mut nll = Vec::with_capacity(n.saturating_sub(2));
    let v = net.c.vocab_size;
    let mut i = 0;
    while i < windows.len() {
        // Batch consecutive windows of the same length.
        let len = windows[i].1;
        let mut j = i;
        while j < windows.len() && j - i < 16 && windows[j].1 == len {
            j += 1;
        }
        let mut x = Vec::with_capacity((j - i) * len);
        for &(b0, _, _) in &windows[i..j] {
            x.extend_from_slice(&tokens[b0..b0 + len]);
        }
        let acts = net.forward(params, &x, j - i, len);
        for (k, &(b0, _, from)) in windows[i..j].iter().enumerate() {
            for pos in from..len {
                let row = &acts.probs[(k * len + pos) * v..][..v];
                let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let z: f64 = row.iter().map(|&l| ((l - max) as f64).exp()).sum();
                let target = tokens[b0 + pos + 1] as usize;
                debug_assert_eq!(nll.len() + 2, b0 + pos + 1);
                nll.push(z.ln() - (row[target] - max) as f64);
            }
        }
        i = j;
    }
    nll
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> (Net, Vec<f32>) {
        let c = nexttoken::model::Config {
            vocab_size: 17,
            dim: 8,
            n_layers: 1,
            n_heads: 2,
            seq_len: 8,
        };
        let net = Net::new(c);
        let params = nexttoken::train::nn::init_params(&c, &net.layout, 3);
        (net, params)
    }

    #[test]
    fn strided_eval_scores_every_target_from_position_two_once() {
        let (net, params) = net();
        let tokens: Vec<u32> = (0..45u32).map(|i| (i * 7 + 3) % 17).collect();
        for stride in [1, 3, 4, 8] {
            assert_eq!(
                val_loss_strided(&net, &params, &tokens, stride).len(),
                tokens.len() - 2
            );
        }
        // A stream that fits one window: the losses of one full forward.
        let short = &tokens[..9];
        let nll = val_loss_strided(&net, &params, short, 4);
        let mut acts = net.forward(&params, &short[..8], 1, 8);
        net.loss_and_probs(&mut acts, &short[1..]);
        for (k, got) in nll.iter().enumerate() {
            let want = -(acts.probs[(k + 1) * 17 + short[k + 2] as usize] as f64).ln();
            assert!(
                (got - want).abs() < 1e-4,
                "target {}: {got} vs {want}",
                k + 2
            );
        }
        // With stride 1 every target sees a full window: the last one, the
        // eight tokens before it.
        let full = val_loss_strided(&net, &params, &tokens, 1);
        let mut acts = net.forward(&params, &tokens[36..44], 1, 8);
        net.loss_and_probs(&mut acts, &tokens[37..45]);
        let want = -(acts.probs[7 * 17 + tokens[44] as usize] as f64).ln();
        assert!((full[42] - want).abs() < 1e-4);
    }
}
