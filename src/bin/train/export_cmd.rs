//! `train export`: a checkpoint to the shipped int8 safetensors, compared with the f32 forward.

use std::path::{Path, PathBuf};

use nexttoken::train::export;
use nexttoken::train::nn::Net;

use crate::Args;

pub(crate) fn cmd_export(args: &Args) {
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

pub(crate) fn softmax(l: &[f32]) -> Vec<f64> {
    let max = l.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = l.iter().map(|&x| ((x - max) as f64).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|x| x / z).collect()
}
