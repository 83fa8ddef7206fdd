//! The project's trainer (`--features train`): trains the BPE tokenizer and
//! the tiny transformer, checkpoints, and exports the shipped weights.
//!
//! ```text
//! train tokenizer [--vocab 8000] [--out www/model/tokenizer.json]
//! train run --dir /work/train-run [--steps 3800] [--batch 16] [--lr 2.5e-3] [--seed 1]
//!           [--dim 128] [--layers 4] [--heads 4] [--ctx 128] [--docs all|old]
//!           [--lessons src/train/lessons_zh.txt:0.05,src/train/lessons_everyday.txt:0.03]
//!           [--warmup 200] [--wd 0.05] [--dropout 0] [--init CKPT] [--eval-every 250]
//!           (resumes from DIR/ckpt.bin; run it again after an interruption. `--init`
//!           starts a new run — fresh optimiser, step 0 — from another run's weights, for a
//!           fine-tune; `--dropout P` drops embeddings, attention probabilities and residual
//!           branches with probability P while training. The best checkpoint by validation
//!           loss is kept as DIR/ckpt-best.bin, its step and loss in DIR/best.txt)
//! train export --dir /work/train-run [--ckpt DIR/ckpt.bin] [--out www/model/model.safetensors]
//!           [--emb int8|f16]
//! train eval --dir /work/train-run [--ckpt DIR/ckpt.bin | --weights model.safetensors]
//!           [--stride 64] [--docs all|old]   (validation loss two ways + Kneser-Ney
//!           3-gram baseline fitted on the same training stream; per file, old and new files)
//! train greedy [--weights www/model/model.safetensors]  (greedy fluency: the documentation
//!           prompts with </s> banned, then the 20-prompt set of src/train/eval_prompts.txt)
//! ```
//!
//! Run from the project root (the corpus is read from `../shared/corpus`);
//! `MATMUL_NUM_THREADS=2` lets the matmuls use both cores. Defaults are the
//! first edition's run settings; `--docs old` (with its lesson default) is
//! the first edition's data, `--docs all` (default) the second's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a command-line tool: any failure ends the run with its message

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use nexttoken::model::Config;
use nexttoken::train::data::{self, Stream};
use nexttoken::train::nn::{self, Adam, Net, Rng};
use nexttoken::train::{bpe, export};

struct Args(HashMap<String, String>);

