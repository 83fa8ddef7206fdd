//! How tokens leave the working set: a stage's keep test, marks made beforehand, or a handful
//! of ids (bans, end ids). Each keeps `kept` in its order and the sorted-prefix invariant.

use super::candidates::{Work, KEPT};
use super::select::consecutive;

/// Up to this many removals by id are dropped from `kept` by position (`Work::remove_ids`).
const FEW: usize = 64;

impl Work {
    /// Removes every kept token for which `keep` is false, marking it with `stage`. Keeps the
    /// sorted-prefix invariant: survivors of the prefix are still the best survivors, in order.
    pub fn retain(&mut self, stage: u8, mut keep: impl FnMut(u32) -> bool) -> usize {
        let before = self.kept.len();
        let (sorted, removed_by) = (self.sorted, &mut self.removed_by);
        let mut sorted_survivors = 0;
        let mut read = 0;
        // `retain` visits every id once, in order
        self.kept.retain(|&id| {
            let in_prefix = read < sorted;
            read += 1;
            if keep(id) {
                sorted_survivors += usize::from(in_prefix);
                true
            } else {
                if let Some(slot) = removed_by.get_mut(id as usize) {
                    *slot = stage;
                }
                false
            }
        });
        let write = self.kept.len();
        self.sorted = sorted_survivors;
        if write != before {
            self.kept_changed();
        }
        before - write
    }

    /// `retain` after the caller marked `removed_by` itself (a contiguous pass over every id):
    /// drops the kept ids no longer marked `KEPT`, in order, keeping the sorted-prefix invariant.
    /// A block of 64 kept ids that is a run of consecutive ids none of which is still marked
    /// `KEPT` is dropped after two passes that vectorise (a cutoff on a peaked distribution
    /// removes all but a few hundred of 151,936 ids, and a look-up per id was about a quarter of
    /// its step).
    pub fn retain_marked(&mut self) -> usize {
        const BLOCK: usize = 64;
        let before = self.kept.len();
        let (kept, removed_by) = (&mut self.kept, &self.removed_by);
        let marked = |id: u32| removed_by.get(id as usize) == Some(&KEPT);
        let (mut write, mut sorted_survivors) = (0usize, 0usize);
        for start in (0..before).step_by(BLOCK) {
            let end = (start + BLOCK).min(before);
            let block = kept.get(start..end).unwrap_or_default();
            let marks =
                consecutive(block).and_then(|first| removed_by.get(first..first + block.len()));
            if marks.is_some_and(|m| !m.iter().fold(false, |any, &m| any | (m == KEPT))) {
                continue;
            }
            // Every id stored and the write position advanced by its mark: no branch on it.
            for read in start..end {
                let id = kept.get(read).copied().unwrap_or_default();
                let survives = marked(id);
                sorted_survivors += usize::from(survives & (read < self.sorted));
                if let Some(slot) = kept.get_mut(write) {
                    *slot = id;
                }
                write += usize::from(survives);
            }
        }
        kept.truncate(write);
        self.sorted = sorted_survivors;
        if write != before {
            self.kept_changed();
        }
        before - write
    }

    /// `retain_marked` when every id still marked `KEPT` is in `among` (ids in `kept`'s order,
    /// typical-p's band): `kept` becomes those of `among` still marked, with no pass over `kept`
    /// beyond its sorted prefix. The same list, prefix and changed state as `retain_marked`.
    pub fn retain_marked_among(&mut self, among: &[u32]) -> usize {
        let before = self.kept.len();
        let marked = |id: &u32| self.removed_by.get(*id as usize) == Some(&KEPT);
        let sorted_survivors = self
            .kept
            .get(..self.sorted)
            .unwrap_or_default()
            .iter()
            .filter(|id| marked(id))
            .count();
        // Every id stored and the write position advanced by the test: no branch on the marks.
        // `among` is no longer than `kept` (it holds the survivors, and they are kept).
        let (kept, removed_by) = (&mut self.kept, &self.removed_by);
        let mut write = 0usize;
        for &id in among {
            if let Some(slot) = kept.get_mut(write) {
                *slot = id;
            }
            write += usize::from(removed_by.get(id as usize) == Some(&KEPT));
        }
        kept.truncate(write);
        self.sorted = sorted_survivors;
        let write = self.kept.len();
        if write != before {
            self.kept_changed();
        }
        before - write
    }

    /// Removes the listed ids that are still kept (a handful: bans, end ids), marking them with
    /// `stage`: each id is marked by index, then one pass drops the marked ids from `kept`, in
    /// order. Duplicates and ids already removed change nothing.
    pub fn remove_ids(&mut self, stage: u8, ids: impl IntoIterator<Item = u32>) -> usize {
        let mut marked = 0;
        let mut few = [0u32; FEW];
        // The max stays known unless a removed id holds it (a ban elsewhere leaves it).
        let mut max = self.known_max();
        for id in ids {
            if let Some(slot) = self.removed_by.get_mut(id as usize) {
                if *slot == KEPT {
                    if max.is_some() && self.processed.get(id as usize).copied() == max {
                        max = None;
                    }
                    *slot = stage;
                    self.listed_removed.push(id);
                    self.raw_blocks.changed([id]);
                    if let Some(f) = few.get_mut(marked) {
                        *f = id;
                    }
                    marked += 1;
                }
            }
        }
        if marked == 0 {
            return 0;
        }
        let removed = if marked <= FEW && self.sorted == 0 && self.drop_in_order(few.get(..marked))
        {
            marked
        } else {
            self.retain_marked()
        };
        if let Some(max) = max {
            self.set_max(max);
        }
        removed
    }

    /// Drops a handful of ids from `kept` while it is in id order (as the early stages see it):
    /// each one's position by binary search, then the runs between them moved down — the same
    /// list `retain_marked` leaves, without a look-up per kept token. False (nothing changed)
    /// when an id is not where id order puts it; the caller then takes the general pass.
    fn drop_in_order(&mut self, ids: Option<&[u32]>) -> bool {
        let mut at = [0usize; FEW];
        let ids = ids.unwrap_or_default();
        for (slot, id) in at.iter_mut().zip(ids) {
            match self.kept.binary_search(id) {
                Ok(pos) => *slot = pos,
                Err(_) => return false,
            }
        }
        let at = at.get_mut(..ids.len()).unwrap_or_default();
        at.sort_unstable();
        let len = self.kept.len();
        let mut write = at.first().copied().unwrap_or(len);
        for (i, &pos) in at.iter().enumerate() {
            let next = at.get(i + 1).copied().unwrap_or(len);
            self.kept.copy_within(pos + 1..next, write);
            write += next - pos - 1;
        }
        self.kept.truncate(write);
        self.kept_changed();
        true
    }
}
