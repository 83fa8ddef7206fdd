//! The draw is frozen: for every configuration of issue 10's matrix, the same `(seed, draw)` gives
//! the same token as the sorted inverse-CDF walk did before the selection-based draw replaced it.
//! The expected values were recorded from that walk (commit 9e3db5e) and must never change: saved
//! links, lessons and golden tests replay tokens from `(seed, draw)`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{Config, Decoder};

#[path = "support/mod.rs"]
mod support;
use support::{matrix, more_stages, newer_stages, peaked_logits as peaked};

/// Quantised logits: many exact ties, a few −inf.
fn tied(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            if i % 97 == 13 {
                f32::NEG_INFINITY
            } else {
                ((i * 37 + 11) % 9) as f32 * 0.5
            }
        })
        .collect()
}

/// Issue 10's matrix (tests/support) with its own repetition history, and T = 5 after T 1.5.
fn configs() -> Vec<(&'static str, Config)> {
    let history: Vec<u32> = (0..256u32).map(|i| (i * 7 + 3) % 1000).collect();
    let mut configs = matrix(history);
    let t5 = Config {
        temperature: Some(5.0),
        ..Config::default()
    };
    configs.insert(4, ("T 5", t5));
    configs
}

/// FNV-1a over the tokens of draws 0..500 under seed 7: any changed token changes it.
fn fingerprint(decoder: &mut Decoder, logits: &[f32], config: &Config) -> (Vec<u32>, u64) {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut first = Vec::new();
    for draw in 0..500u64 {
        let c = Config {
            seed: Some(7),
            draw: Some(draw),
            trace_top: Some(3),
            ..config.clone()
        };
        let token = decoder.step(logits, &c).expect("valid").token;
        if draw < 8 {
            first.push(token);
        }
        for byte in token.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (first, hash)
}

/// Each row of `rows(vocabulary)` on each pinned logit set: "set | row | first tokens | hash"
/// (`PRINT_PINS=1` prints them, to record new rows).
fn pins(rows: impl Fn(usize) -> Vec<(&'static str, Config)>) -> String {
    let sets: [(&str, Vec<f32>); 4] = [
        ("peaked 1000", peaked(1000)),
        ("peaked 32000", peaked(32_000)),
        ("uniform 3000", vec![0.25; 3000]),
        ("tied 2000", tied(2000)),
    ];
    let mut decoder = Decoder::default();
    let mut got = Vec::new();
    for (set, logits) in &sets {
        for (name, config) in rows(logits.len()) {
            let (first, hash) = fingerprint(&mut decoder, logits, &config);
            got.push(format!("{set} | {name} | {first:?} | {hash:#018x}"));
        }
    }
    let got = got.join("\n");
    if std::env::var_os("PRINT_PINS").is_some() {
        println!("{got}");
    }
    got
}

#[test]
fn the_same_seed_and_draw_give_the_same_token_as_before() {
    let got = pins(|_| configs());
    assert_eq!(got, PINNED.trim());
}

/// The other stages (tests/support `more_stages`), pinned when they joined the benchmark, before
/// any change made them faster: the same `(seed, draw)` must keep giving the same token.
#[test]
fn the_other_stages_give_the_same_token_as_recorded() {
    let got = pins(more_stages);
    assert_eq!(got, PINNED_MORE.trim());
}

/// Rows added after `more_stages` (tests/support `newer_stages`), pinned the same way: recorded
/// with the code before any change made them faster (eta_cutoff with its first code; the page's
/// slider mix with main at 6d0041b, before round thirteen).
#[test]
fn the_newer_rows_give_the_same_token_as_recorded() {
    let got = pins(newer_stages);
    assert_eq!(got, PINNED_NEWER.trim());
}

const PINNED_NEWER: &str = "
peaked 1000 | llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8 | [838, 595, 919, 757, 676, 919, 919, 919] | 0x3651c2441c7e6a50
peaked 1000 | eta 3e-4 | [919, 352, 0, 757, 676, 0, 0, 0] | 0x8842c3d1479d41ec
peaked 1000 | learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history) | [919, 514, 0, 757, 676, 0, 0, 0] | 0x540835947de87b17
peaked 32000 | llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8 | [15838, 7595, 7919, 23757, 31676, 7919, 7919, 7919] | 0x311ba8254e4f67cf
peaked 32000 | eta 3e-4 | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0x752ee842ef862139
peaked 32000 | learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history) | [7919, 15514, 0, 23757, 31676, 0, 0, 0] | 0x98e804c9f8b6975c
uniform 3000 | llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8 | [1464, 2625, 43, 1988, 2270, 656, 432, 484] | 0x694f379f1ec589ee
uniform 3000 | eta 3e-4 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history) | [1611, 2892, 46, 2189, 2501, 721, 473, 532] | 0x5f05fe4d2aec7721
tied 2000 | llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8 | [347, 1515, 69, 1778, 1030, 1005, 672, 753] | 0x7952afd25b3e7747
tied 2000 | eta 3e-4 | [1148, 342, 78, 1237, 1083, 1203, 798, 897] | 0xaf1cbb6f381c74f9
tied 2000 | learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history) | [1077, 1932, 33, 1455, 1671, 474, 312, 357] | 0xd62fd35e76c6a4cd
";

