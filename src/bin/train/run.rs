//! `train run`: the training loop, with its schedule, checkpoints and log.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use nexttoken::train::export;
use nexttoken::train::nn::{self, Adam, Net, Rng};

use crate::loss::{val_loss, VAL_WINDOWS};
use crate::setup::{run_cfg, streams, RunCfg};
use crate::Args;

pub(crate) fn lr_at(rc: &RunCfg, step: u64) -> f32 {
    if step < rc.warmup {
        return rc.lr * (step + 1) as f32 / rc.warmup as f32;
    }
    let p = (step - rc.warmup) as f32 / (rc.steps - rc.warmup).max(1) as f32;
    let min = 0.1 * rc.lr;
    min + 0.5 * (rc.lr - min) * (1.0 + (std::f32::consts::PI * p.min(1.0)).cos())
}

/// Held-out windows scored at each checkpoint during a run (≈ 25 k tokens).
pub(crate) fn cmd_run(args: &Args) {
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
    // `--until` stops early without changing the schedule `--steps` sets.
    let end = rc.until.min(rc.steps);
    while adam.step < end {
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
        if done % 10 == 0 || done == end {
            let eta = (end - done) as f64 * el / (done - first) as f64;
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
        if done % rc.eval_every == 0 || done == end {
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
