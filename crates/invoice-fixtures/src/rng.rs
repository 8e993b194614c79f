//! A tiny seeded generator, so every run invents the same numbers.
//!
//! Each fixture seeds its own generator from its name: adding a fixture never changes the bytes
//! of the others.

/// SplitMix64, seeded from a name by FNV-1a.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: &str) -> Self {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in seed.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        Self(hash)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// An index into a slice of length `len`.
    pub(crate) fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or_default()
    }

    /// One character of `alphabet` (which must be non-empty ASCII).
    pub(crate) fn char_of(&mut self, alphabet: &str) -> char {
        let bytes = alphabet.as_bytes();
        bytes
            .get(self.index(bytes.len()))
            .map_or('0', |&b| char::from(b))
    }

    /// `len` random decimal digits.
    pub(crate) fn digits(&mut self, len: usize) -> String {
        (0..len).map(|_| self.char_of("0123456789")).collect()
    }

    /// `len` random upper-case hexadecimal digits.
    pub(crate) fn hex(&mut self, len: usize) -> String {
        (0..len).map(|_| self.char_of("0123456789ABCDEF")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_different_seeds_differ() {
        assert_eq!(Rng::new("a").digits(12), Rng::new("a").digits(12));
        assert_ne!(Rng::new("a").digits(12), Rng::new("b").digits(12));
        assert_eq!(Rng::new("x").digits(7).len(), 7);
        assert_eq!(Rng::new("x").below(0), 0);
    }
}
