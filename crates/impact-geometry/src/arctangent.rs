//! The arctangent of a point's coordinates, for the angles the solver reads at every
//! iteration (a revolute joint's angle, for its spring and its limits) and the turns the
//! steppers measure.
//!
//! The platform's `atan2` (glibc's) goes through a wrapper and a correctly rounded kernel with
//! a multi-precision fallback: a joint's angle cost more than the rest of its solve. This is
//! fdlibm's `e_atan2.c` and `s_atan.c` (the algorithm every libm descends from: the argument
//! reduced to `|x| < 7/16` through `atan(a) + atan((x - a) / (1 + a x))` at `a` = 1/2, 1, 3/2
//! and infinity, then an odd polynomial of degree 23 split in two Horner chains), within an ulp
//! of the exact value, and pure arithmetic, so it gives the same bits on every platform.

// The constants are fdlibm's literals as published, so that they can be checked against it
// (those equal to `core::f64::consts` values too).
#![allow(
    clippy::approx_constant,
    clippy::excessive_precision,
    clippy::unreadable_literal
)]

use crate::math::Real;

/// `atan(0.5)`, `atan(1)`, `atan(1.5)` and `atan(inf)`, each as a head and a tail.
const ATAN_HI: [Real; 4] = [
    4.636_476_090_008_060_935_15e-01,
    7.853_981_633_974_482_789_99e-01,
    9.827_937_232_473_290_540_82e-01,
    1.570_796_326_794_896_558_00e+00,
];
const ATAN_LO: [Real; 4] = [
    2.269_877_745_296_168_709_24e-17,
    3.061_616_997_868_383_017_93e-17,
    1.390_331_103_123_099_845_16e-17,
    6.123_233_995_736_766_035_87e-17,
];

/// The polynomial's coefficients.
const AT: [Real; 11] = [
    3.333_333_333_333_293_180_27e-01,
    -1.999_999_999_987_648_324_76e-01,
    1.428_571_427_250_346_637_11e-01,
    -1.111_111_040_546_235_578_80e-01,
    9.090_887_133_436_506_561_96e-02,
    -7.691_876_205_044_829_994_95e-02,
    6.661_073_137_387_531_206_69e-02,
    -5.833_570_133_790_573_486_45e-02,
    4.976_877_994_615_932_360_17e-02,
    -3.653_157_274_421_691_552_70e-02,
    1.628_582_011_536_578_236_23e-02,
];

const PI: Real = 3.141_592_653_589_793_116_0;
const PI_LO: Real = 1.224_646_799_147_353_177_2e-16;
const PI_O_2: Real = 1.570_796_326_794_896_558_0;
const PI_O_4: Real = 7.853_981_633_974_482_790_0e-01;

/// The high 32 bits of `x`'s representation, as fdlibm reads them.
#[inline(always)]
fn high_word(x: Real) -> i32 {
    (x.to_bits() >> 32) as i32
}

/// `atan(x)` (radians, in `[-pi/2, pi/2]`), fdlibm's `s_atan.c`.
#[inline]
fn atan(x: Real) -> Real {
    let hx = high_word(x);
    let ix = hx & 0x7fff_ffff;
    if ix >= 0x4410_0000 {
        // |x| >= 2^66, or NaN.
        if x.is_nan() {
            return x + x;
        }
        let z = ATAN_HI[3] + ATAN_LO[3];
        return if hx > 0 { z } else { -z };
    }
    let (id, x) = if ix < 0x3fdc_0000 {
        // |x| < 0.4375; below 2^-29 atan(x) is x to the last bit.
        if ix < 0x3e20_0000 {
            return x;
        }
        (None, x)
    } else {
        let x = x.abs();
        if ix < 0x3ff3_0000 {
            if ix < 0x3fe6_0000 {
                // 7/16 <= |x| < 11/16
                (Some(0), (2.0 * x - 1.0) / (2.0 + x))
            } else {
                // 11/16 <= |x| < 19/16
                (Some(1), (x - 1.0) / (x + 1.0))
            }
        } else if ix < 0x4003_8000 {
            // 19/16 <= |x| < 2.4375
            (Some(2), (x - 1.5) / (1.0 + 1.5 * x))
        } else {
            // 2.4375 <= |x| < 2^66
            (Some(3), -1.0 / x)
        }
    };
    let z = x * x;
    let w = z * z;
    // The odd and even terms in two chains.
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    match id {
        None => x - x * (s1 + s2),
        Some(id) => {
            let z = ATAN_HI[id] - ((x * (s1 + s2) - ATAN_LO[id]) - x);
            if hx < 0 { -z } else { z }
        }
    }
}

