//! Sine and cosine for every rotation the stack computes: [`Sweep::pose_at`](crate::Sweep),
//! the solver's position integration and conservative advancement.
//!
//! The platform's `sin_cos` (glibc's) saves and restores the floating-point environment on
//! every call, which made it a fifth of the time of a rotating time-of-impact query and a tenth
//! of a pyramid's step. These are fdlibm's kernels (the polynomials every libm descends from)
//! after a two-part Cody–Waite reduction by pi/2, accurate to about an ulp for the angles a
//! sweep turns through in one query, and pure arithmetic, so they give the same bits on every
//! platform. Angles beyond `REDUCTION_LIMIT` fall back to the platform's functions, where the
//! two-part reduction would lose digits.

// The constants are fdlibm's literals as published, so that they can be checked against it.
#![allow(clippy::excessive_precision)]

use crate::math::{Real, Rotation};
use wide::f64x2;

/// Largest angle reduced here (radians): `k * PIO2_TAIL` stays exact to an ulp for `k` below
/// about 2^20.
const REDUCTION_LIMIT: Real = 1.0e5;
/// The first 33 bits of pi/2 (so `k * PIO2_HEAD` is exact for the `k` allowed above).
const PIO2_HEAD: Real = 1.570_796_326_734_125_614_17;
/// pi/2 minus `PIO2_HEAD`.
const PIO2_TAIL: Real = 6.077_100_506_506_192_249_32e-11;

const S1: Real = -1.666_666_666_666_663_243_48e-1;
const S2: Real = 8.333_333_333_322_489_461_24e-3;
const S3: Real = -1.984_126_982_985_794_931_34e-4;
const S4: Real = 2.755_731_370_707_006_767_89e-6;
const S5: Real = -2.505_076_025_340_686_341_95e-8;
const S6: Real = 1.589_690_995_211_550_102_21e-10;

const C1: Real = 4.166_666_666_666_660_190_37e-2;
const C2: Real = -1.388_888_888_887_410_957_49e-3;
const C3: Real = 2.480_158_728_947_672_941_78e-5;
const C4: Real = -2.755_731_435_139_066_330_35e-7;
const C5: Real = 2.087_572_321_298_174_827_90e-9;
const C6: Real = -1.135_964_755_778_819_482_65e-11;

/// `(sin x, cos x)`, within an ulp of the platform's, and the same bits on every platform.
///
/// ```
/// let (s, c) = impact_geometry::sin_cos(1.0);
/// assert!((s - 1.0_f64.sin()).abs() <= f64::EPSILON && (c - 1.0_f64.cos()).abs() <= f64::EPSILON);
/// ```
#[inline]
pub fn sin_cos(x: Real) -> (Real, Real) {
    // NaN and infinities go the same way as large angles.
    if x.is_nan() || x.abs() > REDUCTION_LIMIT {
        return x.sin_cos();
    }
    // Rounding by adding and subtracting 1.5 * 2^52 (exact for |k| < 2^51): `f64::round` is a
    // library call on x86-64 without SSE4.1, and showed up in profiles.
    const SHIFTER: Real = 6_755_399_441_055_744.0;
    let shifted = x * core::f64::consts::FRAC_2_PI + SHIFTER;
    let k = shifted - SHIFTER;
    let r = (x - k * PIO2_HEAD) - k * PIO2_TAIL;
    let z = r * r;
    let sin = r + r * z * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))));
    let half = 0.5 * z;
    let w = 1.0 - half;
    let cos = w
        + (((1.0 - w) - half) + z * z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6))))));
    quadrant(shifted, sin, cos)
}

/// [`sin_cos`] of two angles at once, the same bits as two calls: the same operations lane
/// by lane, written side by side so that the compiler can run both lanes in one register.
/// Conservative advancement turns both bodies at every evaluation.
///
/// ```
/// let [a, b] = impact_geometry::sin_cos_pair([1.0, -7.5]);
/// assert_eq!((a, b), (impact_geometry::sin_cos(1.0), impact_geometry::sin_cos(-7.5)));
/// ```
#[inline]
pub fn sin_cos_pair(x: [Real; 2]) -> [(Real, Real); 2] {
    // NaN fails the comparison and goes the same way as large angles.
    if !(x[0].abs() <= REDUCTION_LIMIT && x[1].abs() <= REDUCTION_LIMIT) {
        return [sin_cos(x[0]), sin_cos(x[1])];
    }
    const SHIFTER: Real = 6_755_399_441_055_744.0;
    let v = f64x2::splat;
    let x = f64x2::new(x);
    let shifted = x * v(core::f64::consts::FRAC_2_PI) + v(SHIFTER);
    let k = shifted - v(SHIFTER);
    let r = (x - k * v(PIO2_HEAD)) - k * v(PIO2_TAIL);
    let z = r * r;
    let sin =
        r + r * z * (v(S1) + z * (v(S2) + z * (v(S3) + z * (v(S4) + z * (v(S5) + z * v(S6))))));
    let half = v(0.5) * z;
    let w = v(1.0) - half;
    let cos = w
        + (((v(1.0) - w) - half)
            + z * z * (v(C1) + z * (v(C2) + z * (v(C3) + z * (v(C4) + z * (v(C5) + z * v(C6)))))));
    let (shifted, sin, cos) = (shifted.to_array(), sin.to_array(), cos.to_array());
    [
        quadrant(shifted[0], sin[0], cos[0]),
        quadrant(shifted[1], sin[1], cos[1]),
    ]
}

