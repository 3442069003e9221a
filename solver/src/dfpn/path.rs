//! The positions on the current path, for the repetition rule: a child already on the path
//! repeats it (perpetual check is no mate). Every child of every expanded node is looked
//! up here, and almost none is on the path, so a small counting filter in front of the map
//! answers most look-ups without hashing.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hashes the path's Zobrist keys, which are already uniformly random, by taking them as
/// they are (SipHash showed in profiles).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Counters of the filter: a power of two, well above the longest paths (ミクロコスモス's
/// 1,525 plies) so that most slots of a path's keys are empty.
const FILTER_SLOTS: usize = 1 << 12;

/// The full keys of the positions on the path, with their path depth.
#[derive(Clone)]
pub(super) struct Path {
    depths: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// `filter[slot(k)]`: how many keys on the path share the slot of `k`; zero means `k`
    /// is not on the path.
    filter: Box<[u16; FILTER_SLOTS]>,
}

#[inline]
fn slot(key: u64) -> usize {
    key as usize & (FILTER_SLOTS - 1)
}

impl Path {
    /// A path holding the root's key `root` at depth 0.
    pub(super) fn new(root: u64) -> Path {
        let mut path = Path {
            depths: HashMap::default(),
            filter: Box::new([0; FILTER_SLOTS]),
        };
        path.insert(root, 0);
        path
    }

    /// The path depth of the position `key`, if it is on the path.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        if self.filter[slot(key)] == 0 {
            return None;
        }
        self.depths.get(&key).copied()
    }

    /// Whether the position `key` is on the path.
    #[inline]
    pub(super) fn contains(&self, key: u64) -> bool {
        self.get(key).is_some()
    }

    /// Puts `key` on the path at `depth` (replacing its depth if it is there already).
    #[inline]
    pub(super) fn insert(&mut self, key: u64, depth: u32) {
        if self.depths.insert(key, depth).is_none() {
            self.filter[slot(key)] += 1;
        }
    }

    /// Puts `key` on the path at `depth` unless it is there already.
    #[inline]
    pub(super) fn insert_new(&mut self, key: u64, depth: u32) {
        if self.get(key).is_none() {
            self.insert(key, depth);
        }
    }

    /// Takes `key` off the path.
    #[inline]
    pub(super) fn remove(&mut self, key: u64) {
        if self.depths.remove(&key).is_some() {
            self.filter[slot(key)] -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter never hides a key on the path: keys that share a slot, put on and taken
    /// off in any order, are found exactly while they are on it.
    #[test]
    fn keys_sharing_a_slot_are_found_while_on_the_path() {
        let same_slot = |i: u64| (i << 40) | 7;
        let mut path = Path::new(same_slot(0));
        for i in 1..5 {
            path.insert(same_slot(i), i as u32);
        }
        path.insert(same_slot(2), 9);
        assert_eq!(path.get(same_slot(2)), Some(9));
        path.remove(same_slot(1));
        path.remove(same_slot(1));
        assert_eq!(path.get(same_slot(1)), None);
        for i in [0, 2, 3, 4] {
            assert!(path.contains(same_slot(i)), "key {i} lost");
        }
        path.insert_new(same_slot(3), 20);
        assert_eq!(path.get(same_slot(3)), Some(3));
        for i in 0..5 {
            path.remove(same_slot(i));
        }
        assert!((0..5).all(|i| !path.contains(same_slot(i))));
        assert_eq!(path.filter[slot(same_slot(0))], 0);
        assert!(!path.contains(8));
    }
}
