//! The tokenizer against what a page or a library user may hand it: any text (every plane, NUL,
//! U+FFFD where JavaScript had a lone surrogate, combining marks, emoji ZWJ sequences, mixed
//! scripts, 100,000 characters) encodes without a panic and, with the shipped tokenizer (byte
//! fallback for all 256 bytes, no normalizer), decodes back to itself, as `tokenizer`'s doc
//! promises; and any tokenizer.json, however cut or edited, is a result or an error naming its
//! field, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::tokenizer::Tokenizer;
use proptest::prelude::*;
use std::sync::OnceLock;

fn shipped_json() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/www/model/tokenizer.json"
        ))
        .unwrap()
    })
}

fn shipped() -> &'static Tokenizer {
    static TOKENIZER: OnceLock<Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| Tokenizer::from_json(shipped_json()).unwrap())
}

/// Pieces a class types or pastes: NUL and controls, U+FFFD, a BOM, combining marks, ZWJ
/// sequences and flags, right-to-left and Indic scripts, CJK inside and outside the vocabulary,
/// astral and private-use characters, the last scalar value.
const PIECES: &[&str] = &[
    "\0",
    "\u{1}\u{7f}\u{9f}",
    "\u{FFFD}",
    "\u{FEFF}",
    "e\u{301}\u{302}\u{303}",
    "\u{301}",
    "👩\u{200D}👩\u{200D}👧\u{200D}👦",
    "🏳\u{FE0F}\u{200D}🌈",
    "🇨🇳🇬🇧",
    "مرحبا",
    "नमस्ते",
    "中国的首都是北京",
    "鱻𠀀𪚥",
    "\u{E0001}\u{E0067}",
    "\u{F8FF}\u{10FFFF}",
    "\r\n\t ",
    "a",
    "  ",
];

fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.concat()),
        prop::collection::vec(any::<char>(), 0..200).prop_map(|c| c.into_iter().collect()),
    ]
}

fn round_trips(t: &Tokenizer, s: &str) {
    let ids = t.encode(s);
    assert!(ids.iter().all(|&id| (id as usize) < t.vocab_size()));
    let d = t.decode(&ids).unwrap();
    assert_eq!(d.text, s);
    assert!(d.pending.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_text_encodes_and_decodes_back_to_itself(s in hostile_text()) {
        round_trips(shipped(), &s);
    }

    /// The shipped file cut at any character, or with one character replaced: a tokenizer or an
    /// error, never a panic.
    #[test]
    fn any_cut_or_edited_tokenizer_json_is_a_result(at in 0usize..250_000, c in any::<char>(), cut in any::<bool>()) {
        let json = shipped_json();
        let mut at = at % (json.len() + 1);
        while !json.is_char_boundary(at) {
            at -= 1;
        }
        let edited = if cut {
            json[..at].to_owned()
        } else {
            let rest = &json[at..];
            let skip = rest.chars().next().map_or(0, char::len_utf8);
            format!("{}{c}{}", &json[..at], &rest[skip..])
        };
        if let Ok(t) = Tokenizer::from_json(&edited) {
            let _ = t.encode("中国的首都是北京 \u{0} 👩\u{200D}👧");
        }
    }
}

#[test]
fn a_hundred_thousand_characters_of_every_kind_round_trip() {
    let (mut text, mut chars) = (String::new(), 0);
    for piece in PIECES.iter().cycle() {
        if chars >= 100_000 {
            break;
        }
        text.push_str(piece);
        chars += piece.chars().count();
    }
    round_trips(shipped(), &text);
    let plain = "中".repeat(100_000);
    round_trips(shipped(), &plain);
}

/// A tokenizer with no byte tokens and no `<unk>`: characters it cannot spell are dropped (there
/// is nothing to encode them as), never a panic, and what it can spell still round-trips.
#[test]
fn a_tokenizer_without_byte_tokens_drops_what_it_cannot_spell() {
    let t = Tokenizer::from_json(
        r#"{"model":{"type":"BPE","byte_fallback":true,"vocab":{"a":0,"b":1,"ab":2},"merges":[["a","b"]]}}"#,
    )
    .unwrap();
    assert_eq!(t.encode("ab"), [2]);
    // (the dropped characters leave "a" next to "b", which merge)
    assert_eq!(t.encode("a\u{0}b👩\u{200D}👧ab"), [2, 2]);
    assert_eq!(t.encode("b\u{0}a"), [1, 0]);
    assert_eq!(t.encode(""), Vec::<u32>::new());
}

/// Each field a file may get wrong, with the message naming it and the rule. (main refused every
/// one of these already; kept as the contract.)
#[test]
fn every_bad_field_is_named_with_its_rule() {
    let file = |vocab: &str, merges: &str| {
        format!(
            r#"{{"model":{{"type":"BPE","byte_fallback":true,"vocab":{vocab},"merges":{merges}}}}}"#
        )
    };
    for (text, message) in [
        (String::new(), "tokenizer.json is not valid JSON: unexpected end of JSON at byte 0"),
        (file(r#"{"a":1}"#, "[]"), "tokenizer.json field `model.vocab`: id of \"a\" must be an integer in 0..1"),
        (file(r#"{"a":-1}"#, "[]"), "tokenizer.json field `model.vocab`: id of \"a\" must be an integer in 0..1"),
        (file(r#"{"a":0.5}"#, "[]"), "tokenizer.json field `model.vocab`: id of \"a\" must be an integer in 0..1"),
        (file(r#"{"a":4294967296}"#, "[]"), "tokenizer.json field `model.vocab`: id of \"a\" must be an integer in 0..1"),
        (file(r#"{"a":0,"b":0}"#, "[]"), "tokenizer.json field `model.vocab`: id 0 is used twice"),
        (file(r#"{"a":0}"#, r#"[["a","zz"]]"#), "tokenizer.json field `model.merges`: entry 0 uses \"zz\", which is not in the vocabulary"),
        (file(r#"{"a":0}"#, r#"[["a","a"]]"#), "tokenizer.json field `model.merges`: entry 0 uses \"aa\", which is not in the vocabulary"),
        (file(r#"{"a":0}"#, r#"[["a",1]]"#), "tokenizer.json field `model.merges`: entry 0 must be two strings"),
        (file(r#"{"a":0}"#, r#"[["a"]]"#), "tokenizer.json field `model.merges`: entry 0 must be a pair"),
        (file(r#"{"a":0}"#, r#"["aa"]"#), "tokenizer.json field `model.merges`: entry 0 has no space"),
        (file("[]", "[]"), "tokenizer.json field `model.vocab`: missing or not an object"),
        (file("{}", "{}"), "tokenizer.json field `model.merges`: missing or not an array"),
        (format!("{}{}", "[".repeat(65), "]".repeat(65)), "tokenizer.json is not valid JSON: JSON nested too deeply at byte 64"),
    ] {
        assert_eq!(Tokenizer::from_json(&text).err().unwrap().to_string(), message, "{text}");
    }
}
