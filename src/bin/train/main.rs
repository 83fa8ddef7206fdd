//! The project's trainer (`--features train`): trains the BPE tokenizer and
//! the tiny transformer, checkpoints, and exports the shipped weights.
//!
//! ```text
//! train tokenizer [--vocab 8000] [--out www/model/tokenizer.json]
//! train run --dir /work/train-run [--steps 3800] [--batch 16] [--lr 2.5e-3] [--seed 1]
//!           [--dim 128] [--layers 4] [--heads 4] [--ctx 128] [--docs all|old] [--breaks line|text]
//!           [--lessons src/train/lessons_zh.txt:0.05,src/train/lessons_everyday.txt:0.03]
//!           [--warmup 200] [--wd 0.05] [--dropout 0] [--init CKPT] [--eval-every 250]
//!           [--until STEP]  (stop at STEP; the LR schedule still runs to --steps)
//!           (resumes from DIR/ckpt.bin; run it again after an interruption. `--init`
//!           starts a new run — fresh optimiser, step 0 — from another run's weights, for a
//!           fine-tune; `--dropout P` drops embeddings, attention probabilities and residual
//!           branches with probability P while training. The best checkpoint by validation
//!           loss is kept as DIR/ckpt-best.bin, its step and loss in DIR/best.txt)
//! train export --dir /work/train-run [--ckpt DIR/ckpt.bin] [--out www/model/model.safetensors]
//!           [--emb int8|f16]
//! train eval --dir /work/train-run [--ckpt DIR/ckpt.bin | --weights model.safetensors]
//!           [--stride 64] [--docs all|old] [--breaks line|text]   (validation loss two ways + Kneser-Ney
//!           3-gram baseline fitted on the same training stream; per file, old and new files)
//! train greedy [--weights www/model/model.safetensors]  (greedy fluency: the documentation
//!           prompts with </s> banned, then the 20-prompt set of src/train/eval_prompts.txt)
//! ```
//!
//! Run from the project root (the corpus is read from `../shared/corpus`);
//! `MATMUL_NUM_THREADS=2` lets the matmuls use both cores. Defaults are the
//! first edition's run settings; `--docs old` (with its lesson default) is
//! the first edition's data, `--docs all` (default) the second's. `--breaks line`
//! (default: both editions' base runs) ends every paragraph with `</s>`; `--breaks
//! text` joins a text's paragraphs with a newline and ends only the text with `</s>`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a command-line tool: any failure ends the run with its message

mod eval;
mod export_cmd;
mod loss;
mod run;
mod setup;

use std::collections::HashMap;
use std::path::Path;

use nexttoken::train::bpe;
use nexttoken::train::data;

pub(crate) struct Args(HashMap<String, String>);

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
        "run" => run::cmd_run(&args),
        "export" => export_cmd::cmd_export(&args),
        "eval" => eval::cmd_eval(&args),
        "greedy" => eval::cmd_greedy(&args),
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

pub(crate) fn corpus(args: &Args) -> data::Corpus {
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