impl Args {
    fn parse(rest: &[String]) -> Args {
        let mut m = HashMap::new();
        let mut i = 0;
        while i < rest.len() {
            let k = rest[i].trim_start_matches("--").to_owned();
            let v = rest.get(i + 1).cloned().unwrap_or_default();
            m.insert(k, v);
            i += 2;
        }
        Args(m)
    }
    fn s(&self, k: &str, d: &str) -> String {
        self.0.get(k).cloned().unwrap_or_else(|| d.to_owned())
    }
    fn n<T: std::str::FromStr>(&self, k: &str, d: T) -> T {
        match self.0.get(k) {
            Some(v) => v
                .parse()
                .unwrap_or_else(|_| panic!("--{k}: cannot parse {v:?}")),
            None => d,
        }
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let cmd = argv.get(1).cloned().unwrap_or_default();
    let args = Args::parse(&argv[2.min(argv.len())..]);
    match cmd.as_str() {
        "tokenizer" => cmd_tokenizer(&args),
        "run" => cmd_run(&args),
        "export" => cmd_export(&args),
        "eval" => cmd_eval(&args),
        "greedy" => cmd_greedy(&args),
        _ => {
            eprintln!(
                "usage: train tokenizer|run|export|eval|greedy [--key value ...] (see the module doc)"
            );
            std::process::exit(2);
        }
    }
}

/// The second edition's lesson mix: the chapter's lessons (first edition,
/// 5 %) and the team-written everyday and language-model text (3 %).
const LESSONS_ALL: &str = "src/train/lessons_zh.txt:0.05,src/train/lessons_everyday.txt:0.03";
/// The first edition's mix (with `--docs old`).
const LESSONS_OLD: &str = "src/train/lessons_zh.txt:0.05";

fn corpus(args: &Args) -> data::Corpus {
    let mix = args.s("docs", "all");
    let lessons_default = if mix == "old" {
        LESSONS_OLD
    } else {
        LESSONS_ALL
    };
    data::load(
        Path::new(&args.s("corpus", "../shared/corpus")),
        data::doc_files(&mix),
        &data::parse_lesson_spec(&args.s("lessons", lessons_default)),
    )
}

fn cmd_tokenizer(args: &Args) {
    let c = corpus(args);
    let mut lines = c.train_docs.clone();
    lines.extend(c.val_docs.iter().cloned());
    // The lessons are few; repeat them as in the training mix.
    for _ in 0..args.n("lesson-repeat", 1usize) {
        for l in &c.lessons {
            lines.extend(l.lines.iter().cloned());
        }
    }
    let json = bpe::train(
        &lines,
        args.n("vocab", 8000usize),
        args.n("cjk-vocab", 4600usize),
        args.n("cjk-max", 3usize),
    )
    .unwrap();
    let out = args.s("out", "www/model/tokenizer.json");
    std::fs::create_dir_all(Path::new(&out).parent().unwrap()).unwrap();
    std::fs::write(&out, json).unwrap();
    let tok = tokenizers::Tokenizer::from_file(&out).unwrap();
    println!("wrote {out}: vocab {}", tok.get_vocab_size(true));
    for p in [
        "中国的首都是北京",
        "TypeScript 是 JavaScript 的超集",
        "React 是一个用于构建用户界面的 JavaScript 库",
        "给一个代码编辑器插件起名：",
        "The capital of France is Paris.",
    ] {
        let e = tok.encode(p, false).unwrap();
        println!("{p} -> {:?}", e.get_tokens());
    }
    // Compression per documentation file (training part), against the
    // shipped tokenizer when this one is written elsewhere: the numbers that
    // decide whether a retrained tokenizer is worth its new token ids.
    let shipped = tokenizers::Tokenizer::from_file("www/model/tokenizer.json").ok();
    let mut line = 0;
    for (f, &n) in c.files.iter().zip(&c.train_lines_per_file) {
        let lines = &c.train_docs[line..line + n];
        line += n;
        let chars: usize = lines.iter().map(|l| l.chars().count()).sum();
        let count = |t: &tokenizers::Tokenizer| -> usize {
            data::encode_lines(t, lines).iter().map(Vec::len).sum()
        };
        let ours = count(&tok);
        let theirs = shipped.as_ref().map_or(ours, count);
        println!(
            "  {f:<28} {chars:>8} chars: {:.3} tokens/char (shipped tokenizer {:.3})",
            ours as f64 / chars as f64,
            theirs as f64 / chars as f64
        );
    }
}

struct RunCfg {
    model: Config,
    batch: usize,
    steps: u64,
    lr: f32,
    warmup: u64,
    wd: f32,
    seed: u64,
    eval_every: u64,
    dropout: f32,
}

fn run_cfg(args: &Args, vocab: usize) -> RunCfg {
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
        lr: args.n("lr", 2.5e-3),
        warmup: args.n("warmup", 200),
        wd: args.n("wd", 0.05),
        seed: args.n("seed", 1),
        eval_every: args.n("eval-every", 250),
        dropout: args.n("dropout", 0.0),
    }
}

