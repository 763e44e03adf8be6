//! Stage 1's boxes: each awake body's broadphase boxes and motion bound, for
//! `World::update_broadphase`, one body at a time or (`parallel` feature) on rayon's
//! threads.
//!
//! Each body's boxes depend on the body alone, so the shared form cuts the bodies into runs
//! of consecutive bodies, computes each run on its own, and appends the runs' boxes in body
//! order: the batch the broadphase gets, and the first error, are those of the serial loop.
//! The stepper's reach is asked on the stepping thread first (a stepper need not be
//! `Sync`). Periodic domains stay serial: their images cover the boxes in order.

use crate::domain::PeriodicImages;
use crate::error::WorldError;
use crate::shape_proxies::ShapeProxies;
use impact_broadphase::ProxyId;
use impact_geometry::{Aabb, Real, Vector};
use impact_solver::{BodyHandle, RigidBody};

/// Bodies below which the boxes stay on the calling thread.
#[cfg(feature = "parallel")]
pub(super) const MIN_BODIES: usize = 2048;
/// Bodies per run: enough to outweigh a run's two small vectors.
#[cfg(feature = "parallel")]
const RUN: usize = 512;

/// One body's boxes and motion, as the serial loop of `update_broadphase` computes them.
pub(super) struct BodyBoxes<'a> {
    /// The step (seconds) and the box padding (world units).
    pub(super) dt: Real,
    pub(super) pad: Real,
    pub(super) shape_proxies: &'a ShapeProxies,
}

/// A body's motion for the manifolds: linear velocity, a bound of `|w| r`, and `r`.
pub(super) type Motion = (Vector, Real, Real);

impl BodyBoxes<'_> {
    /// The boxes of body `handle` into `out`, with `reach` the stepper's
    /// [`contact_reach`](crate::Stepper::contact_reach) for it (the box at the pose grown by
    /// the reach, else the swept box grown by the padding), and its motion into `motion`.
    /// In a periodic domain, each box is checked against and recorded in `images`.
    ///
    /// # Errors
    /// The sweep's error; [`WorldError::NotFinite`] naming `bodies[i].swept_box`; in a
    /// periodic domain, [`WorldError::OutOfRange`] naming `dt` if a swept box is wider than
    /// half a period.
    // Always inlined: called once per body in the serial loop, where a call costs 2% of a
    // disc rain's step (callgrind).
    #[inline(always)]
    pub(super) fn of(
        &self,
        (handle, body): (BodyHandle, &RigidBody),
        reach: Option<Real>,
        mut images: Option<&mut PeriodicImages>,
        out: &mut Vec<(ProxyId, Aabb)>,
        motion: &mut Motion,
    ) -> Result<(), WorldError> {
        let sweep = body.sweep(self.dt)?;
        let shapes = body.shapes();
        let proxies = self.shape_proxies.proxies_of(handle.index, shapes.len());
        for (shape, proxy) in shapes.iter().zip(proxies) {
            let shape = shape.shape();
            let swept = || Aabb::swept(shape, &sweep).inflated(self.pad);
            let aabb = match reach {
                Some(reach) => shape.aabb(body.pose()).inflated(reach),
                None => swept(),
            };
            // A body so fast that its box over the step leaves the range of `f64` fails
            // the step here, named, before the broadphase sees the box.
            let bounds = [aabb.mins.x, aabb.mins.y, aabb.maxs.x, aabb.maxs.y];
            if let Some(value) = bounds.into_iter().find(|v| !v.is_finite()) {
                return Err(WorldError::NotFinite {
                    field: format!("bodies[{}].swept_box", handle.index),
                    value,
                });
            }
            if let Some(images) = images.as_deref_mut() {
                // Boxes wider than half a period could meet a body through two images
                // at once, or its own; the minimum image would no longer be the whole
                // answer. The step is refused by the swept box even when the
                // broadphase gets less: the stepper's own search covers the body's
                // motion.
                let swept = if reach.is_some() { swept() } else { aabb };
                if !images.fits(&swept) {
                    return Err(WorldError::OutOfRange {
                        field: "dt".to_owned(),
                        value: self.dt,
                        expected: "short enough that no body sweeps a box wider than half the periodic domain",
                    });
                }
                images.cover(&aabb);
            }
            out.push((proxy, aabb));
        }
        let size = body.bounding_radius(&body.local_center());
        let spin = if sweep.angvel() == 0.0 {
            0.0
        } else {
            sweep.angvel().abs() * size
        };
        *motion = (sweep.linvel(), spin, size);
        Ok(())
    }

    /// The boxes of `awake` (bodies in the serial loop's order, each with its reach) into
    /// `moved` and their motion into `motion` (by slot, grown as needed), computed in runs
    /// on rayon's threads; unbounded domains only.
    ///
    /// # Errors
    /// The serial loop's first error; `moved` and `motion` then hold part of the bodies.
    #[cfg(feature = "parallel")]
    pub(super) fn shared(
        &self,
        awake: &[((BodyHandle, &RigidBody), Option<Real>)],
        moved: &mut Vec<(ProxyId, Aabb)>,
        motion: &mut Vec<Motion>,
    ) -> Result<(), WorldError> {
        use rayon::prelude::*;
        /// A run's boxes and its bodies' motions.
        type Run = (Vec<(ProxyId, Aabb)>, Vec<Motion>);
        let runs: Vec<Result<Run, WorldError>> = awake
            .par_chunks(RUN)
            .map(|run| {
                let mut boxes = Vec::with_capacity(run.len());
                let mut motions = vec![(Vector::zeros(), 0.0, 0.0); run.len()];
                for (&(body, reach), m) in run.iter().zip(&mut motions) {
                    self.of(body, reach, None, &mut boxes, m)?;
                }
                Ok((boxes, motions))
            })
            .collect();
        if let Some(last) = awake.iter().map(|((handle, _), _)| handle.index).max() {
            let slots = last as usize + 1;
            if motion.len() < slots {
                motion.resize(slots, (Vector::zeros(), 0.0, 0.0));
            }
        }
        for (run, result) in awake.chunks(RUN).zip(runs) {
            let (boxes, motions) = result?;
            moved.extend(boxes);
            for (((handle, _), _), m) in run.iter().zip(motions) {
                motion[handle.index as usize] = m;
            }
        }
        Ok(())
    }
}
