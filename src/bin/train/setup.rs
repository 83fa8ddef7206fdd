//! A run's settings and its training / held-out token streams.

use nexttoken::model::Config;
use nexttoken::train::data::{self, Stream};
use nexttoken::train::nn::Rng;

use crate::{corpus, Args};

pub(crate) struct RunCfg {
    pub(crate) model: Config,
    pub(crate) batch: usize,
    pub(crate) steps: u64,
    /// The step to stop at (default `steps`); the LR schedule still runs to `steps`.
    pub(crate) until: u64,
    pub(crate) lr: f32,
    pub(crate) warmup: u64,
    pub(crate) wd: f32,
    pub(crate) seed: u64,
    pub(crate) eval_every: u64,
    pub(crate) dropout: f32,
}

pub(crate) fn run_cfg(args: &Args, vocab: usize) -> RunCfg {
    RunCfg {
        model: Config {
            vocab_size: vocab,
            dim: args.n("dim", 128),
            n_layers: args.n("layers", 4),
            n_heads: args.n("heads", 4),
            seq_len: args.n("ctx", 128),
        },
        batch: args.n("batch", 16),
        steps: args.n("steps", 3800),
        until: args.n("until", u64::MAX),
        lr: args.n("lr", 2.5e-3),
        warmup: args.n("warmup", 200),
        wd: args.n("wd", 0.05),
        seed: args.n("seed", 1),
        eval_every: args.n("eval-every", 250),
        dropout: args.n("dropout", 0.0),
    }
}

/// Training and validation streams, built deterministically.
pub(crate) fn streams(args: &Args, tok: &tokenizers::Tokenizer, seed: u64) -> (Stream, Stream) {
    let c = corpus(args);
    let breaks = data::Breaks::parse(&args.s("breaks", "line"));
    let eos = tok.token_to_id("</s>").unwrap();
    let newline = match tok.encode("\n", false).unwrap().get_ids() {
        [id] => *id,
        ids => panic!("the tokenizer encodes a newline as {ids:?}, not one token"),
    };
    let mut train = Stream::new();
    let doc_ids = data::encode_lines(tok, &c.train_docs);
    let mut per_file = Vec::new();
    let mut line = 0;
    for &n in &c.train_lines_per_file {
        let mut tokens = 0;
        for (ids, &ends) in doc_ids[line..line + n].iter().zip(&c.train_ends[line..]) {
            train.push_line(ids, breaks.after(ends, eos, newline));
            tokens += ids.len() + 1;
        }
        per_file.push(tokens);
        line += n;
    }
    let doc_tokens = train.tokens.len();
    // Each lesson corpus is repeated (each copy in its own shuffled order)
    // until its share of the whole stream is met.
    let total_share: f64 = c.lessons.iter().map(|l| l.share).sum();
    let mut lesson_report = Vec::new();
    for (k, lessons) in c.lessons.iter().enumerate() {
        let lesson_ids = data::encode_lines(tok, &lessons.lines);
        let lesson_tokens: usize = lesson_ids.iter().map(|l| l.len() + 1).sum();
        let want = (lessons.share / (1.0 - total_share) * doc_tokens as f64) as usize;
        let copies = want.div_ceil(lesson_tokens).max(1);
        // The first corpus's order is the first edition's (same seed mix).
        let mut rng = Rng(seed ^ 0x01e5_50a5 ^ ((k as u64) << 40));
        for _ in 0..copies {
            let mut order: Vec<usize> = (0..lesson_ids.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for i in order {
                train.push_line(&lesson_ids[i], eos);
            }
        }
        lesson_report.push((lessons.path.clone(), lesson_tokens, copies));
    }
    let mut val = Stream::new();
    for (ids, &ends) in data::encode_lines(tok, &c.val_docs).iter().zip(&c.val_ends) {
        val.push_line(ids, breaks.after(ends, eos, newline));
    }
    let total = train.tokens.len() as f64;
    println!(
        "train stream {} tokens ({doc_tokens} docs), val {} tokens, breaks {breaks:?}",
        train.tokens.len(),
        val.tokens.len()
    );
    for (f, n) in c.files.iter().zip(&per_file) {
        println!(
            "  {f:<36} {n:>8} tokens {:>5.1}%",
            100.0 * *n as f64 / total
        );
    }
    for (path, n, copies) in lesson_report {
        println!(
            "  {path:<36} {n:>8} tokens x{copies} {:>5.1}%",
            100.0 * (n * copies) as f64 / total
        );
    }
    (train, val)
}