/// Training and validation streams, built deterministically.
fn streams(args: &Args, tok: &tokenizers::Tokenizer, seed: u64) -> (Stream, Stream) {
    let c = corpus(args);
    let eos = tok.token_to_id("</s>").unwrap();
    let mut train = Stream::new();
    let doc_ids = data::encode_lines(tok, &c.train_docs);
    let mut per_file = Vec::new();
    let mut line = 0;
    for &n in &c.train_lines_per_file {
        let mut tokens = 0;
        for ids in &doc_ids[line..line + n] {
            train.push_line(ids, eos);
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
    for ids in data::encode_lines(tok, &c.val_docs) {
        val.push_line(&ids, eos);
    }
    let total = train.tokens.len() as f64;
    println!(
        "train stream {} tokens ({doc_tokens} docs), val {} tokens",
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

fn lr_at(rc: &RunCfg, step: u64) -> f32 {
    if step < rc.warmup {
        return rc.lr * (step + 1) as f32 / rc.warmup as f32;
    }
    let p = (step - rc.warmup) as f32 / (rc.steps - rc.warmup).max(1) as f32;
    let min = 0.1 * rc.lr;
    min + 0.5 * (rc.lr - min) * (1.0 + (std::f32::consts::PI * p.min(1.0)).cos())
}

/// Held-out windows scored at each checkpoint during a run (≈ 25 k tokens).
const VAL_WINDOWS: usize = 192;

/// Mean loss over non-overlapping windows of `seq_len` + 1 tokens (at most
/// `max_windows`, spread evenly over the held-out stream, so every file's
/// tail has its share): each window's first targets see almost no context.
/// Cheap; the training log's number (`VAL_WINDOWS` windows), which also picks
/// `ckpt-best.bin`. (The first edition's log used the first 128 windows: the
/// React zh tail only.)
fn val_loss(net: &Net, params: &[f32], val: &Stream, max_windows: usize) -> f32 {
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
fn val_loss_strided(net: &Net, params: &[f32], tokens: &[u32], stride: usize) -> Vec<f64> {
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

fn cmd_run(args: &Args) {
    let dir = PathBuf::from(args.s("dir", "/work/train-run"));
    std::fs::create_dir_all(&dir).unwrap();
    let tok =
        tokenizers::Tokenizer::from_file(args.s("tokenizer", "www/model/tokenizer.json")).unwrap();
    let rc = run_cfg(args, tok.get_vocab_size(true));
    let net = Net::new(rc.model);
    println!("model {:?}: {} parameters", rc.model, net.layout.total);
    let (train, val) = streams(args, &tok, rc.seed);
    let ckpt = dir.join("ckpt.bin");
    let (mut params, mut adam) = match export::load_checkpoint(&ckpt) {
        Some((cfg, p, a)) if cfg == rc.model => {
            println!("resuming at step {}", a.step);
            (p, a)
        }
        Some(_) => panic!("{} holds a different model config", ckpt.display()),
        None => match args.0.get("init") {
            Some(init) => {
                let (cfg, p, a) =
                    export::load_checkpoint(Path::new(init)).expect("--init checkpoint");
                assert_eq!(
                    cfg, rc.model,
                    "--init {init} holds a different model config"
                );
                println!(
                    "starting from the weights of {init} (its step {}), fresh optimiser",
                    a.step
                );
                // Export adds these steps to the run's own in the weights' metadata.
                std::fs::write(dir.join("init.txt"), format!("{init} {}\n", a.step)).unwrap();
                (p, Adam::new(net.layout.total))
            }
            None => (
                nn::init_params(&rc.model, &net.layout, rc.seed),
                Adam::new(net.layout.total),
            ),
        },
    };
    if rc.dropout > 0.0 {
        println!(
            "dropout {} (embeddings, attention probabilities, residual branches)",
            rc.dropout
        );
    }
    let best_file = dir.join("best.txt");
    let mut best = std::fs::read_to_string(&best_file)
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .nth(1)
                .and_then(|v| v.parse::<f32>().ok())
        })
        .unwrap_or(f32::INFINITY);
    let mut grads = vec![0.0f32; net.layout.total];
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("loss.tsv"))
        .unwrap();
    let t = rc.model.seq_len;
    let start = Instant::now();
    let first = adam.step;
    let mut smooth = f32::NAN;
    while adam.step < rc.steps {
        let step = adam.step;
        // Batches depend only on (seed, step), so a resumed run sees the same data.
        let mut rng =
            Rng(rc.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ step.wrapping_mul(0x9E37_79B9));
        let mut x = Vec::with_capacity(rc.batch * t);
        let mut y = Vec::with_capacity(rc.batch * t);
        for _ in 0..rc.batch {
            let w = train.sample(&mut rng, t);
            x.extend_from_slice(&w[..t]);
            y.extend_from_slice(&w[1..]);
        }
        // Dropout masks, like the batches, depend only on (seed, step).
        let dropout = nn::Dropout {
            p: rc.dropout,
            seed: rc.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03)
                ^ 0xD20,
        };
        let mut acts = net.forward_train(&params, &x, rc.batch, t, Some(dropout));
        let loss = net.loss_and_probs(&mut acts, &y);
        net.backward(&params, &acts, &x, &y, &mut grads);
        drop(acts);
        let gnorm = nn::clip(&mut grads, 1.0);
        let lr = lr_at(&rc, step);
        adam.update(&mut params, &grads, &net.layout, lr, rc.wd);
        smooth = if smooth.is_nan() {
            loss
        } else {
            0.95 * smooth + 0.05 * loss
        };
        let done = adam.step;
        let el = start.elapsed().as_secs_f64();
        let tps = ((done - first) as f64 * (rc.batch * t) as f64) / el;
        writeln!(
            log,
            "{done}\ttrain\t{loss:.4}\t{lr:.6}\t{gnorm:.3}\t{el:.1}"
        )
        .unwrap();
        if done % 10 == 0 || done == rc.steps {
            let eta = (rc.steps - done) as f64 * el / (done - first) as f64;
            let bar_n = (30 * done / rc.steps) as usize;
            println!(
                "[{}{}] step {done}/{} loss {loss:.3} (avg {smooth:.3}) lr {lr:.2e} |g| {gnorm:.2} {tps:.0} tok/s elapsed {:.1}m eta {:.1}m",
                "#".repeat(bar_n),
                ".".repeat(30 - bar_n),
                rc.steps,
                el / 60.0,
                eta / 60.0
            );
        }
        if done % rc.eval_every == 0 || done == rc.steps {
            let vl = val_loss(&net, &params, &val, VAL_WINDOWS);
            println!(
                "step {done} val_loss {vl:.4} tokens_seen {}",
                done as usize * rc.batch * t
            );
            writeln!(log, "{done}\tval\t{vl:.4}\t\t\t{el:.1}").unwrap();
            export::save_checkpoint(&ckpt, &rc.model, &params, &adam);
            if vl < best {
                best = vl;
                export::save_checkpoint(&dir.join("ckpt-best.bin"), &rc.model, &params, &adam);
                std::fs::write(&best_file, format!("{done} {vl:.4}\n")).unwrap();
            }
        }
    }
    println!(
        "done: {} steps, {:.1} min this session",
        adam.step,
        start.elapsed().as_secs_f64() / 60.0
    );
}

fn cmd_export(args: &Args) {
    let dir = PathBuf::from(args.s("dir", "/work/train-run"));
    let ckpt = args.s("ckpt", &dir.join("ckpt.bin").to_string_lossy());
    let (cfg, params, adam) = export::load_checkpoint(Path::new(&ckpt)).expect("checkpoint");
    let net = Net::new(cfg);
    let out = args.s("out", "www/model/model.safetensors");
    // A fine-tune (`run --init`) records its starting point in DIR/init.txt:
    // "steps" counts both runs' steps, "fine_tune_steps" this run's.
    let base_steps: Option<u64> = std::fs::read_to_string(dir.join("init.txt"))
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|v| v.parse().ok()));
    let mut meta = vec![("steps", (adam.step + base_steps.unwrap_or(0)).to_string())];
    if base_steps.is_some() {
        meta.push(("fine_tune_steps", adam.step.to_string()));
    }
    let f16_emb = args.s("emb", "int8") == "f16";
    export::write_safetensors(Path::new(&out), &net, &params, true, f16_emb, &meta).unwrap();
    export::write_safetensors(
        &dir.join("model-f32.safetensors"),
        &net,
        &params,
        false,
        false,
        &meta,
    )
    .unwrap();
    println!(
        "wrote {out} (int8 per row{}) and {}",
        if f16_emb { ", tok_emb f16" } else { "" },
        dir.join("model-f32.safetensors").display()
    );
    // Quantisation error: f32 vs int8 logits on a few prompts, via the
    // inference code the page runs.
    let tok = nexttoken::tokenizer::Tokenizer::from_json(
        &std::fs::read_to_string(args.s("tokenizer", "www/model/tokenizer.json")).unwrap(),
    )
    .unwrap();
    let q = nexttoken::model::Model::from_safetensors(&std::fs::read(&out).unwrap()).unwrap();
    let f = nexttoken::model::Model::from_safetensors(
        &std::fs::read(dir.join("model-f32.safetensors")).unwrap(),
    )
    .unwrap();
    let (mut max_d, mut top1_same, mut top10_overlap, mut n) = (0.0f32, 0, 0, 0);
    let mut max_dp = 0.0f64;
    for p in [
        "中国的首都是",
        "给一个代码编辑器插件起名：",
        "TypeScript 是 JavaScript 的超集，它",
        "React 是一个用于构建用户界面的 JavaScript 库。组件可以",
        "The capital of France is",
    ] {
        let (mut cq, mut cf) = (q.new_cache(), f.new_cache());
        let (mut lq, mut lf) = (vec![0.0; cfg.vocab_size], vec![0.0; cfg.vocab_size]);
        for id in tok.encode(p) {
            q.forward(id, &mut cq, &mut lq).unwrap();
            f.forward(id, &mut cf, &mut lf).unwrap();
            for (a, b) in lq.iter().zip(&lf) {
                max_d = max_d.max((a - b).abs());
            }
            let top = |l: &[f32]| {
                let mut i: Vec<usize> = (0..l.len()).collect();
                i.sort_by(|&a, &b| l[b].total_cmp(&l[a]));
                i.truncate(10);
                i
            };
            let (tq, tf) = (top(&lq), top(&lf));
            let (pq, pf) = (softmax(&lq), softmax(&lf));
            for &i in &tf {
                max_dp = max_dp.max((pq[i] - pf[i]).abs());
            }
            top1_same += (tq[0] == tf[0]) as usize;
            top10_overlap += tq.iter().filter(|i| tf.contains(i)).count();
            n += 1;
        }
    }
    println!(
        "int8 vs f32 over {n} positions: max |dlogit| {max_d:.4}, max |dp| over the f32 top-10 {max_dp:.4}, top-1 agreement {top1_same}/{n}, top-10 overlap {:.2}/10",
        top10_overlap as f64 / n as f64
    );
}

