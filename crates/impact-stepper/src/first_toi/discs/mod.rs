//! The disc path of [`FirstTimeOfImpact`](super::FirstTimeOfImpact): classic event-driven
//! molecular dynamics for a periodic world of free discs, used for a whole step whenever
//! the step allows it (see [`DiscPath::applies`]).
//!
//! The general event loop pays for what a general world may hold (polygons, static bodies,
//! gravity, the contact solver, Zeno pairs, a hook that changes bodies mid-step): a swept
//! course per body, reach boxes and neighbour lists, a queue of pair entries, the general
//! resolver, and the world's broadphase and contact pass every step. A gas of free discs
//! needs none of it, and is what event-driven simulation runs at its largest. Here, as in
//! the codes of Rapaport, of Donev, Torquato and Stillinger, and DynamO:
//!
//! - a **cell list** ([`cells`]): cells at least as wide as a pair can be apart and still
//!   meet, so a disc plans against the 3 x 3 block around its cell, and plans again when
//!   it crosses into another cell (a *crossing*, counted in
//!   [`FirstToiReport::reach_escapes`](super::FirstToiReport::reach_escapes));
//! - **one event per disc**, the earlier of its next collision and its next crossing, in a
//!   tournament tree ([`tree`]); a collision planned with a partner that has since changed
//!   course (per-disc versions) is dropped when it comes up, counted in
//!   [`FirstToiReport::invalidated`](super::FirstToiReport::invalidated), and its disc
//!   planned again. A partner that changed course planned against every disc of its
//!   block then, so no collision is missed: each pair's next collision is never earlier
//!   than the earlier of its two discs' planned events;
//! - **local clocks**: a disc's position is kept at the time it last changed course or
//!   cell and moved only when it is touched;
//! - discs laid out in **cell order**, re-sorted every step, so that the discs a plan reads
//!   sit close in memory in a large gas;
//! - the collision is the circle-circle closed form of the general path
//!   ([`toi_circles`]) and the impulse the general resolver's for two discs without friction
//!   or spin, written out (no lever arms, no body lookups).
//!
//! Nothing is allocated per event; the buffers are kept from step to step, and nothing else
//! is (a step starts from the bodies alone, so snapshots continue bit for bit).

mod cells;
mod tree;

use super::{FirstTimeOfImpactSettings, FirstToiReport};
use crate::domain::{Domain, PeriodicImages, minimum_image};
use crate::events::{CollisionEvent, EventKind};
use crate::stepper::StepPreview;
use cells::{Cells, NONE};
use impact_geometry::{Isometry, Point, Real, Shape, Vector, rotation_by};
use impact_narrowphase::{Toi, toi_circles};
use impact_solver::{BodyHandle, BodySet, Impulse, combine_restitution, contact_tangent};
use tree::EventTree;

/// A disc's state, read by every plan of its neighbours: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Disc {
    /// The centre at `clock`, in the frame of the disc's cell (moved by a period when the
    /// disc crosses a side of the domain).
    p: Vector,
    v: Vector,
    /// The time (in the step) `p` is at.
    clock: Real,
    r: Real,
    /// Bumped at every change of course; a planned collision carries its partner's.
    version: u32,
    cell: u32,
    /// Periods the disc has crossed along x and y this step: `p` plus that many periods is
    /// where its course is in the world's frame, which does not wrap during a step (and
    /// where its collisions are reported). A step may not sweep half the domain, so a
    /// few suffice.
    turns: [i16; 2],
}

/// A disc's planned events: its earliest collision before the end of the step, if any
/// (with `partner` at `version`), and its next crossing (of its cell's side `side`, see
/// [`Cells::across`]); the earlier of the two is its event in the tree.
#[derive(Debug, Clone, Copy)]
struct Planned {
    hit: Real,
    partner: u32,
    version: u32,
    cross: Real,
    side: u8,
}

impl Planned {
    const NOTHING: Self = Self {
        hit: Real::INFINITY,
        partner: NONE,
        version: 0,
        cross: Real::INFINITY,
        side: 0,
    };
}

/// The grid of a step on the disc path: the domain's lower corner and size, and the cell
/// counts along x and y.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Ready {
    min: Point,
    size: Vector,
    fit: (u32, u32),
}

