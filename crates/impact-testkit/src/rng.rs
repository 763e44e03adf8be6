//! [`SplitMix64`]: the seeded generator of every scene and random case.

use impact_geometry::Real;

/// SplitMix64 (Steele, Lea and Flood's generator, as in Java's `SplittableRandom`): 64 bits
/// of state, a few operations per draw, and the same sequence on every platform, so a seed
/// names the same scene everywhere without a random-number crate.
///
/// The field is the state: `SplitMix64(seed)` and [`SplitMix64::new`]`(seed)` are the same
/// generator.
///
/// ```
/// use impact_testkit::SplitMix64;
///
/// let (mut a, mut b) = (SplitMix64::new(7), SplitMix64(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// A generator from `seed`.
    #[inline]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`: the top 53 bits, so every double in `[0, 1)` with spacing
    /// `2^-53` is equally likely.
    #[inline]
    pub fn unit(&mut self) -> Real {
        (self.next_u64() >> 11) as Real / (1u64 << 53) as Real
    }

    /// Uniform in `[lo, hi)`.
    #[inline]
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in `0..n` (the remainder of the next draw: `n` is small next to `2^64`).
    ///
    /// # Panics
    /// If `n` is 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first draws from seed 1234567 are SplitMix64's: every seeded scene and case, and
    /// so every golden value and bench count, depends on this sequence.
    #[test]
    fn the_sequence_is_splitmix64() {
        let mut rng = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }
}