const PINNED_MORE: &str = "
peaked 1000 | epsilon 3e-5 | [919, 352, 0, 757, 676, 0, 0, 0] | 0x56aa5de3a6b7c0f5
peaked 1000 | hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5 | [838, 271, 0, 676, 595, 0, 0, 0] | 0x4a51b61fc71203f2
peaked 1000 | llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64) | [919, 352, 0, 757, 676, 0, 0, 0] | 0x56aa5de3a6b7c0f5
peaked 1000 | llama.cpp dynatemp 0.8 ± 0.5 | [919, 676, 0, 919, 838, 0, 0, 0] | 0xd96e4700ed6a993b
peaked 1000 | logit_bias 32 ids (8 bans) | [919, 352, 0, 757, 676, 0, 0, 0] | 0x4d7b5353a5f10054
peaked 1000 | min_new_tokens 8 (eos 0) | [838, 271, 919, 676, 595, 919, 919, 919] | 0xe3e8b90446112b72
peaked 32000 | epsilon 3e-5 | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0xfda5cd71eb13752f
peaked 32000 | hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5 | [15838, 15190, 0, 31676, 7595, 0, 0, 0] | 0xe43198c28e8df1b1
peaked 32000 | llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64) | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0x3468e9e135b0f353
peaked 32000 | llama.cpp dynatemp 0.8 ± 0.5 | [0, 31676, 0, 7919, 15838, 0, 0, 0] | 0xf08ff203a78314d9
peaked 32000 | logit_bias 32 ids (8 bans) | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0x93e062eaf26c9e50
peaked 32000 | min_new_tokens 8 (eos 0) | [15838, 7271, 7919, 31676, 7595, 7919, 7919, 7919] | 0xda8419d1b257f9bc
uniform 3000 | epsilon 3e-5 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5 | [1842, 1502, 54, 2498, 2856, 822, 541, 608] | 0x02a986db19b36fae
uniform 3000 | llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64) | [1626, 2916, 47, 2207, 2521, 726, 478, 537] | 0x8509a510f4190c04
uniform 3000 | llama.cpp dynatemp 0.8 ± 0.5 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | logit_bias 32 ids (8 bans) | [1386, 2874, 302, 2057, 2420, 350, 63, 132] | 0x25383674c13541a4
uniform 3000 | min_new_tokens 8 (eos 0) | [1612, 2892, 46, 2189, 2501, 721, 474, 533] | 0x103e56787ff9109b
tied 2000 | epsilon 3e-5 | [1148, 342, 78, 1237, 1083, 1203, 798, 897] | 0xaf1cbb6f381c74f9
tied 2000 | hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5 | [752, 559, 105, 1399, 1119, 1671, 1095, 1230] | 0xe381160eeb9217bc
tied 2000 | llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64) | [1175, 414, 87, 1246, 1011, 1239, 843, 933] | 0xf87b6f53260e34aa
tied 2000 | llama.cpp dynatemp 0.8 ± 0.5 | [1697, 1809, 87, 111, 263, 1392, 924, 1032] | 0x00d9b77e19f6fa9e
tied 2000 | logit_bias 32 ids (8 bans) | [1689, 1378, 104, 1850, 1732, 84, 1292, 1490] | 0xe66943168e30aec5
tied 2000 | min_new_tokens 8 (eos 0) | [1148, 342, 78, 1237, 1083, 1203, 798, 897] | 0x67059ff9487e8539
";

