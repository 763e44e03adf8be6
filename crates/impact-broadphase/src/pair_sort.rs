//! Sorting pairs by their key: an LSD radix sort, since the pair search of a step hands over
//! hundreds of thousands of pairs in no particular order.

use crate::ProxyPair;

/// Below this many pairs a comparison sort is as fast and needs no scratch.
const RADIX_MIN: usize = 512;

/// Sorts `pairs` by [`ProxyPair::key`] (the pair order), using `scratch` as the second buffer.
///
/// The key `(a << 32) | b` is compacted to `(a << bits(b_max)) | b`, so that for handles up
/// to about 2^17 three passes of at most 12 bits cover it; each pass is stable, so the
/// result is the one order of the keys whatever the input order.
pub(crate) fn sort_pairs(pairs: &mut Vec<ProxyPair>, scratch: &mut Vec<ProxyPair>) {
    if pairs.len() < RADIX_MIN {
        pairs.sort_unstable_by_key(|p| p.key());
        return;
    }
    let (mut a_max, mut b_max) = (0u32, 0u32);
    for p in pairs.iter() {
        a_max = a_max.max(p.a.0);
        b_max = b_max.max(p.b.0);
    }
    let b_bits = u32::BITS - b_max.leading_zeros();
    let total_bits = b_bits + (u32::BITS - a_max.leading_zeros());
    let compact = |p: &ProxyPair| (u64::from(p.a.0) << b_bits) | u64::from(p.b.0);
    let passes = total_bits.div_ceil(12).max(1);
    let digit_bits = total_bits.div_ceil(passes);
    let buckets = 1usize << digit_bits;
    let mask = (buckets - 1) as u64;
    let mut counts = vec![0usize; buckets];
    scratch.clear();
    scratch.resize(pairs.len(), pairs[0]);
    for pass in 0..passes {
        let shift = pass * digit_bits;
        counts.iter_mut().for_each(|c| *c = 0);
        for p in pairs.iter() {
            counts[((compact(p) >> shift) & mask) as usize] += 1;
        }
        let mut sum = 0;
        for c in &mut counts {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for p in pairs.iter() {
            let digit = ((compact(p) >> shift) & mask) as usize;
            scratch[counts[digit]] = *p;
            counts[digit] += 1;
        }
        core::mem::swap(pairs, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProxyId;

    #[test]
    fn radix_sort_matches_a_comparison_sort() {
        // Handles spread over several digit widths, including the u32 extremes.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(bound)) as u32
        };
        for (len, bound) in [(600, 50), (5_000, 100_000), (3_000, u32::MAX), (512, 2)] {
            let mut pairs: Vec<ProxyPair> = (0..len)
                .map(|_| {
                    let a = next(bound);
                    ProxyPair::new(ProxyId(a), ProxyId(a.wrapping_add(1 + next(bound / 2 + 1))))
                })
                .filter(|p| p.a != p.b)
                .collect();
            let mut want = pairs.clone();
            want.sort_unstable();
            sort_pairs(&mut pairs, &mut Vec::new());
            assert_eq!(pairs, want, "{len} pairs below {bound}");
        }
    }
}
