//! Running a pass over the chunks of a [`colour`](super::schedule::colour)ed order: colour
//! after colour, and within a colour over its chunks in any split, on one thread or, with the
//! `parallel` feature, on rayon's.
//!
//! Within a colour no two chunks write the same body and no chunk reads a body another
//! writes (see [`colour`](super::schedule::colour)), so the chunks of a colour can run at
//! once, and the result is the same bit for bit for any number of threads and any split: each
//! body sees the same updates in the same order, and nothing is summed across chunks. The
//! serial build visits the same colours in the same order, so it gives the same bits as the
//! parallel one.

use super::bodies::SolverBody;
use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::Relaxed;
use impact_geometry::{Real, Vector};

/// Chunks below which a colour is swept on the calling thread: a fork and join costs a few
/// microseconds, about what sixty-four chunks of a sweep take.
#[cfg(feature = "parallel")]
const MIN_PARALLEL_CHUNKS: usize = 64;

/// Chunks per task when a colour is split among threads.
#[cfg(feature = "parallel")]
const TASK_CHUNKS: usize = 32;

/// The solver's body velocities as the passes over a coloured order share them: each
/// component as the bits of an `f64` in an atomic, so that the chunks of a colour, which read
/// and write disjoint dynamic bodies and only read the bodies of infinite mass (see
/// [`colour`](super::schedule::colour)), can run on several threads without `unsafe`.
/// Relaxed loads and stores compile to plain moves; no ordering is needed within a colour
/// (no two chunks touch a written body), and between colours the join of the threads orders
/// everything.
///
/// Kept between passes for its storage; [`SharedBodies::load`] copies the velocities in and
/// [`SharedBodies::store`] copies them back.
#[derive(Debug, Default)]
pub(crate) struct SharedBodies {
    cells: Vec<[AtomicU64; 3]>,
}

impl Clone for SharedBodies {
    /// An empty view: the content is valid only between a load and a store.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl SharedBodies {
    /// Copies in the velocities of `bodies`.
    #[cfg(feature = "parallel")]
    pub(crate) fn load(&mut self, bodies: &[SolverBody]) {
        self.cells.clear();
        self.cells.extend(bodies.iter().map(|b| {
            [
                AtomicU64::new(b.v.x.to_bits()),
                AtomicU64::new(b.v.y.to_bits()),
                AtomicU64::new(b.w.to_bits()),
            ]
        }));
    }

    /// Copies the velocities back into `bodies` (the same bodies as loaded).
    #[cfg(feature = "parallel")]
    pub(crate) fn store(&self, bodies: &mut [SolverBody]) {
        for (b, [x, y, w]) in bodies.iter_mut().zip(&self.cells) {
            b.v = Vector::new(
                Real::from_bits(x.load(Relaxed)),
                Real::from_bits(y.load(Relaxed)),
            );
            b.w = Real::from_bits(w.load(Relaxed));
        }
    }
}

/// Where a pass over chunks reads and writes the bodies' velocities: the solver's own array
/// (on one thread) or the [`SharedBodies`] of a pass shared among threads. The arithmetic is
/// the same either way, so are the bits.
pub(crate) trait BodyAccess {
    /// Body `i`'s velocity and angular velocity. Panics if `i` is out of range.
    fn get(&self, i: u32) -> (Vector, Real);
    /// Sets body `i`'s velocities. Panics if `i` is out of range.
    fn set(&mut self, i: u32, v: Vector, w: Real);
}

impl BodyAccess for [SolverBody] {
    #[inline(always)]
    fn get(&self, i: u32) -> (Vector, Real) {
        let b = &self[i as usize];
        (b.v, b.w)
    }

    #[inline(always)]
    fn set(&mut self, i: u32, v: Vector, w: Real) {
        let b = &mut self[i as usize];
        b.v = v;
        b.w = w;
    }
}

