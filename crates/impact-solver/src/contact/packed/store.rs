//! The packed chunks' results back into the constraints: the impulses, separations and
//! approach velocities a pass leaves in the lanes ([`store_dynamic`]), and the impulses the
//! passes applied over the whole step ([`Applied`], [`store_applied`]), which bound the
//! friction of a bounce.

#[cfg(feature = "parallel")]
use super::W;
use super::{Chunk, V};
use crate::contact::ContactConstraint;

/// Impulses, separations and approach velocities from the chunks back into the constraints.
pub(in crate::contact) fn store_dynamic(chunks: &[Chunk], constraints: &mut [ContactConstraint]) {
    #[cfg(feature = "parallel")]
    if constraints.len() >= 2048 && rayon::current_num_threads() >= 2 {
        store_dynamic_shared(chunks, constraints);
        return;
    }
    for chunk in chunks {
        for (k, pl) in chunk.points.iter().enumerate() {
            let separation = pl.separation.to_array();
            let normal = pl.normal_impulse.to_array();
            let tangent = pl.tangent_impulse.to_array();
            let max_normal = pl.max_normal_impulse.to_array();
            let free_time = pl.free_time.to_array();
            for l in 0..chunk.len {
                let c = &mut constraints[chunk.members[l] as usize];
                if k < c.count {
                    let p = &mut c.points[k];
                    p.separation = separation[l];
                    p.normal_impulse = normal[l];
                    p.tangent_impulse = tangent[l];
                    p.max_normal_impulse = max_normal[l];
                    p.free_time = free_time[l];
                }
            }
        }
    }
}

/// [`store_dynamic`] on rayon's threads: each constraint reads its own lane, found through
/// the chunks' members (a constraint is in one chunk at most), so each is written on its
/// own, with the values the serial scatter writes.
#[cfg(feature = "parallel")]
fn store_dynamic_shared(chunks: &[Chunk], constraints: &mut [ContactConstraint]) {
    use rayon::prelude::*;
    let mut place = vec![u32::MAX; constraints.len()];
    for (j, chunk) in chunks.iter().enumerate() {
        for (l, &m) in chunk.members[..chunk.len].iter().enumerate() {
            place[m as usize] = (j * W + l) as u32;
        }
    }
    constraints
        .par_iter_mut()
        .zip(&place)
        .with_min_len(256)
        .for_each(|(c, &at)| {
            if at == u32::MAX {
                return;
            }
            let (chunk, l) = (&chunks[at as usize / W], at as usize % W);
            for (k, pl) in chunk.points.iter().enumerate().take(c.count) {
                let p = &mut c.points[k];
                p.separation = pl.separation.to_array()[l];
                p.normal_impulse = pl.normal_impulse.to_array()[l];
                p.tangent_impulse = pl.tangent_impulse.to_array()[l];
                p.max_normal_impulse = pl.max_normal_impulse.to_array()[l];
                p.free_time = pl.free_time.to_array()[l];
            }
        });
}

/// The normal and tangent impulses one point of every constraint of a chunk has applied to
/// its bodies since preparation, less what it holds now.
///
/// The friction of a bounce is bounded by the whole normal impulse of the step, and the
/// accumulated impulse a point holds is only its last substep's: each substep's warm start
/// applies the impulse the point held at the end of the one before, and the sweeps apply
/// the changes. So what the passes applied is the sum of every warm start's impulse plus
/// the change since preparation: counted from minus the impulse held at preparation, plus
/// each warm start's, and completed with the impulse held at the end ([`store_applied`]).
/// That holds however a caller drives the stages, without a warm start or with several.
/// Kept apart from [`Chunk`], which the sweeps stream through.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::contact) struct Applied {
    normal: V,
    tangent: V,
}

/// Starts the count of [`Applied`] for `chunks` (whatever `applied` held): minus the
/// impulses the points hold at preparation.
pub(in crate::contact) fn start_applied(chunks: &[Chunk], applied: &mut Vec<[Applied; 2]>) {
    applied.clear();
    applied.extend(chunks.iter().map(|ch| {
        ch.points.map(|p| Applied {
            normal: -p.normal_impulse,
            tangent: -p.tangent_impulse,
        })
    }));
}

/// Counts a warm start in [`Applied`]: it applied every point's impulse once more.
pub(in crate::contact) fn count_warm_start(chunks: &[Chunk], applied: &mut [[Applied; 2]]) {
    for (ch, ap) in chunks.iter().zip(applied) {
        for (p, a) in ch.points.iter().zip(ap) {
            a.normal += p.normal_impulse;
            a.tangent += p.tangent_impulse;
        }
    }
}

/// The impulses the passes applied over the whole step ([`Applied`] plus what each point
/// holds now) into the constraints' `solve_normal_impulse` and `solve_tangent_impulse`.
pub(in crate::contact) fn store_applied(
    chunks: &[Chunk],
    applied: &[[Applied; 2]],
    constraints: &mut [ContactConstraint],
) {
    for (chunk, ap) in chunks.iter().zip(applied) {
        for (k, (pl, a)) in chunk.points.iter().zip(ap).enumerate() {
            let normal = (a.normal + pl.normal_impulse).to_array();
            let tangent = (a.tangent + pl.tangent_impulse).to_array();
            for l in 0..chunk.len {
                let c = &mut constraints[chunk.members[l] as usize];
                if k < c.count {
                    let p = &mut c.points[k];
                    p.solve_normal_impulse = normal[l];
                    p.solve_tangent_impulse = tangent[l];
                }
            }
        }
    }
}
