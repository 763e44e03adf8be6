//! The pairs of a sensor and a body whose boxes over the step meet, kept apart from the
//! steppers' own searches so that those never see a sensor.
//!
//! One sort of the boxes along x and one sweep that only ever tests a sensor against a body:
//! a world has few sensors and many bodies, and a sweep over every pair of boxes would spend
//! its time on the pairs of bodies (in the rain of 1,000 discs with one sensor, a sort and
//! sweep of every pair took 40% more than this one). In a periodic domain, the wrapped grid
//! of [`grid`](crate::grid) over the same boxes, which finds the images.

use crate::grid::ReachGrid;
use crate::rules::{CollisionRules, PairKind};
use impact_geometry::{Aabb, Point, Real, Vector};
use impact_solver::{BodyHandle, BodySet, BodyType};

/// One box as the sweep orders it: its bounds along x, then along y.
#[derive(Debug, Clone, Copy)]
struct Item {
    lo: Real,
    hi: Real,
    y_lo: Real,
    y_hi: Real,
    slot: u32,
    sensor: bool,
}

/// The search's storage, kept from step to step.
#[derive(Debug, Clone, Default)]
pub(super) struct PairSearch {
    items: Vec<Item>,
    /// The sensors and the bodies whose boxes the sweep has entered and may not have left,
    /// as indices into `items`.
    sensors: Vec<u32>,
    bodies: Vec<u32>,
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
            None => {
                let sensor = |slot: u32| {
                    proxies
                        .get(slot as usize)
                        .copied()
                        .flatten()
                        .and_then(|h| bodies.get(h))
                        .is_some_and(|b| b.is_sensor())
                };
                self.sweep(boxes, sensor, |x, y| found(x, y, Vector::zeros()));
            }
        }
        pairs.sort_by_key(|&(s, v, _)| (s, v));
        pairs.dedup_by_key(|&mut (s, v, _)| (s, v));
    }

    /// Calls `found(x, y)` once for every pair of a sensor and a body that is not one (as
    /// `sensor` says of a slot) whose boxes in `boxes` meet (touching counts), in an order
    /// that depends on the boxes alone.
    fn sweep(
        &mut self,
        boxes: &[Option<Aabb>],
        sensor: impl Fn(u32) -> bool,
        mut found: impl FnMut(u32, u32),
    ) {
        self.items.clear();
        self.items
            .extend(boxes.iter().enumerate().filter_map(|(slot, aabb)| {
                let aabb = aabb.as_ref()?;
                Some(Item {
                    lo: aabb.mins.x,
                    hi: aabb.maxs.x,
                    y_lo: aabb.mins.y,
                    y_hi: aabb.maxs.y,
                    slot: slot as u32,
                    sensor: sensor(slot as u32),
                })
            }));
        // A total order: the same pairs in the same order, whatever the boxes' order.
        self.items
            .sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot)));
        self.sensors.clear();
        self.bodies.clear();
        let items = &self.items;
        for (i, item) in items.iter().enumerate() {
            // The boxes of the other kind entered before this one that it can meet: those
            // its lower bound has not passed (the others are behind for good).
            let (others, mine) = if item.sensor {
                (&mut self.bodies, &mut self.sensors)
            } else {
                (&mut self.sensors, &mut self.bodies)
            };
            others.retain(|&j| items[j as usize].hi >= item.lo);
            for &j in others.iter() {
                let other = &items[j as usize];
                if other.y_lo <= item.y_hi && item.y_lo <= other.y_hi {
                    found(item.slot, other.slot);
                }
            }
            mine.push(i as u32);
        }
    }
}