impl BodyAccess for &SharedBodies {
    #[inline(always)]
    fn get(&self, i: u32) -> (Vector, Real) {
        let [x, y, w] = &self.cells[i as usize];
        (
            Vector::new(
                Real::from_bits(x.load(Relaxed)),
                Real::from_bits(y.load(Relaxed)),
            ),
            Real::from_bits(w.load(Relaxed)),
        )
    }

    #[inline(always)]
    fn set(&mut self, i: u32, v: Vector, w: Real) {
        let [cx, cy, cw] = &self.cells[i as usize];
        cx.store(v.x.to_bits(), Relaxed);
        cy.store(v.y.to_bits(), Relaxed);
        cw.store(w.to_bits(), Relaxed);
    }
}

/// A pass over the chunks of a coloured order, run on whichever [`BodyAccess`] the
/// velocities are reached through.
pub(crate) trait ColourPass<C>: Sync {
    /// The pass over `chunks`, reading and writing the velocities through `bodies`.
    fn run<B: BodyAccess + ?Sized>(&self, chunks: &mut [C], bodies: &mut B);
}

/// Runs `pass` over the chunks of every colour in turn (`colour_starts` as
/// [`SweepOrder::colour_starts`](super::schedule::SweepOrder)) on `velocities`. With the
/// `parallel` feature and more than one thread, a colour of enough chunks is shared out, the
/// velocities going through `shared` for the pass; otherwise the chunks run in order on the
/// calling thread, straight on `velocities` (the chunks are in colour order).
pub(crate) fn for_each_colour<C: Send, P: ColourPass<C>>(
    chunks: &mut [C],
    colour_starts: &[u32],
    velocities: &mut [SolverBody],
    shared: &mut SharedBodies,
    pass: &P,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let big = |w: &[u32]| (w[1] - w[0]) as usize >= MIN_PARALLEL_CHUNKS;
        if rayon::current_num_threads() >= 2 && colour_starts.windows(2).any(big) {
            shared.load(velocities);
            let bodies = &*shared;
            for w in colour_starts.windows(2) {
                let colour = &mut chunks[w[0] as usize..w[1] as usize];
                if big(w) {
                    colour
                        .par_chunks_mut(TASK_CHUNKS)
                        .for_each(|part| pass.run(part, &mut { bodies }));
                } else {
                    pass.run(colour, &mut { bodies });
                }
            }
            shared.store(velocities);
            return;
        }
    }
    let _ = (colour_starts, shared);
    pass.run(chunks, velocities);
}

/// Runs `pass` over every element in slices, given the index of each slice's first element,
/// on several threads with the `parallel` feature: for passes whose elements are independent
/// (each written only by the pass over it).
pub(crate) fn for_each_independent<C: Send>(
    items: &mut [C],
    pass: impl Fn(usize, &mut [C]) + Sync,
) {
    #[cfg(feature = "parallel")]
    if items.len() >= MIN_PARALLEL_CHUNKS && rayon::current_num_threads() >= 2 {
        use rayon::prelude::*;
        items
            .par_chunks_mut(TASK_CHUNKS)
            .enumerate()
            .for_each(|(k, items)| pass(k * TASK_CHUNKS, items));
        return;
    }
    pass(0, items);
}

/// Runs `pass` over matching slices of `a` and `b` (of equal length), given the index of each
/// slice's first element, on several threads with the `parallel` feature: for passes whose
/// elements are independent (element `i` of each written only by the pass over it).
pub(crate) fn for_each_zipped<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    pass: impl Fn(usize, &mut [A], &mut [B]) + Sync,
) {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_CHUNKS && rayon::current_num_threads() >= 2 {
        use rayon::prelude::*;
        a.par_chunks_mut(TASK_CHUNKS)
            .zip(b.par_chunks_mut(TASK_CHUNKS))
            .enumerate()
            .for_each(|(k, (a, b))| pass(k * TASK_CHUNKS, a, b));
        return;
    }
    pass(0, a, b);
}
