//! The pairs of a sensor shape and another shape whose boxes over the step meet, kept apart
//! from the steppers' own searches so that those never see a sensor.
//!
//! One sort of the boxes along x and one sweep that only ever tests a sensor against a shape
//! that is not one: a world has few sensors and many bodies, and a sweep over every pair of boxes would spend
//! its time on the pairs of bodies (in the rain of 1,000 discs with one sensor, a sort and
//! sweep of every pair took 40% more than this one). In a periodic domain, the wrapped grid
//! of [`grid`](crate::grid) over the same boxes, which finds the images.

use crate::grid::ReachGrid;
use crate::rules::{CollisionRules, PairKind};
use crate::shape_proxies::ShapeProxies;
use impact_broadphase::ProxyId;
use impact_geometry::{Aabb, Point, Real, Vector};
use impact_solver::{BodySet, BodyType, RigidBody, ShapeId};

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
    /// Per box: its lower bound along x as an ordered integer, then its slot.
    keys: Vec<u128>,
    items: Vec<Item>,
    /// The sensors and the bodies whose boxes the sweep has entered and may not have left,
    /// as indices into `items`.
    sensors: Vec<u32>,
    bodies: Vec<u32>,
    grid: ReachGrid,
    found: Vec<(u32, Vector)>,
}

impl PairSearch {
    /// Every pair of a sensor shape and a shape of another body that is not a sensor, whose
    /// boxes in `boxes` (per proxy, the proxies `shapes` names) meet, that the filters let
    /// meet (`rules`), and of whose bodies one moves, into `pairs`: (sensor, other shape,
    /// translation of the image of the other the sensor meets), sorted by sensor, then other
    /// shape. `period` is that of a periodic domain.
    pub(super) fn pairs(
        &mut self,
        boxes: &[Option<Aabb>],
        (bodies, shapes, rules): (&BodySet, &ShapeProxies, &CollisionRules<'_>),
        period: Option<Vector>,
        pairs: &mut Vec<(ShapeId, ShapeId, Vector)>,
    ) {
        pairs.clear();
        let mut found = |x: u32, y: u32, shift: Vector| {
            let (Some((ix, bx, sx)), Some((iy, by, sy))) =
                (shape_at(bodies, shapes, x), shape_at(bodies, shapes, y))
            else {
                return;
            };
            if ix.body == iy.body {
                // The shapes of one body move as one.
                return;
            }
            let pair = match (sx, sy) {
                (true, false) => (ix, iy, shift),
                (false, true) => (iy, ix, -shift),
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
                let sensor =
                    |proxy: u32| shape_at(bodies, shapes, proxy).is_some_and(|(_, _, s)| s);
                self.sweep(boxes, sensor, |x, y| found(x, y, Vector::zeros()));
            }
        }
        pairs.sort_by_key(|&(s, v, _)| (s, v));
        pairs.dedup_by_key(|&mut (s, v, _)| (s, v));
    }

    /// Calls `found(x, y)` once for every pair of a sensor and a shape that is not one (as
    /// `sensor` says of a proxy) whose boxes in `boxes` meet (touching counts), in an order
    /// that depends on the boxes alone.
    fn sweep(
        &mut self,
        boxes: &[Option<Aabb>],
        sensor: impl Fn(u32) -> bool,
        mut found: impl FnMut(u32, u32),
    ) {
        // The order of the boxes' lower bounds, then slots, as integers: a total order (the
        // same pairs in the same order whatever the boxes' order), sorted as one `u128` per
        // box, a third of the work of sorting the boxes by their bounds.
        self.keys.clear();
        self.keys
            .extend(boxes.iter().enumerate().filter_map(|(slot, aabb)| {
                let lo = aabb.as_ref()?.mins.x;
                Some((u128::from(ordered(lo)) << 32) | slot as u128)
            }));
        self.keys.sort_unstable();
        self.items.clear();
        self.items.extend(self.keys.iter().filter_map(|&key| {
            let slot = key as u32;
            let aabb = boxes[slot as usize].as_ref()?;
            Some(Item {
                lo: aabb.mins.x,
                hi: aabb.maxs.x,
                y_lo: aabb.mins.y,
                y_hi: aabb.maxs.y,
                slot,
                sensor: sensor(slot),
            })
        }));
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

/// The shape of `proxy`, its body, and whether it is a sensor.
fn shape_at<'b>(
    bodies: &'b BodySet,
    shapes: &ShapeProxies,
    proxy: u32,
) -> Option<(ShapeId, &'b RigidBody, bool)> {
    let id = shapes.shape_of(ProxyId(proxy))?;
    let body = bodies.get(id.body)?;
    let sensor = body.shapes().get(id.index as usize)?.is_sensor();
    Some((id, body, sensor))
}

/// `x` as an integer of the same order as [`Real::total_cmp`]: the sign bit flipped for a
/// positive number, every bit for a negative one.
fn ordered(x: Real) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 0 {
        bits | (1 << 63)
    } else {
        !bits
    }
}

#[cfg(test)]
mod tests {
    use super::ordered;
    use impact_geometry::Real;

    #[test]
    fn ordered_integers_keep_the_order_of_the_numbers() {
        let xs: [Real; 9] = [
            Real::NEG_INFINITY,
            -1e300,
            -1.0,
            -1e-300,
            -0.0,
            0.0,
            1e-300,
            1.0,
            Real::INFINITY,
        ];
        for w in xs.windows(2) {
            assert_eq!(
                ordered(w[0]).cmp(&ordered(w[1])),
                w[0].total_cmp(&w[1]),
                "{w:?}"
            );
        }
    }
}