/// `(sin, cos)` of the angle reduced by `k` quarter turns, from those of the remainder,
/// with `shifted = k + 1.5 * 2^52` (before the shifter is taken off again).
///
/// In `[2^52, 2^53)` the last bit of the mantissa is worth 1, so `shifted`'s low bits are
/// those of `k + 2^51`, and its two lowest `k mod 4` (negative `k` too). The quadrant then
/// swaps the pair on odd `k` and flips signs by bit: no float-to-integer conversion (with
/// its saturation) and no jump table, the same values as `match (k as i64) & 3`.
#[inline]
fn quadrant(shifted: Real, sin: Real, cos: Real) -> (Real, Real) {
    let q = shifted.to_bits() & 3;
    // 0: (sin, cos), 1: (cos, -sin), 2: (-sin, -cos), 3: (-cos, sin).
    let (s, c) = if q & 1 == 0 { (sin, cos) } else { (cos, sin) };
    let flip_s = (q & 2) << 62;
    let flip_c = ((q + 1) & 2) << 62;
    (
        Real::from_bits(s.to_bits() ^ flip_s),
        Real::from_bits(c.to_bits() ^ flip_c),
    )
}

/// The rotations by two angles at once: [`rotation_by`] of each, through [`sin_cos_pair`].
#[inline]
pub fn rotations_by(angles: [Real; 2]) -> [Rotation; 2] {
    let [(s0, c0), (s1, c1)] = sin_cos_pair(angles);
    [
        Rotation::from_cos_sin_unchecked(c0, s0),
        Rotation::from_cos_sin_unchecked(c1, s1),
    ]
}

/// The rotation by `angle` radians: `Rotation::new(angle)` through [`sin_cos`].
#[inline]
pub fn rotation_by(angle: Real) -> Rotation {
    let (sin, cos) = sin_cos(angle);
    Rotation::from_cos_sin_unchecked(cos, sin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Error of `a` against `b` in units of `b`'s last place, with an absolute floor of
    /// 1e-20: near a zero of sine or cosine the answer can be no better than the reduced
    /// angle, whose error grows with `x` to about 1e-21 at the reduction limit.
    fn error(a: Real, b: Real) -> Real {
        (a - b).abs() / (b.abs() * Real::EPSILON + 1e-20)
    }

    #[test]
    fn agrees_with_the_platform_to_a_couple_of_ulps() {
        let mut worst: Real = 0.0;
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for i in 0..2_000_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let unit = (state >> 11) as Real / (1u64 << 53) as Real;
            let x = match i % 3 {
                0 => (unit - 0.5) * 8.0,
                1 => (unit - 0.5) * 200.0,
                _ => (unit - 0.5) * 2.0 * REDUCTION_LIMIT,
            };
            let (s, c) = sin_cos(x);
            let (es, ec) = x.sin_cos();
            worst = worst.max(error(s, es)).max(error(c, ec));
        }
        assert!(worst <= 2.0, "worst error {worst} ulps");
    }

    /// The pair is two single calls, bit for bit, in every quadrant and past the limit
    /// (conservative advancement's fused path relies on it to match its generic path).
    #[test]
    fn pairs_are_the_single_calls_bit_for_bit() {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 11) as Real / (1u64 << 53) as Real;
            (unit - 0.5) * 60.0
        };
        let bits = |(s, c): (Real, Real)| (s.to_bits(), c.to_bits());
        for _ in 0..200_000 {
            let x = [next(), next()];
            let [p, q] = sin_cos_pair(x);
            assert_eq!(bits(p), bits(sin_cos(x[0])), "{}", x[0]);
            assert_eq!(bits(q), bits(sin_cos(x[1])), "{}", x[1]);
        }
        for x in [[0.0, -0.0], [3.0 * REDUCTION_LIMIT, 1.0], [1.0, Real::NAN]] {
            let [p, q] = sin_cos_pair(x);
            let single = (sin_cos(x[0]), sin_cos(x[1]));
            assert!(bits(p) == bits(single.0) || p.0.is_nan());
            assert!(bits(q) == bits(single.1) || q.0.is_nan());
        }
    }

    /// The quadrant read off the shifted float's bits is the match on `k mod 4` it replaced,
    /// sign bits included, for every `k` the reduction allows.
    #[test]
    fn quadrant_bits_are_the_integer_quadrant() {
        const SHIFTER: Real = 6_755_399_441_055_744.0;
        let limit = (REDUCTION_LIMIT * core::f64::consts::FRAC_2_PI) as i64 + 2;
        for k in (-limit..=limit).step_by(7).chain(-9..=9) {
            let (sin, cos) = (0.25, -0.0);
            let expected = match k & 3 {
                0 => (sin, cos),
                1 => (cos, -sin),
                2 => (-sin, -cos),
                _ => (-cos, sin),
            };
            let got = quadrant(k as Real + SHIFTER, sin, cos);
            assert_eq!(
                (got.0.to_bits(), got.1.to_bits()),
                (expected.0.to_bits(), expected.1.to_bits()),
                "k = {k}"
            );
        }
    }

    #[test]
    fn exact_at_quarter_turn_multiples_and_falls_back_beyond_the_limit() {
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        let (s, c) = sin_cos(core::f64::consts::FRAC_PI_2);
        assert!((s - 1.0).abs() <= Real::EPSILON && c.abs() < 1e-16);
        let big = 3.0 * REDUCTION_LIMIT;
        assert_eq!(sin_cos(big), big.sin_cos());
        let (s, c) = sin_cos(Real::NAN);
        assert!(s.is_nan() && c.is_nan());
    }
}