/// The disc path's buffers, kept from step to step (they hold nothing between steps).
#[derive(Debug, Clone, Default)]
pub(super) struct DiscPath {
    /// What [`DiscPath::applies`] found for the coming step, taken by
    /// [`DiscPath::take`]; `None` sends the step down the general path.
    ready: Option<Ready>,
    discs: Vec<Disc>,
    planned: Vec<Planned>,
    /// What only a collision reads of a disc, together: one cache line for both discs'
    /// rather than one per array in a large gas.
    cold: Vec<Cold>,
    cells: Cells,
    tree: EventTree,
    /// The bodies as [`DiscPath::applies`] read them, in set order: the step's only read
    /// of the body set (a large gas's bodies do not fit the caches).
    staged: Vec<Staged>,
    /// Counting sort by cell: per cell, where its discs start; per body (set order), its
    /// cell, then its disc.
    starts: Vec<u32>,
    body_cell: Vec<u32>,
}

/// What a collision reads of a disc besides its state.
#[derive(Debug, Clone, Copy)]
struct Cold {
    inv_mass: Real,
    restitution: Real,
    handle: BodyHandle,
}

/// A body as the disc path loads it.
#[derive(Debug, Clone, Copy)]
struct Staged {
    p: Vector,
    v: Vector,
    r: Real,
    inv_mass: Real,
    restitution: Real,
    handle: BodyHandle,
}

impl DiscPath {
    /// Whether the coming step can be the disc path's, remembered for [`DiscPath::take`]: a
    /// periodic domain without gravity, a hook that does nothing, no pair that a collision
    /// filter, a sensor or a pair hook could keep apart, settings with every safety
    /// net off (`threshold_radii_per_step` 0, `max_events`, `max_pair_events` and `min_advance`
    /// off, as in
    /// [`FirstTimeOfImpactSettings::elastic`](crate::FirstTimeOfImpactSettings::elastic)), and
    /// every body a dynamic CCD disc about its centre of mass, without damping, and without
    /// friction unless the impact settings leave friction out (a spin then changes nothing but
    /// the angle). Then the general path would resolve the same collisions (every moving body
    /// checked, no pair for the contact solver, nothing for the hook), and this path does it
    /// for a fraction of the work.
    pub(super) fn applies(
        &mut self,
        settings: &FirstTimeOfImpactSettings,
        preview: &StepPreview<'_>,
    ) -> bool {
        self.ready = None;
        self.staged.clear();
        let Domain::Periodic { min, max } = *preview.domain else {
            return false;
        };
        let Some(images) = PeriodicImages::new(preview.domain) else {
            return false;
        };
        // Filters, sensors and pair hooks send the step down the general path, which
        // honours them: this path plans every pair of neighbouring discs. So do sleeping
        // bodies, which this path would move with the rest.
        if !preview.inert_hook
            || preview.bodies.asleep_len() > 0
            || !preview.rules.is_trivial()
            || preview.gravity != Vector::zeros()
            || settings.threshold_radii_per_step != 0.0
            || settings.max_events != usize::MAX
            || settings.max_pair_events != u32::MAX
            || settings.min_advance != 0.0
        {
            return false;
        }
        let mut r_max: Real = 0.0;
        for (handle, body) in preview.bodies.iter() {
            // A disc of one shape: the path knows a body by its one circle.
            let Shape::Circle(circle) = body.shape() else {
                return false;
            };
            if !body.has_one_shape() {
                return false;
            }
            let frictionless = !settings.impact.friction || body.material().friction() == 0.0;
            if !body.is_dynamic()
                || !body.ccd()
                || circle.center() != Point::origin()
                || body.local_center() != Point::origin()
                || body.linear_damping() != 0.0
                || body.angular_damping() != 0.0
                || !frictionless
                || !(body.inv_mass() > 0.0 && body.inv_mass().is_finite())
            {
                return false;
            }
            // The world's check, which this path skips with the rest of its pass: a box
            // that does not fit sends the step to the pass, which refuses it.
            let Ok(sweep) = body.sweep(preview.dt) else {
                return false;
            };
            if !images.fits(
                &body
                    .swept_aabb(&sweep)
                    .inflated(preview.speculative_distance),
            ) {
                return false;
            }
            r_max = r_max.max(circle.radius());
            self.staged.push(Staged {
                p: body.pose().translation.vector,
                v: body.linvel(),
                r: circle.radius(),
                inv_mass: body.inv_mass(),
                restitution: body.material().restitution(),
                handle,
            });
        }
        // A pair further apart than this at the start of a query cannot meet: two radii,
        // the target separation and the tolerance of the query, with room for the rounding
        // of positions near a cell's side.
        let toi = &settings.toi;
        let meet = (2.0 * r_max + toi.target_separation() + 2.0 * toi.tolerance()) * (1.0 + 1e-9);
        // No more cells than a few per disc: a sparse gas of small discs would otherwise ask
        // for a grid far larger than the gas.
        let size = max - min;
        let crowd = (size.x * size.y / (4 * preview.bodies.len() + 16) as Real).sqrt();
        self.ready = Cells::fit(size, meet.max(crowd)).map(|fit| Ready { min, size, fit });
        self.ready.is_some()
    }

