//! The pairs of a sensor and a body whose boxes over the step meet: one sort and sweep over
//! the boxes (the wrapped grid of [`grid`](crate::grid) in a periodic domain), kept apart
//! from the steppers' own searches so that those never see a sensor.

use crate::grid::ReachGrid;
use crate::rules::{CollisionRules, PairKind};
use crate::sweep_pairs::SweepPairs;
use impact_geometry::{Aabb, Point, Vector};
use impact_solver::{BodyHandle, BodySet, BodyType};

/// The search's storage, kept from step to step.
#[derive(Debug, Clone, Default)]
pub(super) struct PairSearch {
    sweep: SweepPairs,
    grid: ReachGrid,
    found: Vec<(u32, Vector)>,
}

impl PairSearch {
    /// Every pair of a sensor and a body that is not one, whose boxes in `boxes` (per slot)
    /// meet, that the filters let meet (`rules`), and of which one moves, into `pairs`:
    /// (sensor, body, translation of the image of the body the sensor meets), sorted by
    /// sensor, then body. `period` is that of a periodic domain.
    pub(super) fn pairs(
        &mut self,
        boxes: &[Option<Aabb>],
        (bodies, proxies, rules): (&BodySet, &[Option<BodyHandle>], &CollisionRules<'_>),
        period: Option<Vector>,
        pairs: &mut Vec<(BodyHandle, BodyHandle, Vector)>,
    ) {
        pairs.clear();
        let mut found = |x: u32, y: u32, shift: Vector| {
            let handle = |slot: u32| proxies.get(slot as usize).copied().flatten();
            let (Some(hx), Some(hy)) = (handle(x), handle(y)) else {
                return;
            };
            let (Some(bx), Some(by)) = (bodies.get(hx), bodies.get(hy)) else {
                return;
            };
            let pair = match (bx.is_sensor(), by.is_sensor()) {
                (true, false) => (hx, hy, shift),
                (false, true) => (hy, hx, -shift),
                _ => return,
            };
            let still = |t: BodyType| t == BodyType::Static;
            if still(bx.body_type()) && still(by.body_type()) {
                return;
            }
            if rules.kind(x, y) == PairKind::Sense {
                pairs.push(pair);
            }
        };
        match period {
            Some(_) => {
                self.grid.build(boxes, Point::origin(), period);
                self.grid.pairs(boxes, &mut self.found, found);
            }
            None => self.sweep.pairs(boxes, |x, y| found(x, y, Vector::zeros())),
        }
        pairs.sort_by_key(|&(s, v, _)| (s, v));
        pairs.dedup_by_key(|&mut (s, v, _)| (s, v));
    }
}
