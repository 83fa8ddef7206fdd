//! The hasher of the tokenizer's maps (token text → id, merge pair → rank): rustc-hash 2's word-at-a-time
//! add-multiply (rotated at the end), as rustc uses, instead of std's SipHash. Making a Generator builds these maps
//! from the whole vocabulary (8,000 entries, 5,785 merges, three lookups each) and every encoded
//! prompt looks merges up; SipHash was a large share of that in the page's start-up profile. Flood
//! resistance buys nothing here: the maps are built from the shipped vocabulary, and other text
//! only looks entries up. Only speed depends on the hash; what is found does not.

use std::hash::{BuildHasherDefault, Hasher};

/// Builds [`FxHasher`]s (for `HashMap::with_capacity_and_hasher`).
pub type FxBuild = BuildHasherDefault<FxHasher>;

const K: u64 = 0xf135_7aea_2e62_a9c5;

#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = self.hash.wrapping_add(word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // the length too, so "ab" and "ab\0" differ
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // the table takes its index from the low bits and its tags from the top 7: the product's
        // best-mixed bits are the high ones, so they are rotated down (as rustc-hash 2 does)
        self.hash.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    #[test]
    fn distinct_short_keys_hash_apart() {
        let build = FxBuild::default();
        let keys = [
            "", "a", "ab", "ab\0", "ba", "北京", "北", "京", "<0xE4>", "<0xE5>",
        ];
        let hashes: HashSet<u64> = keys.iter().map(|k| build.hash_one(k)).collect();
        assert_eq!(hashes.len(), keys.len());
        let pairs: HashSet<u64> = (0..64u32)
            .flat_map(|a| (0..64u32).map(move |b| (a, b)))
            .map(|p| build.hash_one(p))
            .collect();
        assert_eq!(pairs.len(), 64 * 64);
    }
}