    /// Whether [`DiscPath::applies`] said yes for this step; forgets the answer.
    pub(super) fn take(&mut self) -> Option<Ready> {
        self.ready.take()
    }

    /// The whole step on the disc path (see the module's documentation), on the grid
    /// [`DiscPath::applies`] found: every body at the end of the step, the collisions in
    /// `events` in time order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn step(
        &mut self,
        ready: Ready,
        settings: &FirstTimeOfImpactSettings,
        bodies: &mut BodySet,
        dt: Real,
        time: Real,
        events: &mut Vec<CollisionEvent>,
        report: &mut FirstToiReport,
    ) {
        self.load(ready, report);
        let n = self.discs.len();
        let mut run = Run {
            path: self,
            settings,
            dt,
            report,
        };
        for i in 0..n as u32 {
            run.plan(i, 0.0, None);
        }
        loop {
            let (t, i) = run.path.tree.first();
            // Nothing planned before the end of the step (a NaN would be a bug; it ends the
            // step rather than loop).
            if t > dt || t.is_nan() {
                break;
            }
            let planned = run.path.planned[i as usize];
            if planned.cross <= planned.hit {
                run.cross(i, planned.side, t);
            } else if run.path.discs[planned.partner as usize].version != planned.version {
                run.report.invalidated += 1;
                run.plan(i, t, None);
            } else {
                let event = run.collide(i, planned.partner, t, time);
                events.push(event);
            }
        }
        report.queue_peak = n;
        self.store(bodies, dt);
    }

    /// The bodies into the disc arrays, in cell order, and the cells' lists.
    fn load(&mut self, ready: Ready, report: &mut FirstToiReport) {
        let n = self.staged.len();
        self.cells.reset(ready.min, ready.size, ready.fit, n);
        self.starts.clear();
        self.starts.resize(self.cells.len() + 1, 0);
        self.body_cell.clear();
        for b in &self.staged {
            let cell = self.cells.cell_of(&Point::from(b.p));
            self.body_cell.push(cell);
            self.starts[cell as usize + 1] += 1;
        }
        for c in 1..self.starts.len() {
            self.starts[c] += self.starts[c - 1];
        }
        let blank = Disc {
            p: Vector::zeros(),
            v: Vector::zeros(),
            clock: 0.0,
            r: 0.0,
            version: 0,
            cell: 0,
            turns: [0, 0],
        };
        self.discs.clear();
        self.discs.resize(n, blank);
        self.cold.clear();
        self.cold.resize(
            n,
            Cold {
                inv_mass: 0.0,
                restitution: 0.0,
                handle: BodyHandle {
                    index: u32::MAX,
                    generation: 0,
                },
            },
        );
        self.planned.clear();
        self.planned.resize(n, Planned::NOTHING);
        for (k, b) in self.staged.iter().enumerate() {
            let cell = self.body_cell[k];
            let i = self.starts[cell as usize] as usize;
            self.starts[cell as usize] += 1;
            self.body_cell[k] = i as u32;
            self.discs[i] = Disc {
                p: b.p,
                v: b.v,
                clock: 0.0,
                r: b.r,
                version: 0,
                cell,
                turns: [0, 0],
            };
            self.cold[i] = Cold {
                inv_mass: b.inv_mass,
                restitution: b.restitution,
                handle: b.handle,
            };
            if b.v != Vector::zeros() {
                report.checked_bodies += 1;
            }
        }
        // Each list in index order, which is the order the discs were laid out in.
        for i in (0..n).rev() {
            self.cells.insert(i as u32, self.discs[i].cell);
        }
        self.tree.reset(n);
    }

    /// Every disc to the end of the step, back into its body: in the set's order, which
    /// reads the discs out of order (a cache line each) rather than the larger bodies.
    fn store(&self, bodies: &mut BodySet, dt: Real) {
        for ((_, body), &i) in bodies.iter_mut().zip(&self.body_cell) {
            let d = &self.discs[i as usize];
            let p = d.p + d.v * (dt - d.clock);
            // A spin is kept (without friction no collision changes it) and turns the disc
            // as its course would.
            let rotation = match body.angvel() {
                0.0 => body.pose().rotation,
                w => body.pose().rotation * rotation_by(w * dt),
            };
            let pose = Isometry::from_parts(p.into(), rotation);
            let ok = body.set_pose(pose);
            debug_assert!(ok.is_ok(), "a pose on a finite course is valid");
            if d.version != 0 {
                let ok = body.set_linvel(d.v);
                debug_assert!(ok.is_ok(), "a resolved velocity is finite");
            }
        }
    }
}

