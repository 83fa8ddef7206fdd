//! The project's tokenizer on the shipped `www/model/tokenizer.json`: the
//! chapter's words are single tokens, text round-trips, unfinished
//! characters stay pending, and (with `--features train` and the corpus at
//! `../shared/corpus`) encoding equals the `tokenizers` crate on every line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::tokenizer::Tokenizer;

fn shipped() -> Tokenizer {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/model/tokenizer.json"
    ))
    .unwrap();
    Tokenizer::from_json(&text).unwrap()
}

#[test]
fn chapter_words_are_single_tokens() {
    let t = shipped();
    for w in ["超集", "用户", "界面", "北京", "首都"] {
        let ids = t.encode(w);
        assert_eq!(ids.len(), 1, "{w} -> {ids:?}");
        assert_eq!(t.token(ids[0]), Some(w));
    }
    let ids = t.encode("中国的首都是");
    let toks: Vec<&str> = ids.iter().filter_map(|&i| t.token(i)).collect();
    assert_eq!(toks, ["中国", "的", "首都", "是"]);
}

#[test]
fn any_text_round_trips() {
    let t = shipped();
    for s in [
        "",
        " ",
        "  两个空格 ",
        "TypeScript 是 JavaScript 的超集",
        "emoji 😀 and 鱻 and \u{0}\t\n",
        "🚧⚛ «x» ×",
    ] {
        let d = t.decode(&t.encode(s)).unwrap();
        assert_eq!(d.text, s);
        assert!(d.pending.is_empty());
    }
}

#[test]
fn unseen_characters_fall_back_to_bytes_and_stay_pending_mid_character() {
    let t = shipped();
    let ids = t.encode("鱻");
    assert_eq!(ids.len(), 3, "鱻 should be three byte tokens: {ids:?}");
    assert!(ids.iter().all(|&i| t.is_byte(i)));
    let d = t.decode(&ids[..2]).unwrap();
    assert_eq!(d.text, "");
    assert_eq!(d.pending, "鱻".as_bytes()[..2].to_vec());
    assert!(!t.decode(&ids).unwrap().text.contains('\u{FFFD}'));
    assert!(t.decode(&[u32::MAX]).is_err());
}

#[test]
fn bad_tokenizer_json_is_an_error_naming_the_field() {
    for (text, needle) in [
        ("{", "JSON"),
        ("{}", "model"),
        (r#"{"model":{"type":"Unigram"}}"#, "model.type"),
        (
            r#"{"model":{"type":"BPE","byte_fallback":true,"vocab":{"a":5},"merges":[]}}"#,
            "model.vocab",
        ),
        (
            r#"{"model":{"type":"BPE","byte_fallback":true,"vocab":{"a":0},"merges":[["a","b"]]}}"#,
            "model.merges",
        ),
    ] {
        let e = Tokenizer::from_json(text)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(needle), "{text}: {e}");
    }
}

#[cfg(feature = "train")]
#[test]
fn encoding_equals_the_tokenizers_crate_on_the_whole_corpus() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/model/tokenizer.json");
    let reference = tokenizers::Tokenizer::from_file(path).unwrap();
    let ours = shipped();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut files: Vec<std::path::PathBuf> = nexttoken::train::data::DOC_FILES
        .iter()
        .map(|f| dir.join(f))
        .collect();
    for lessons in ["lessons_zh.txt", "lessons_everyday.txt"] {
        files.push(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src/train")
                .join(lessons),
        );
    }
    let mut lines = 0;
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            eprintln!("skipping {} (corpus not present)", f.display());
            continue;
        };
        for line in text.lines().chain(["😀 鱻 \u{1F9EA}  tabs\tand\r\n"]) {
            let want = reference.encode(line, false).unwrap().get_ids().to_vec();
            assert_eq!(ours.encode(line), want, "{line}");
            lines += 1;
        }
        // Whole files too: merges across paragraph breaks must agree.
        let head: String = text.chars().take(20_000).collect();
        assert_eq!(
            ours.encode(&head),
            reference
                .encode(head.as_str(), false)
                .unwrap()
                .get_ids()
                .to_vec()
        );
    }
    println!("{lines} lines equal");
}

/// Encoding throughput on README.md (mixed Chinese, English, code; a benchmark, not a timed
/// test): `cargo test --release --test tokenizer -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_encode_throughput() {
    let t = shipped();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (mut bytes, mut tokens) = (0usize, 0usize);
    let start = std::time::Instant::now();
    while start.elapsed().as_secs_f64() < 3.0 {
        tokens += t.encode(&text).len();
        bytes += text.len();
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "tokenizer encode: {:.2} MB/s, {:.0} tokens/s",
        bytes as f64 / s / 1e6,
        tokens as f64 / s
    );
}