const PINNED: &str = "
peaked 1000 | greedy | [0, 0, 0, 0, 0, 0, 0, 0] | 0x79b4da79586cdf65
peaked 1000 | T 1 | [919, 352, 0, 757, 676, 0, 0, 0] | 0x56aa5de3a6b7c0f5
peaked 1000 | T 0.7 | [919, 595, 0, 838, 757, 0, 0, 0] | 0x54790475590258c4
peaked 1000 | T 1.5 | [838, 947, 0, 676, 514, 919, 0, 0] | 0x4153fd67f64ff0ad
peaked 1000 | T 5 | [425, 772, 0, 809, 519, 542, 352, 190] | 0xcde76d7e1449cc1d
peaked 1000 | top-k 40 | [919, 352, 0, 757, 676, 0, 0, 0] | 0x56aa5de3a6b7c0f5
peaked 1000 | top-p 0.9 | [919, 595, 0, 838, 757, 0, 0, 0] | 0x2a884647b281157c
peaked 1000 | min-p 0.05 | [919, 514, 0, 757, 676, 0, 0, 0] | 0x7251ff83e54f7b76
peaked 1000 | typical-p 0.9 | [919, 595, 0, 838, 757, 0, 0, 0] | 0x2a884647b281157c
peaked 1000 | repetition 1.3 (256 history) | [919, 352, 0, 838, 757, 0, 0, 0] | 0x3ff5405b6a722925
peaked 1000 | combined hf | [919, 676, 0, 838, 757, 0, 0, 0] | 0x66a649738473a15c
peaked 1000 | combined llama.cpp | [919, 595, 0, 838, 757, 0, 0, 0] | 0x2ab655529c5ad9a4
peaked 1000 | combined vllm | [919, 676, 0, 838, 838, 0, 0, 0] | 0xd76129ab07e27839
peaked 32000 | greedy | [0, 0, 0, 0, 0, 0, 0, 0] | 0x79b4da79586cdf65
peaked 32000 | T 1 | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0x3468e9e135b0f353
peaked 32000 | T 0.7 | [7919, 7595, 0, 15838, 23757, 0, 0, 0] | 0xfefa64410e8db714
peaked 32000 | T 1.5 | [23757, 425, 0, 23433, 14866, 7919, 0, 0] | 0x94e633c1f29768e9
peaked 32000 | T 5 | [24488, 30406, 9008, 27254, 9007, 29878, 17663, 29649] | 0x0d6557bbf18145cf
peaked 32000 | top-k 40 | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0xfda5cd71eb13752f
peaked 32000 | top-p 0.9 | [7919, 7595, 0, 15838, 23757, 0, 0, 0] | 0x8763863b0f449201
peaked 32000 | min-p 0.05 | [7919, 15514, 0, 23757, 31676, 0, 0, 0] | 0x0cde0966a5715832
peaked 32000 | typical-p 0.9 | [7919, 7595, 0, 15838, 23757, 0, 0, 0] | 0x8763863b0f449201
peaked 32000 | repetition 1.3 (256 history) | [7919, 31352, 0, 23757, 31676, 0, 0, 0] | 0x6365869f5be430ad
peaked 32000 | combined hf | [7919, 31676, 0, 15838, 23757, 0, 0, 0] | 0x9a1476d4e737c841
peaked 32000 | combined llama.cpp | [7919, 7595, 0, 15838, 23757, 0, 0, 0] | 0xba868d647e00e26e
peaked 32000 | combined vllm | [7919, 31676, 0, 15838, 15838, 0, 0, 0] | 0x390fbafcc9bb4ecd
uniform 3000 | greedy | [0, 0, 0, 0, 0, 0, 0, 0] | 0x79b4da79586cdf65
uniform 3000 | T 1 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | T 0.7 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | T 1.5 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | T 5 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | top-k 40 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | top-p 0.9 | [1450, 2603, 41, 1970, 2251, 648, 426, 479] | 0x2a4028c5ca66277f
uniform 3000 | min-p 0.05 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | typical-p 0.9 | [1612, 2892, 45, 2189, 2501, 720, 473, 532] | 0xf8b1010b703d290d
uniform 3000 | repetition 1.3 (256 history) | [1860, 500, 63, 2434, 2745, 968, 659, 741] | 0xa0a84ef13201f9c4
uniform 3000 | combined hf | [1531, 2748, 43, 2079, 2376, 684, 449, 505] | 0xa966998309199199
uniform 3000 | combined llama.cpp | [20, 36, 0, 27, 31, 9, 5, 6] | 0xc7cb7d48004bde63
uniform 3000 | combined vllm | [1531, 2748, 43, 2079, 2376, 684, 449, 505] | 0xa966998309199199
tied 2000 | greedy | [6, 6, 6, 6, 6, 6, 6, 6] | 0xefa27dc7acdaee25
tied 2000 | T 1 | [1148, 342, 78, 1237, 1083, 1203, 798, 897] | 0xaf1cbb6f381c74f9
tied 2000 | T 0.7 | [203, 1370, 60, 1742, 1174, 942, 609, 690] | 0x8220f62bc0cd3ea8
tied 2000 | T 1.5 | [328, 962, 105, 1173, 1496, 1599, 1059, 1185] | 0xc756de641112f226
tied 2000 | T 5 | [1695, 1006, 186, 1378, 1674, 1094, 1968, 230] | 0xf606fdb91bf18845
tied 2000 | top-k 40 | [1077, 1932, 33, 1455, 1671, 474, 312, 357] | 0xd62fd35e76c6a4cd
tied 2000 | top-p 0.9 | [707, 1848, 69, 238, 1516, 1086, 708, 807] | 0xf6d14e4680d96c2b
tied 2000 | min-p 0.05 | [977, 1937, 78, 841, 345, 1158, 753, 861] | 0xaedb28c5e4169ece
tied 2000 | typical-p 0.9 | [833, 758, 69, 517, 1840, 1122, 726, 825] | 0x22553224ec329c83
tied 2000 | repetition 1.3 (256 history) | [1535, 702, 96, 1669, 1596, 1374, 996, 1086] | 0xf16550bf0ae4a39e
tied 2000 | combined hf | [1023, 1833, 33, 1383, 1581, 456, 294, 339] | 0x365aa872c84af7d0
tied 2000 | combined llama.cpp | [186, 330, 6, 249, 285, 87, 51, 60] | 0x8a3c58338742995c
tied 2000 | combined vllm | [1023, 1833, 33, 1383, 1581, 456, 294, 339] | 0x365aa872c84af7d0
";
