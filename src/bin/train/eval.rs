//! `train eval` (held-out loss per file vs the Kneser-Ney 3-gram) and `train greedy` (fluency).

use std::path::{Path, PathBuf};

use nexttoken::train::data::{self};
use nexttoken::train::export;
use nexttoken::train::nn::Net;

use crate::loss::{val_loss, val_loss_strided};
use crate::setup::{run_cfg, streams};
use crate::{corpus, Args};

pub(crate) fn cmd_eval(args: &Args) {
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
pub(crate) const GREEDY_PROMPTS: [&str; 7] = [
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
pub(crate) fn cmd_greedy(args: &Args) {
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