fn softmax(l: &[f32]) -> Vec<f64> {
    let max = l.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = l.iter().map(|&x| ((x - max) as f64).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|x| x / z).collect()
}

fn cmd_eval(args: &Args) {
    let dir = PathBuf::from(args.s("dir", "/work/train-run"));
    let tok =
        tokenizers::Tokenizer::from_file(args.s("tokenizer", "www/model/tokenizer.json")).unwrap();
    // The shipped int8 weights (dequantised: the trainer's forward equals the
    // page's on them, tests/model.rs) or a checkpoint.
    let (cfg, params, what) = match args.0.get("weights") {
        Some(w) => {
            let (cfg, p) = export::params_from_safetensors(&std::fs::read(w).unwrap()).unwrap();
            (cfg, p, w.clone())
        }
        None => {
            let ckpt = args.s("ckpt", &dir.join("ckpt.bin").to_string_lossy());
            let (cfg, p, a) = export::load_checkpoint(Path::new(&ckpt)).expect("checkpoint");
            (cfg, p, format!("{ckpt} (step {})", a.step))
        }
    };
    let rc = run_cfg(args, cfg.vocab_size);
    let net = Net::new(cfg);
    let (train, val) = streams(args, &tok, rc.seed);
    println!("weights: {what}");
    let vl = val_loss(&net, &params, &val, usize::MAX);
    println!(
        "model val loss, non-overlapping {}-token windows: {vl:.4} nats/token",
        cfg.seq_len
    );
    let stride = args.n("stride", cfg.seq_len / 2);
    let model_nll = val_loss_strided(&net, &params, &val.tokens, stride);
    let kn_nll = nexttoken::train::kn3::nll(&train.tokens, &val.tokens, cfg.vocab_size);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!(
        "model val loss, sliding window (context {}, stride {stride}, {} targets): {:.4} nats/token",
        cfg.seq_len,
        model_nll.len(),
        mean(&model_nll)
    );
    println!(
        "interpolated Kneser-Ney 3-gram val loss ({} targets): {:.4} nats/token",
        kn_nll.len(),
        mean(&kn_nll)
    );
    // The same two numbers per documentation file (targets by the file of the
    // paragraph they belong to), then over the first edition's files and the
    // new ones.
    let c = corpus(args);
    let mut line = 0;
    let mut ranges = Vec::new();
    for (f, &lines) in c.files.iter().zip(&c.val_lines_per_file) {
        let from = val.starts[line].max(2) - 2;
        line += lines;
        let to = val.starts.get(line).map_or(val.tokens.len(), |&s| s) - 2;
        println!(
            "  {f:<28} {:>6} targets: model {:.4}, 3-gram {:.4}",
            to - from,
            mean(&model_nll[from..to]),
            mean(&kn_nll[from..to])
        );
        ranges.push(from..to);
    }
    let old = data::OLD_DOC_FILES.min(ranges.len());
    for (name, files) in [("old files", &ranges[..old]), ("new files", &ranges[old..])] {
        if files.is_empty() {
            continue;
        }
        let r = files[0].start..files[files.len() - 1].end;
        println!(
            "  {name:<28} {:>6} targets: model {:.4}, 3-gram {:.4}",
            r.len(),
            mean(&model_nll[r.clone()]),
            mean(&kn_nll[r])
        );
    }
}