/// The angle of the point `(x, y)` from the positive x axis (radians, in `[-pi, pi]`), as
/// `y.atan2(x)`: within an ulp of the exact value, with the same signed zeros, infinities and
/// NaNs as the platform's, and the same bits on every platform (fdlibm's `e_atan2.c`).
///
/// ```
/// let a = impact_geometry::atan2(1.0, -2.0);
/// assert!((a - 1.0_f64.atan2(-2.0)).abs() <= 4.0 * f64::EPSILON);
/// assert_eq!(impact_geometry::atan2(0.0, -1.0), std::f64::consts::PI);
/// ```
#[inline]
pub fn atan2(y: Real, x: Real) -> Real {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == 1.0 {
        return atan(y);
    }
    // Bit 0: y negative; bit 1: x negative.
    let m = usize::from(y.is_sign_negative()) | (usize::from(x.is_sign_negative()) << 1);
    if y == 0.0 {
        return [y, y, PI, -PI][m];
    }
    if x == 0.0 {
        return if y < 0.0 { -PI_O_2 } else { PI_O_2 };
    }
    if x.is_infinite() {
        return if y.is_infinite() {
            [PI_O_4, -PI_O_4, 3.0 * PI_O_4, -3.0 * PI_O_4][m]
        } else {
            [0.0, -0.0, PI, -PI][m]
        };
    }
    if y.is_infinite() {
        return if y < 0.0 { -PI_O_2 } else { PI_O_2 };
    }
    // The exponents' difference (fdlibm's, from the high words) decides the extremes: |y/x|
    // beyond 2^60, or below 2^-60 with x negative.
    let k = ((high_word(y) & 0x7fff_ffff) - (high_word(x) & 0x7fff_ffff)) >> 20;
    let z = if k > 60 {
        PI_O_2 + 0.5 * PI_LO
    } else if x < 0.0 && k < -60 {
        0.0
    } else {
        atan((y / x).abs())
    };
    match m {
        0 => z,
        1 => -z,
        2 => PI - (z - PI_LO),
        _ => (z - PI_LO) - PI,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The distance in ulps between two finite numbers of one sign.
    fn ulps(a: Real, b: Real) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    #[test]
    fn special_values_match_the_platform() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -3.0,
            1e-310,
            -1e300,
            Real::INFINITY,
            Real::NEG_INFINITY,
            Real::MIN_POSITIVE,
        ];
        for &y in &values {
            for &x in &values {
                let (ours, platform) = (atan2(y, x), y.atan2(x));
                assert!(
                    ours.to_bits() == platform.to_bits() || ulps(ours, platform) <= 1,
                    "atan2({y}, {x}) = {ours}, the platform's {platform}"
                );
            }
        }
        assert!(atan2(Real::NAN, 1.0).is_nan() && atan2(1.0, Real::NAN).is_nan());
    }

    proptest! {
        /// Within an ulp of the platform's (itself within half an ulp of the exact value)
        /// over every quadrant, ratios from tiny to huge and the reduction's break points.
        #[test]
        fn within_an_ulp_of_the_platform(
            angle in -4.0..4.0 as Real,
            (length, ratio) in (1e-3..1e3 as Real, prop_oneof![
                -1e-20..1e-20 as Real,
                -1.0..1.0 as Real,
                0.43..0.445 as Real,
                0.68..0.69 as Real,
                1.18..1.19 as Real,
                2.43..2.44 as Real,
                -1e25..1e25 as Real,
            ]),
        ) {
            for (y, x) in [(angle.sin() * length, angle.cos() * length), (ratio, 1.0), (ratio, -0.5), (1.0, ratio)] {
                let (ours, platform) = (atan2(y, x), y.atan2(x));
                prop_assert!(ulps(ours, platform) <= 1, "atan2({y}, {x}) = {ours}, the platform's {platform}");
            }
        }
    }
}