/// One step's event loop over the loaded discs.
struct Run<'r> {
    path: &'r mut DiscPath,
    settings: &'r FirstTimeOfImpactSettings,
    dt: Real,
    report: &'r mut FirstToiReport,
}

impl Run<'_> {
    /// Moves disc `i`'s clock to `t`.
    #[inline]
    fn advance(&mut self, i: u32, t: Real) {
        let d = &mut self.path.discs[i as usize];
        d.p += d.v * (t - d.clock);
        d.clock = t;
    }

    /// Plans disc `i`'s events from `t`: its next crossing, and its earliest collision
    /// with a disc of the 3 x 3 block around its cell before the step ends. After a
    /// crossing across `side` whose disc's planned collision still holds (or it had none),
    /// only the strip of cells new to the block is searched: the collisions with the rest
    /// of the block were no earlier than the planned one, or are the concern of a
    /// neighbour that changed course since, which planned against this disc then.
    fn plan(&mut self, i: u32, t: Real, crossed: Option<u8>) {
        let path = &mut *self.path;
        let d = path.discs[i as usize];
        let p = d.p + d.v * (t - d.clock);
        let (lo, hi) = path.cells.bounds(d.cell);
        let leave = |lo: Real, hi: Real, p: Real, v: Real, up: u8| {
            if v > 0.0 {
                (((hi - p) / v).max(0.0), up)
            } else if v < 0.0 {
                (((lo - p) / v).max(0.0), up + 1)
            } else {
                (Real::INFINITY, up)
            }
        };
        let (tx, sx) = leave(lo.x, hi.x, p.x, d.v.x, 0);
        let (ty, sy) = leave(lo.y, hi.y, p.y, d.v.y, 2);
        let (cross, side) = if tx <= ty { (t + tx, sx) } else { (t + ty, sy) };
        let mut planned = Planned {
            // A crossing at the very end of the step changes nothing the next step would
            // not.
            cross: if cross < self.dt {
                cross
            } else {
                Real::INFINITY
            },
            side,
            ..Planned::NOTHING
        };
        let old = path.planned[i as usize];
        let keep = crossed.filter(|_| {
            old.partner == NONE || path.discs[old.partner as usize].version == old.version
        });
        if keep.is_some() {
            planned.hit = old.hit;
            planned.partner = old.partner;
            planned.version = old.version;
        }
        let rest = self.dt - t;
        if rest > 0.0 {
            let strip;
            let block;
            let cells: &[(u32, Vector)] = match keep {
                Some(side) => {
                    strip = path.cells.strip(d.cell, side);
                    &strip
                }
                None => {
                    block = path.cells.block(d.cell);
                    &block
                }
            };
            let toi = &self.settings.toi;
            let here = Point::from(p);
            let move_i = d.v * rest;
            let mut queries = 0;
            for &(cell, shift) in cells {
                let mut j = path.cells.first(cell);
                while j != NONE {
                    let e = path.discs[j as usize];
                    let next = path.cells.next(j);
                    if j != i {
                        queries += 1;
                        let there = Point::from(e.p + e.v * (t - e.clock) + shift);
                        let time = match toi_circles(here, move_i, d.r, there, e.v * rest, e.r, toi)
                        {
                            Toi::Hit(hit) => (t + hit.fraction * rest).clamp(t, self.dt),
                            // Touching already: a collision now if the courses drive the
                            // pair deeper, as the general path's check of an overlap.
                            Toi::Overlapping => {
                                let w = there - here;
                                let approach = (e.v - d.v).dot(&w) / w.norm();
                                if approach * rest < -toi.tolerance() {
                                    t
                                } else {
                                    Real::INFINITY
                                }
                            }
                            Toi::Separated | Toi::NotConverged { .. } => Real::INFINITY,
                        };
                        if time < planned.hit {
                            planned.hit = time;
                            planned.partner = j;
                            planned.version = e.version;
                        }
                    }
                    j = next;
                }
            }
            self.report.toi_queries += queries;
        }
        path.planned[i as usize] = planned;
        path.tree.set(i, planned.hit.min(planned.cross));
    }

    /// Disc `i` crosses its cell's `side` at `t`: into the next cell (and by a period at a
    /// side of the domain), and planned again there.
    fn cross(&mut self, i: u32, side: u8, t: Real) {
        self.advance(i, t);
        let path = &mut *self.path;
        let d = &mut path.discs[i as usize];
        let (cell, shift) = path.cells.across(d.cell, side);
        path.cells.remove(i, d.cell);
        path.cells.insert(i, cell);
        d.cell = cell;
        d.p += shift;
        d.turns[0] -= shift.x.signum() as i16 * i16::from(shift.x != 0.0);
        d.turns[1] -= shift.y.signum() as i16 * i16::from(shift.y != 0.0);
        self.report.reach_escapes += 1;
        self.plan(i, t, Some(side));
    }

    /// Discs `i` and `j` collide at `t`: the impulse, new versions, both planned again.
    /// Returns the event (its time offset by the world's time `time`).
    fn collide(&mut self, i: u32, j: u32, t: Real, time: Real) -> CollisionEvent {
        self.advance(i, t);
        self.advance(j, t);
        let path = &mut *self.path;
        let (iu, ju) = (i as usize, j as usize);
        let (di, dj) = (path.discs[iu], path.discs[ju]);
        // The pair is closer than a third of the domain (three cells a side), so the
        // nearest image is the one they meet through.
        let size = path.cells.size;
        let w = minimum_image(dj.p - di.p, size);
        let length = w.norm();
        let normal = if length > 0.0 {
            w / length
        } else {
            (di.v - dj.v)
                .try_normalize(0.0)
                .unwrap_or_else(|| Vector::new(1.0, 0.0))
        };
        // Along the line of centres `w` itself, over `|w|^2` summed from its components:
        // the energy is then kept to the rounding of the update alone. A unit normal, or
        // `|w|` squared back from its square root, is a few ulps long or short, and near
        // contact (`|w|` about a diameter) not evenly so: it gained about a quarter of an
        // ulp of kT per collision on average, 3e-13 of the energy over a million
        // collisions of a thousand discs.
        let (line, w2) = if length > 0.0 {
            (w, w.norm_squared())
        } else {
            (normal, 1.0)
        };
        let closing = (dj.v - di.v).dot(&line);
        let vn = closing / w2.sqrt();
        let (ci, cj) = (path.cold[iu], path.cold[ju]);
        let (mi, mj) = (ci.inv_mass, cj.inv_mass);
        let mut restitution = 0.0;
        let mut impulse = 0.0;
        if closing < 0.0 {
            restitution = combine_restitution(ci.restitution, cj.restitution);
            if -vn < self.settings.impact.restitution_threshold {
                restitution = 0.0;
            }
            let k = -(1.0 + restitution) * closing / ((mi + mj) * w2);
            path.discs[iu].v -= line * (k * mi);
            path.discs[ju].v += line * (k * mj);
            impulse = k * w2.sqrt();
        }
        path.discs[iu].version = path.discs[iu].version.wrapping_add(1);
        path.discs[ju].version = path.discs[ju].version.wrapping_add(1);
        self.report.events += 1;
        // As the general path reports it: `a` the smaller slot, where it is; the normal from
        // `a` toward `b`; the point on the middle of the target gap.
        let (ha, hb) = (ci.handle, cj.handle);
        let gap = 0.5 * self.settings.toi.target_separation();
        let (a, b, d, n) = if ha.index < hb.index {
            (ha, hb, di, normal)
        } else {
            (hb, ha, dj, -normal)
        };
        let centre = Vector::new(
            d.p.x + Real::from(d.turns[0]) * size.x,
            d.p.y + Real::from(d.turns[1]) * size.y,
        );
        let event = CollisionEvent {
            time: time + t,
            fraction: (t / self.dt).clamp(0.0, 1.0),
            a,
            b,
            shapes: [0, 0],
            kind: EventKind::Impact,
            impulse: Impulse {
                normal: impulse,
                tangent: 0.0,
                normal_direction: n,
                tangent_direction: contact_tangent(&n),
                point: Point::from(centre + n * (d.r + gap)),
                approach_speed: -vn,
                restitution,
            },
        };
        self.plan(i, t, None);
        self.plan(j, t, None);
        event
    }
}