/// Documentation-style prompts for the greedy fluency check.
const GREEDY_PROMPTS: [&str; 7] = [
    "组件是",
    "在 React 中，状态",
    "Vue 的响应式系统",
    "TypeScript 的类型",
    "我们可以使用",
    "当你需要",
    "这个函数",
];

/// Greedy fluency, two ways, through the page's generator. First the
/// first edition's check: greedy with end-of-sequence banned, 60 tokens, from
/// each documentation prompt; where the first repeated token 4-gram starts
/// (the criterion of tests/model.rs). Then the issue-13 set
/// (`src/train/eval_prompts.txt`): plain greedy, `</s>` allowed.
fn cmd_greedy(args: &Args) {
    use nexttoken::decode::Config as StepConfig;
    use nexttoken::train::fluency;
    let weights = args.s("weights", "www/model/model.safetensors");
    let tok = std::fs::read_to_string(args.s("tokenizer", "www/model/tokenizer.json")).unwrap();
    let mut g = nexttoken::generate::Generator::from_bytes(&std::fs::read(&weights).unwrap(), &tok)
        .unwrap();
    g.max_new_tokens = 60;
    let eos = g.tokenizer().eos_id().unwrap();
    let greedy = StepConfig {
        temperature: Some(0.0),
        logit_bias: Some(vec![(eos, f64::NEG_INFINITY)]),
        ..StepConfig::default()
    };
    let mut ok = 0;
    for prompt in GREEDY_PROMPTS {
        g.set_prompt(prompt).unwrap();
        while g.next(&greedy).is_ok() {}
        let gen = g.tokens()[g.prompt_len()..].to_vec();
        let first_repeat = nexttoken::generate::first_repeat(&gen, 4);
        ok += (first_repeat >= 20) as usize;
        println!(
            "{first_repeat:>3}  {prompt}|{}",
            g.text().replace('\n', "⏎")
        );
    }
    println!(
        "{weights}: {ok}/{} documentation prompts run >= 20 tokens before repeating (</s> banned)",
        GREEDY_PROMPTS.len()
    );
    println!(
        "\nfluency set (plain greedy, </s> allowed, at most {} tokens): repeat-at / tokens / end",
        fluency::MAX_NEW
    );
    let runs = fluency::run_all(&mut g);
    for r in &runs {
        println!(
            "{:>3} {:>3} {:<4} {}  {}|{}",
            r.first_repeat,
            r.tokens,
            if r.ended { "</s>" } else { "" },
            if r.fluent() { "ok" } else { "--" },
            r.prompt,
            r.text.replace('\n', "⏎")
        );
    }
    let count = |f: fn(&fluency::GreedyRun) -> bool| runs.iter().filter(|r| f(r)).count();
    let n = runs.len();
    let mean_run = runs.iter().map(|r| r.first_repeat).sum::<usize>() as f64 / n as f64;
    println!(
        "{weights}: fluent {}/{n} (>= {} tokens before a repeat {}/{n}, clean end after >= {} {}/{n}); </s> first {}/{n}; mean tokens before a repeat {mean_run:.1}",
        count(fluency::GreedyRun::fluent),
        fluency::MIN_RUN,
        count(fluency::GreedyRun::long_run),
        fluency::MIN_CLEAN_END,
        count(fluency::GreedyRun::clean_end),
        count(|r| r.eos_first),
    );
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
        let params = nn::init_params(&c, &net.layout, 3);
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
