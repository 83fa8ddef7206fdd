//! The project's trainer (`--features train`): trains the BPE tokenizer and
//! the tiny transformer, checkpoints, and exports the shipped weights.
//!
//! ```text
//! train tokenizer [--vocab 8000] [--out www/model/tokenizer.json]
//! train run --dir /work/train-run [--steps 3800] [--batch 16] [--lr 2.5e-3] [--seed 1]
//!           [--dim 128] [--layers 4] [--heads 4] [--ctx 128] [--lesson-share 0.05]
//!           (resumes from DIR/ckpt.bin; run it again after an interruption)
//! train export --dir /work/train-run [--out www/model/model.safetensors] [--emb int8|f16]
//! train eval --dir /work/train-run      (validation loss + Kneser-Ney 3-gram baseline)
//! ```
//!
//! Run from the project root (the corpus is read from `../shared/corpus`);
//! `MATMUL_NUM_THREADS=2` lets the matmuls use both cores. Defaults are the
//! shipped run's settings.
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
        _ => {
            eprintln!(
                "usage: train tokenizer|run|export|eval [--key value ...] (see the module doc)"
            );
            std::process::exit(2);
        }
    }
}

fn corpus(args: &Args) -> data::Corpus {
    data::load(
        Path::new(&args.s("corpus", "../shared/corpus")),
        Path::new(&args.s("lessons", "src/train/lessons_zh.txt")),
    )
}

fn cmd_tokenizer(args: &Args) {
    let c = corpus(args);
    let mut lines = c.train_docs.clone();
    lines.extend(c.val_docs.iter().cloned());
    // The lessons are few; repeat them as in the training mix.
    for _ in 0..args.n("lesson-repeat", 1usize) {
        lines.extend(c.lessons.iter().cloned());
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
}

struct RunCfg {
    model: Config,
    batch: usize,
    steps: u64,
    lr: f32,
    warmup: u64,
    wd: f32,
    seed: u64,
    lesson_share: f64,
    eval_every: u64,
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
        lesson_share: args.n("lesson-share", 0.05),
        eval_every: args.n("eval-every", 250),
    }
}

/// Training and validation streams, built deterministically.
fn streams(
    args: &Args,
    tok: &tokenizers::Tokenizer,
    lesson_share: f64,
    seed: u64,
) -> (Stream, Stream) {
    let c = corpus(args);
    let eos = tok.token_to_id("</s>").unwrap();
    let mut train = Stream::new();
    for ids in data::encode_lines(tok, &c.train_docs) {
        train.push_line(&ids, eos);
    }
    let doc_tokens = train.tokens.len();
    let lesson_ids = data::encode_lines(tok, &c.lessons);
    let lesson_tokens: usize = lesson_ids.iter().map(|l| l.len() + 1).sum();
    // Repeat (each copy in its own shuffled order) until the share is met.
    let want = (lesson_share / (1.0 - lesson_share) * doc_tokens as f64) as usize;
    let copies = want.div_ceil(lesson_tokens).max(1);
    let mut rng = Rng(seed ^ 0x01e5_50a5);
    for _ in 0..copies {
        let mut order: Vec<usize> = (0..lesson_ids.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for i in order {
            train.push_line(&lesson_ids[i], eos);
        }
    }
    let mut val = Stream::new();
    for ids in data::encode_lines(tok, &c.val_docs) {
        val.push_line(&ids, eos);
    }
    println!(
        "train stream {} tokens ({} docs + {} lessons x{copies}, lesson share {:.1}%), val {} tokens",
        train.tokens.len(),
        doc_tokens,
        lesson_tokens,
        100.0 * (copies * lesson_tokens) as f64 / train.tokens.len() as f64,
        val.tokens.len()
    );
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

fn val_loss(net: &Net, params: &[f32], val: &Stream, max_windows: usize) -> f32 {
    let t = net.c.seq_len;
    let n = (val.tokens.len() / (t + 1)).min(max_windows);
    let mut total = 0.0;
    let mut count = 0;
    for chunk in (0..n).collect::<Vec<_>>().chunks(16) {
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

fn cmd_run(args: &Args) {
    let dir = PathBuf::from(args.s("dir", "/work/train-run"));
    std::fs::create_dir_all(&dir).unwrap();
    let tok =
        tokenizers::Tokenizer::from_file(args.s("tokenizer", "www/model/tokenizer.json")).unwrap();
    let rc = run_cfg(args, tok.get_vocab_size(true));
    let net = Net::new(rc.model);
    println!("model {:?}: {} parameters", rc.model, net.layout.total);
    let (train, val) = streams(args, &tok, rc.lesson_share, rc.seed);
    let ckpt = dir.join("ckpt.bin");
    let (mut params, mut adam) = match export::load_checkpoint(&ckpt) {
        Some((cfg, p, a)) if cfg == rc.model => {
            println!("resuming at step {}", a.step);
            (p, a)
        }
        Some(_) => panic!("{} holds a different model config", ckpt.display()),
        None => (
            nn::init_params(&rc.model, &net.layout, rc.seed),
            Adam::new(net.layout.total),
        ),
    };
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
        let mut acts = net.forward(&params, &x, rc.batch, t);
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
            let vl = val_loss(&net, &params, &val, 128);
            println!(
                "step {done} val_loss {vl:.4} tokens_seen {}",
                done as usize * rc.batch * t
            );
            writeln!(log, "{done}\tval\t{vl:.4}\t\t\t{el:.1}").unwrap();
            export::save_checkpoint(&ckpt, &rc.model, &params, &adam);
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
    let (cfg, params, adam) = export::load_checkpoint(&dir.join("ckpt.bin")).expect("checkpoint");
    let net = Net::new(cfg);
    let out = args.s("out", "www/model/model.safetensors");
    let meta = [("steps", adam.step.to_string())];
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
    let (cfg, params, _) = export::load_checkpoint(&dir.join("ckpt.bin")).expect("checkpoint");
    let rc = run_cfg(args, cfg.vocab_size);
    let net = Net::new(cfg);
    let (train, val) = streams(args, &tok, rc.lesson_share, rc.seed);
    let vl = val_loss(&net, &params, &val, usize::MAX);
    println!("model val loss (all held-out windows): {vl:.4} nats/token");
    let kn = nexttoken::train::kn3::eval(&train.tokens, &val.tokens, cfg.vocab_size);
    println!("interpolated Kneser-Ney 3-gram val loss: {kn:.4} nats/token");
}
