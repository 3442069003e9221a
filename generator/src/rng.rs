//! A small deterministic random number generator (SplitMix64): the same seed gives the same
//! candidates on every machine and with any thread count.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator for candidate `index` of a run seeded with `seed`: independent streams,
    /// so candidates do not depend on the order they are made in.
    pub fn for_candidate(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ 0x5453_554d_4547_454e); // "TSUMEGEN"
        let mixed = r.next_u64() ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Rng(mixed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// `true` with probability `p_percent` / 100.
    pub fn chance(&mut self, p_percent: u64) -> bool {
        self.below(100) < p_percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map(|_| Rng::for_candidate(7, 3).next_u64())
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_candidate(7, 3).next_u64(),
            Rng::for_candidate(7, 4).next_u64()
        );
        assert_ne!(
            Rng::for_candidate(7, 3).next_u64(),
            Rng::for_candidate(8, 3).next_u64()
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::for_candidate(1, 1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = r.below(5) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
