//! The merge loop: characters (or their byte tokens) linked in a list, merged lowest rank first
//! as the `tokenizers` crate's `Word::merge_all` does, step for step.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Tokenizer;

impl Tokenizer {
    fn byte_id(&self, b: u8) -> Option<u32> {
        self.byte_ids.get(usize::from(b)).copied().flatten()
    }

    /// Encodes `text` exactly as the `tokenizers` crate does for this file.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        #[derive(Clone, Copy)]
        struct Sym {
            c: u32,
            prev: isize,
            next: isize,
            len: usize,
        }
        let mut syms: Vec<Sym> = Vec::with_capacity(text.len());
        let push = |c: u32, len: usize, syms: &mut Vec<Sym>| {
            let i = syms.len() as isize;
            if let Some(last) = syms.last_mut() {
                last.next = i;
            }
            syms.push(Sym {
                c,
                prev: i - 1,
                next: -1,
                len,
            });
        };
        let mut buf = [0u8; 4];
        for ch in text.chars() {
            let s = ch.encode_utf8(&mut buf);
            if let Some(&id) = self.ids.get(&*s) {
                push(id, s.len(), &mut syms);
            } else if s.bytes().all(|b| self.byte_id(b).is_some()) {
                for b in s.bytes() {
                    if let Some(id) = self.byte_id(b) {
                        push(id, 1, &mut syms);
                    }
                }
            } else if let Some(&unk) = self.ids.get("<unk>") {
                push(unk, s.len(), &mut syms);
            }
        }
        // Min-heap on (rank, position), as in `tokenizers`' Word::merge_all.
        let mut queue: BinaryHeap<Reverse<(u32, usize, u32)>> = syms
            .iter()
            .zip(syms.iter().skip(1))
            .enumerate()
            .filter_map(|(i, (a, b))| {
                self.merges
                    .get(&(a.c, b.c))
                    .map(|&(r, id)| Reverse((r, i, id)))
            })
            .collect();
        // A link (`prev`, `next`) is -1 at either end, else an index into `syms`: `at` reads
        // both cases as an Option.
        let at = |i: isize| usize::try_from(i).ok();
        while let Some(Reverse((_, pos, new_id))) = queue.pop() {
            let Some(&left) = syms.get(pos) else { continue };
            let Some(next_pos) = at(left.next).filter(|_| left.len != 0) else {
                continue;
            };
            let Some(&right) = syms.get(next_pos) else {
                continue;
            };
            // Skip entries made stale by an earlier merge.
            if self.merges.get(&(left.c, right.c)).map(|m| m.1) != Some(new_id) {
                continue;
            }
            let cur = Sym {
                c: new_id,
                prev: left.prev,
                next: right.next,
                len: left.len + right.len,
            };
            if let Some(s) = syms.get_mut(pos) {
                *s = cur;
            }
            if let Some(s) = syms.get_mut(next_pos) {
                s.len = 0;
            }
            if let Some(s) = at(right.next).and_then(|i| syms.get_mut(i)) {
                s.prev = pos as isize;
            }
            if let Some((p, before)) = at(cur.prev).and_then(|p| Some((p, syms.get(p)?))) {
                if let Some(&(r, id)) = self.merges.get(&(before.c, cur.c)) {
                    queue.push(Reverse((r, p, id)));
                }
            }
            if let Some(after) = at(cur.next).and_then(|i| syms.get(i)) {
                if let Some(&(r, id)) = self.merges.get(&(cur.c, after.c)) {
                    queue.push(Reverse((r, pos, id)));
                }
            }
        }
        syms.iter().filter(|s| s.len != 0).map(|s| s.c).collect()
    }
}
