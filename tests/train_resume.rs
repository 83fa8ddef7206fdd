//! A training run interrupted and resumed ends exactly where an uninterrupted
//! one does (the long run's promise, `make train-run`): the `train` binary on
//! a small slice of the corpus, a tiny model, dropout on.
#![cfg(feature = "train")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(dir: &Path, corpus: &Path, extra: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_train"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--dir"])
        .arg(dir)
        .arg("--corpus")
        .arg(corpus)
        .args(["--steps", "6"])
        .args(extra)
        .args([
            "--dim", "16", "--layers", "1", "--heads", "2", "--ctx", "16",
        ])
        .args(["--batch", "2", "--warmup", "10", "--eval-every", "2"])
        .args(["--dropout", "0.1", "--seed", "3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_resumed_run_ends_byte_identical_to_an_uninterrupted_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("train_resume");
    let _ = std::fs::remove_dir_all(&tmp);
    let corpus = tmp.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    for f in nexttoken::train::data::DOC_FILES {
        let Ok(text) = std::fs::read_to_string(src.join(f)) else {
            eprintln!("skipping: {} not present", src.join(f).display());
            return;
        };
        let head: Vec<&str> = text.lines().take(80).collect();
        std::fs::write(corpus.join(f), head.join("\n")).unwrap();
    }
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    // b stops at step 2 (`--until`, as an interruption after a checkpoint
    // would) and resumes; c is in the second edition's text format.
    let (c, d) = (tmp.join("c"), tmp.join("d"));
    run(&a, &corpus, &[]);
    run(&b, &corpus, &["--until", "2"]);
    let ckpt = |d: &Path| std::fs::read(d.join("ckpt.bin")).unwrap();
    assert!(ckpt(&a) != ckpt(&b), "--until 2 did not stop the run early");
    run(&b, &corpus, &[]);
    assert!(ckpt(&a) == ckpt(&b), "the resumed run's checkpoint differs");
    run(&c, &corpus, &["--breaks", "text"]);
    run(&d, &corpus, &["--breaks", "text", "--until", "4"]);
    run(&d, &corpus, &["--breaks", "text"]);
    assert!(ckpt(&c) == ckpt(&d), "the resumed text-format run differs");
    assert!(ckpt(&a) != ckpt(&c), "--breaks text trained on the same stream");
}
