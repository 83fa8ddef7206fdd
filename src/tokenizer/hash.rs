//! The hasher of the tokenizer's lookup tables (text → id, pair → merge): a multiply-rotate hash
//! over 8-byte words, as rustc's own tables use, instead of std's SipHash, which made building the
//! tables most of loading `tokenizer.json` in wasm. Only lookups read the tables (nothing iterates
//! them), so the hash decides no result. A tokenizer file written to collide slows its own loading
//! only, bounded by the file's size limit.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` under [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// rustc-hash's multiplier (an odd constant with well-mixed bits).
const K: u64 = 0xf135_7aea_2e62_a9c5;

#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher {
    hash: u64,
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // the length tells "ab" from "ab\0"
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // hashbrown reads the top 7 bits as the control byte: bring the well-mixed bits there
        self.hash.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_lookups_find_every_entry() {
        let mut map: FastMap<String, u32> = FastMap::default();
        let words: Vec<String> = (0..20_000u32)
            .map(|i| {
                format!(
                    "{i}<0x{:02X}>北京{}",
                    i % 256,
                    "a".repeat((i % 17) as usize)
                )
            })
            .collect();
        for (i, w) in words.iter().enumerate() {
            map.insert(w.clone(), i as u32);
        }
        assert_eq!(map.len(), words.len());
        for (i, w) in words.iter().enumerate() {
            assert_eq!(map.get(w.as_str()), Some(&(i as u32)));
        }
        assert_eq!(map.get("not there"), None);
        let mut pairs: FastMap<(u32, u32), u32> = FastMap::default();
        for a in 0..300u32 {
            for b in 0..300u32 {
                pairs.insert((a, b), a * 300 + b);
            }
        }
        assert!(
            (0..300u32).all(|a| (0..300u32).all(|b| pairs.get(&(a, b)) == Some(&(a * 300 + b))))
        );
    }
}
