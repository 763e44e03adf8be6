//! The clamp's question of [`MotionClamping`](super::MotionClamping): how far along its motion
//! each checked body may go, the earliest safe fraction over its candidates.
//!
//! Each candidate pair is one time of impact along both rebuilt sweeps, the candidate on its
//! own unclamped motion. Two answers are not a clamp at once. A pair that overlaps at the
//! start is the contact solver's, unless a body swings its far side round more than the
//! contact distance (the solver's manifold, taken at the start poses, does not bound where it
//! goes): the pair is then followed along the sweeps and stops where the overlap deepens. A
//! pair within the target separation at the start that the solver held over the step is the
//! solver's if its targets are still apart on the same side: clamping it at 0 would freeze a
//! body sliding along a wall. Every fraction is found before any body moves, so the order of
//! the candidates changes nothing.

use super::{MotionClampingSettings, Scratch};
use crate::domain::translated_sweep;
use crate::hooks::ContactResponse;
use crate::motion::{
    ShapeRules, absorb_approach, discs_stay_apart, earliest_shape_tois, held_contact,
    held_contact_along, held_normal, move_pair_as_one, shape_at, shape_tois, turned_round,
};
use crate::report::ClampReport;
use crate::rules::CollisionRules;
use crate::swing::{Deepening, anchored, deepens_by, swinging_deepening, swings, unit_normal};
use impact_geometry::{Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Hit, Toi, distance};
use impact_solver::{BodyHandle, BodySet, ContactPair, RigidBody};

impl Scratch {
    /// The earliest safe fraction of each checked body over its candidates, and every body
    /// with one below 1 in `clamps`. `contacts` are the step's manifolds, whose normals keep
    /// the side of an overlapping pair.
    pub(super) fn earliest_fractions(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules): (&mut BodySet, ShapeRules<'_>),
        contacts: &[ContactPair],
        dt: Real,
        report: &mut ClampReport,
    ) {
        // Only a pre-solve hook has a say over a candidate's time of impact.
        let pre_solve = rules.rules.has_pre_solve();
        self.contacts_by_slots.rebuild(contacts);
        self.solver_by_slots.rebuild(&self.solver_contacts);
        // The times of impact depend only on the sweeps and the shapes, which nothing below
        // changes: with the `parallel` feature they are found first, on every core.
        #[cfg(feature = "parallel")]
        let found = self.all_tois(settings, bodies, rules);
        for i in 0..self.candidates.len() {
            let candidate = self.candidates[i];
            #[cfg(feature = "parallel")]
            let found = found.as_ref().map(|found| found[i].as_slice());
            #[cfg(not(feature = "parallel"))]
            let found = None;
            self.candidate(
                settings,
                (bodies, rules, pre_solve),
                contacts,
                (candidate, found),
                dt,
                report,
            );
        }
        // A dynamic body that would run over a body stopped here is stopped too.
        self.stop_runners(settings, (bodies, rules, pre_solve), contacts, dt, report);
        for (handle, _) in bodies.iter_awake() {
            let earliest = self.earliest[handle.index as usize];
            if earliest < 1.0 {
                self.clamps.push((handle, earliest));
            }
        }
    }

    /// The time of impact of the checked body of slot `x` against the image of `y`
    /// translated by `offset`, taken into the earliest fraction of `x`: the earliest over
    /// the shape pairs the rules admit ([`shape_tois`]), each unless the pre-solve hook (of
    /// `pre_solve`, the rules if they have one) disables it.
    #[inline]
    fn candidate(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, rules, pre_solve): (&mut BodySet, ShapeRules<'_>, bool),
        contacts: &[ContactPair],
        ((x, y, offset), found): ((u32, u32, Vector), Option<&[ShapeToi]>),
        dt: Real,
        report: &mut ClampReport,
    ) {
        let Some((handle, other_handle, sweep, other_sweep)) = self.meeting_sweeps((x, y, offset))
        else {
            return;
        };
        let mut tois = core::mem::take(&mut self.tois);
        if let Some(found) = found {
            tois.clear();
            tois.extend_from_slice(found);
        } else {
            let sweeps = (handle, other_handle, sweep, other_sweep);
            candidate_tois(settings, (bodies, rules), sweeps, &mut tois);
        }
        report.toi_queries += tois.len();
        for &(shapes, toi) in &tois {
            let meeting = (
                (handle, shapes[0], &sweep),
                (other_handle, shapes[1], &other_sweep),
            );
            let pre_solve = pre_solve.then_some(&rules.rules);
            if let Some(fraction) = self.shape_candidate(
                settings,
                (bodies, pre_solve),
                contacts,
                (x, y),
                meeting,
                toi,
                dt,
                report,
            ) {
                let earliest = &mut self.earliest[x as usize];
                *earliest = earliest.min(fraction);
            }
        }
        self.tois = tois;
    }

    /// The safe fraction of the checked body of slot `x` that the time of impact `toi` of
    /// its shape and one of `y`'s (`meeting`: each body's handle, shape and sweep over the
    /// step) allows, `None` if it allows the whole step. A pair that overlaps at the start is
    /// the solver's unless a body swings; a hit at the start that the solver held apart is
    /// the solver's, and one it did not hold leaves moving as one.
    #[allow(clippy::too_many_arguments)]
    fn shape_candidate(
        &mut self,
        settings: &MotionClampingSettings,
        (bodies, pre_solve): (&mut BodySet, Option<&CollisionRules<'_>>),
        contacts: &[ContactPair],
        (x, y): (u32, u32),
        meeting: Meeting<'_>,
        toi: Toi,
        dt: Real,
        report: &mut ClampReport,
    ) -> Option<Real> {
        let ((handle, shape_x, sweep), (other_handle, shape_y, other_sweep)) = meeting;
        let (Some(body), Some(other)) = (bodies.get(handle), bodies.get(other_handle)) else {
            return None;
        };
        let (own, theirs) = (
            (body, shape_at(body, shape_x), sweep),
            (other, shape_at(other, shape_y), other_sweep),
        );
        if toi == Toi::Overlapping {
            report.overlapping += 1;
            // The solver's manifold holds an overlapping pair, unless a body swings its
            // far side round more than the contact distance: followed along the sweeps,
            // the body stops where the overlap deepens (see `deepening`).
            let by_slots = self.contacts_by_slots.view(contacts);
            let side = || held_normal(by_slots, (x, shape_x), (y, shape_y));
            // Two dynamic bodies of one shape each are the solver's: it moves both, and a
            // pair it pushed through each other is stopped by the net
            // (`stop_pushed_through`), which judges such a body by its centre of mass.
            // A compound's piece is judged by the piece's centre, which a swinging arm can
            // carry past another body's surface unseen: compounds keep the stop. Followed
            // along the rebuilt sweeps, a long body turning through a pile seems to sink
            // into every body it pushes (its support along the normal moves with its far
            // end): a paddle stopped every body it pushed 4% into each step, and Box2D's
            // spinner kept a tenth of the motion it has under `Discrete`.
            if own.0.is_dynamic()
                && theirs.0.is_dynamic()
                && own.0.has_one_shape()
                && theirs.0.has_one_shape()
            {
                return None;
            }
            let normal = swinging_normal(settings, own, theirs, side)?;
            // As for a touching pair below: followed along the rebuilt sweeps, a spinning
            // body on a wall dips into it by the chord of its turn at every step, so only an
            // overlap that can sink half way into the thinner shape needs the stop (bodies
            // sliding round the spinner's ring at 20 rad/s were stopped 0.1% into each step).
            let crossing = crossing_depth(own, theirs, &normal);
            if crossing > settings.toi.tolerance()
                && !can_deepen_by(settings, own, theirs, normal, crossing)
            {
                return None;
            }
            return deepening_stop(
                deepening(settings, own, theirs, normal),
                (pre_solve, bodies, meeting),
                settings,
                dt,
            );
        }
        if let (Toi::Hit(hit), Some(rules)) = (toi, pre_solve)
            && disabled(
                rules,
                bodies,
                meeting,
                (hit.point, hit.normal),
                (hit.fraction, dt),
                settings,
            )
        {
            // The hook lets the body pass (a one-way platform met from below).
            return None;
        }
        if let Toi::Hit(hit) = toi
            && hit.fraction <= 0.0
            && let Some(&held) =
                self.held_at_start(settings, (x, shape_x), (y, shape_y), (own, theirs), &hit)
        {
            if held_apart(settings, hit.normal, own, theirs) {
                report.touching += 1;
                // The solver's manifold holds the side where the pair touches, not a far
                // side a body swings round: an L spinning at 80 rad/s against a wall 1 mm
                // thick, held by one arm's end, swung the arm through (its overlap there,
                // the wall's half thickness, is no deeper than a held contact's). Followed
                // along the sweeps, it stops where the overlap deepens. Asked only where a
                // body has several shapes: pairs of single shapes keep the rule their golden
                // results pin (the tumbling rain's).
                if own.0.has_one_shape() && theirs.0.has_one_shape() {
                    return None;
                }
                let normal = swinging_normal(settings, own, theirs, || Some(hit.normal))?;
                // Stopped where it deepens by the tolerance, a pair the solver holds is
                // stopped again from the same place at every step when the deepening is the
                // rebuilt sweep's alone: a box tipping over a chain's crest at 20 rad/s,
                // straight between the solver's poses, dips on the crest by the chord of its
                // turn and was stopped 1% into every step, for good. Only a deepening that
                // can take a shape half way into or past the other needs the stop.
                let crossing = crossing_depth(own, theirs, &hit.normal);
                if crossing > settings.toi.tolerance()
                    && !can_deepen_by(settings, own, theirs, normal, crossing)
                {
                    return None;
                }
                return match deepening(settings, own, theirs, normal) {
                    Deepening::Never => None,
                    Deepening::At { after, .. } => Some((after / dt).clamp(0.0, 1.0)),
                    Deepening::Unknown { safe } => Some((safe / dt).clamp(0.0, 1.0)),
                };
            }
            // Stopped with the velocities that closed in, the pair would close in again
            // from the same place at every step, and hang there (a box spinning fast
            // against a falling one: the solver's anchors turn away with it). It leaves
            // moving as one, as a pair pushed through does; but a driver keeps its motion,
            // and carries the free body if it passes into it (see `carry`).
            report.closing_stopped += 1;
            if !self.driver_pair(x, y) {
                move_pair_as_one(bodies, &self.start, &held);
            }
        } else if let Toi::Hit(hit) = toi
            && hit.fraction <= 0.0
            && !(own.0.has_one_shape() && theirs.0.has_one_shape())
            && !theirs.0.is_dynamic()
        {
            // A hit at the start that no contact holds: a body at a chain's or an outline's
            // joint closing in on the face ahead, whose manifold the contact kernel leaves
            // to the face the body rests on. Stopped with the velocity that closes in, it
            // would close in again at every step and hang there (a box sliding at 12
            // units/s over a wavy chain did, for good); the approach is taken out as an
            // inelastic impact on the fixed face would, so the next step goes on along it.
            if let Some(body) = bodies.get_mut(handle) {
                absorb_approach(body, hit.point, hit.normal);
            }
        }
        toi.safe_fraction().map(|fraction| fraction.max(0.0))
    }
}

/// A time of impact of two shapes, with their places in their bodies.
type ShapeToi = ([u32; 2], Toi);

impl Scratch {
    /// The handles and sweeps of the checked body of slot `x` and of `y`'s image translated
    /// by `offset`; `None` if either is gone or has no sweep.
    fn meeting_sweeps(
        &self,
        (x, y, offset): (u32, u32, Vector),
    ) -> Option<(BodyHandle, BodyHandle, Sweep, Sweep)> {
        let handle = self.handles[x as usize]?;
        let other_handle = self.handles[y as usize]?;
        let sweep = self.sweeps[x as usize]?;
        let other_sweep = translated_sweep(&self.sweeps[y as usize]?, &offset)?;
        Some((handle, other_handle, sweep, other_sweep))
    }
}

/// The times of impact over the shape pairs the rules admit ([`shape_tois`]) of a candidate,
/// given by its bodies' handles and sweeps ([`Scratch::meeting_sweeps`]), into `out`
/// (cleared; left empty where a body is gone).
fn candidate_tois(
    settings: &MotionClampingSettings,
    (bodies, rules): (&BodySet, ShapeRules<'_>),
    (handle, other_handle, sweep, other_sweep): (BodyHandle, BodyHandle, Sweep, Sweep),
    out: &mut Vec<ShapeToi>,
) {
    out.clear();
    let (Some(body), Some(other)) = (bodies.get(handle), bodies.get(other_handle)) else {
        return;
    };
    // The candidates come from boxes over the whole step; discs that stay apart over it
    // (two bodies passing each other, falling side by side) ask nothing.
    let ends = |sweep: &Sweep| (sweep.center_at(0.0), sweep.center_at(1.0));
    let ((x0, x1), (y0, y1)) = (ends(&sweep), ends(&other_sweep));
    if discs_stay_apart(
        (body, &sweep, x0, x1),
        (other, &other_sweep, y0, y1),
        &settings.toi,
    ) {
        return;
    }
    let admit = |pair| rules.admits(bodies, (handle, body), (other_handle, other), pair);
    let (x, y) = ((body, &sweep), (other, &other_sweep));
    if rules.rules.has_pre_solve() {
        // The hook may set the earliest hit aside: every pair is needed.
        shape_tois(x, y, admit, &settings.toi, out);
    } else {
        earliest_shape_tois(x, y, admit, &settings.toi, Real::INFINITY, out);
    }
}

#[cfg(feature = "parallel")]
impl Scratch {
    /// The times of impact of every candidate, as [`Scratch::candidate`] finds them, on
    /// rayon's threads (the same bits for any number of threads): `None` when there are too
    /// few candidates to share out, or one thread. A pair filter hook may be asked from
    /// several threads at once (it is `Send + Sync`).
    fn all_tois(
        &self,
        settings: &MotionClampingSettings,
        bodies: &BodySet,
        rules: ShapeRules<'_>,
    ) -> Option<Vec<Vec<ShapeToi>>> {
        use rayon::prelude::*;
        if self.candidates.len() < 256 || rayon::current_num_threads() < 2 {
            return None;
        }
        let one = |&c: &(u32, u32, Vector)| {
            let mut tois = Vec::new();
            if let Some(sweeps) = self.meeting_sweeps(c) {
                candidate_tois(settings, (bodies, rules), sweeps, &mut tois);
            }
            tois
        };
        Some(
            self.candidates
                .par_iter()
                .with_min_len(32)
                .map(one)
                .collect(),
        )
    }
}

impl Scratch {
    /// The solver's contact that holds the pair of a hit at the start of the step: that of
    /// the two shapes, or, where a body has several shapes, the bodies' contact whose normal
    /// is the hit's, or else any contact of the two bodies. A chain segment or an outline's
    /// piece answers a body at its joint with the face that owns the hit's direction: the
    /// neighbour's, whose contact the solver holds, or its own at a concave joint, whose
    /// manifold the contact kernel leaves to the neighbour the body rests on. Without them a
    /// wheel rolling over a chain's joints was stopped at a joint at every step, for good.
    /// A contact found through another shape counts only while the targets stay apart
    /// along the hit's normal.
    fn held_at_start(
        &self,
        settings: &MotionClampingSettings,
        (x, shape_x): (u32, u32),
        (y, shape_y): (u32, u32),
        (own, theirs): (Part<'_>, Part<'_>),
        hit: &Hit,
    ) -> Option<&ContactPair> {
        let contacts = self.solver_by_slots.view(&self.solver_contacts);
        let held = held_contact(contacts, (x, Some(shape_x)), (y, Some(shape_y)));
        if held.is_some() || (own.0.has_one_shape() && theirs.0.has_one_shape()) {
            return held;
        }
        // Found through another shape's contact, the hit is the solver's only while the
        // targets stay apart along it: a box striking a concave joint's next face at speed
        // is a time of impact to stop at, not a pair to move as one.
        held_contact_along(contacts, (x, y), &hit.normal, HELD_ALONG_COS)
            .or_else(|| held_contact(contacts, (x, None), (y, None)))
            .filter(|_| held_apart(settings, hit.normal, own, theirs))
    }
}

/// How closely a hit's normal must follow a held contact's for the contact to be the one
/// the hit found again (the cosine of 0.01 radians).
const HELD_ALONG_COS: Real = 0.999_95;

/// The two sides of a meeting: each body's handle, the place of its shape, and its sweep.
pub(super) type Meeting<'a> = ((BodyHandle, u32, &'a Sweep), (BodyHandle, u32, &'a Sweep));

/// One side of a shape pair: the body, the shape, and the body's sweep.
type Part<'a> = (&'a RigidBody, &'a Shape, &'a Sweep);

/// For a pair that overlaps or touches at the start (`body` on `sweep`, `other` on
/// `other_sweep`): if either body swings, the normal of their start distance, kept on the
/// side of `side` (the step's manifold, or the hit's normal); `None` if neither swings (the
/// solver's manifold bounds the pair) or the shapes have no normal.
fn swinging_normal(
    settings: &MotionClampingSettings,
    (body, shape, sweep): Part<'_>,
    (other, other_shape, other_sweep): Part<'_>,
    side: impl Fn() -> Option<Vector>,
) -> Option<Vector> {
    let pad = settings.toi.target_separation() + settings.toi.tolerance();
    if !(swings(body, sweep, pad) || swings(other, other_sweep, pad)) {
        return None;
    }
    let start = distance(
        shape,
        &sweep.pose_at(0.0),
        other_shape,
        &other_sweep.pose_at(0.0),
    );
    unit_normal(&start).map(|normal| anchored(normal, side()))
}

/// Where the overlap of a swinging pair (see [`swinging_normal`]) deepens along `normal` by
/// the tolerance, followed along the sweeps.
fn deepening(
    settings: &MotionClampingSettings,
    (_, shape, sweep): Part<'_>,
    (_, other_shape, other_sweep): Part<'_>,
    normal: Vector,
) -> Deepening {
    swinging_deepening(
        (shape, sweep),
        (other_shape, other_sweep),
        normal,
        settings.toi.tolerance(),
        settings.toi.max_iterations(),
    )
}

/// The fraction of the step of `dt` seconds at which a pair (`meeting`) stops where its
/// overlap deepens (`deepening`), `None` if it never does or the pre-solve hook (of
/// `pre_solve`, the rules if they have one) disables the meeting there.
pub(super) fn deepening_stop(
    deepening: Deepening,
    (pre_solve, bodies, meeting): (Option<&CollisionRules<'_>>, &BodySet, Meeting<'_>),
    settings: &MotionClampingSettings,
    dt: Real,
) -> Option<Real> {
    match deepening {
        Deepening::Never => None,
        Deepening::At {
            after,
            point,
            normal,
        } => {
            let at = (after / dt).clamp(0.0, 1.0);
            let disabled = pre_solve.is_some_and(|rules| {
                disabled(rules, bodies, meeting, (point, normal), (at, dt), settings)
            });
            (!disabled).then_some(at)
        }
        Deepening::Unknown { safe } => Some((safe / dt).clamp(0.0, 1.0)),
    }
}

/// Whether the overlap of a swinging pair (see [`swinging_normal`]) can deepen by `depth`
/// along `normal` at some moment of the step, closing there or not.
fn can_deepen_by(
    settings: &MotionClampingSettings,
    (_, shape, sweep): Part<'_>,
    (_, other_shape, other_sweep): Part<'_>,
    normal: Vector,
    depth: Real,
) -> bool {
    deepens_by(
        (shape, sweep),
        (other_shape, other_sweep),
        normal,
        depth,
        settings.toi.max_iterations(),
    )
}

/// How deep a touching pair (each side's shape on its sweep, `normal` from the first toward
/// the second) must sink along `normal` before a shape can be half way into or through the
/// other: half the smaller extent along `normal` at the start poses, of the shapes with
/// area (a segment or a chain's segment has none, however it lies: what could cross it is
/// the other shape's middle); 0 for two segments.
fn crossing_depth(
    (_, shape, sweep): Part<'_>,
    (_, other_shape, other_sweep): Part<'_>,
    normal: &Vector,
) -> Real {
    let extent = |shape: &Shape, pose: &impact_geometry::Isometry| {
        let (low, high) =
            shape
                .core()
                .iter()
                .fold((Real::INFINITY, Real::NEG_INFINITY), |(low, high), v| {
                    let along = normal.dot(&(pose * v).coords);
                    (low.min(along), high.max(along))
                });
        high - low + 2.0 * shape.radius()
    };
    let flat = |shape: &Shape| matches!(shape, Shape::Segment(_) | Shape::ChainSegment(_));
    let (a, b) = (
        extent(shape, &sweep.pose_at(0.0)),
        extent(other_shape, &other_sweep.pose_at(0.0)),
    );
    let smaller = match (!flat(shape), !flat(other_shape)) {
        (true, true) => a.min(b),
        (true, false) => a,
        (false, true) => b,
        (false, false) => 0.0,
    };
    0.5 * smaller
}

/// Whether the pre-solve hook disables the meeting of the checked body and the other (each
/// its handle, shape and sweep over the step) at `point` with `normal` (from the checked body
/// toward the other), `fraction` of the step of `dt` seconds in: the body is then not clamped
/// there.
pub(super) fn disabled(
    rules: &CollisionRules<'_>,
    bodies: &BodySet,
    ((x, shape_x, sweep), (y, shape_y, other_sweep)): Meeting<'_>,
    (point, normal): (Point, Vector),
    (fraction, dt): (Real, Real),
    settings: &MotionClampingSettings,
) -> bool {
    let side = |handle, shape, sweep: &Sweep| {
        (
            handle,
            shape,
            sweep.pose_at(fraction),
            (sweep.linvel(), sweep.angvel()),
        )
    };
    rules.pre_solve_impact(
        bodies,
        (side(x, shape_x, sweep), side(y, shape_y, other_sweep)),
        (point, normal),
        settings.toi.target_separation(),
        fraction * dt,
    ) == ContactResponse::Disable
}

/// Whether a pair within the target separation at the start (`normal`, the hit's, from
/// `body` toward `other`), whose manifold the contact solver had for the whole step, ends
/// it with its targets still apart on the same side: the solver held the contact.
///
/// Apart means overlapping by no more than a soft contact gives under a load (the
/// tolerance, or a quarter of the smaller body's bounding radius against a body with area),
/// the normal not turned round. Then the pair is the solver's business: clamping at 0 would
/// freeze a body leaving or sliding along a wall, or landing on it with long steps under
/// strong gravity. Otherwise the body stays at the start: once it overlaps deeply the soft
/// solver can push it through a thin wall.
fn held_apart(
    settings: &MotionClampingSettings,
    normal: Vector,
    (body, shape, sweep): Part<'_>,
    (other, other_shape, other_sweep): Part<'_>,
) -> bool {
    let apart = distance(
        shape,
        &sweep.pose_at(1.0),
        other_shape,
        &other_sweep.pose_at(1.0),
    );
    let slack = if matches!(other_shape, Shape::Segment(_)) {
        // Through a segment, any overlap is half way: its side is the test.
        settings.toi.tolerance()
    } else {
        settings.toi.tolerance().max(
            0.25 * body
                .bounding_radius(&body.local_center())
                .min(other.bounding_radius(&other.local_center())),
        )
    };
    apart.distance >= -slack
        && !turned_round(
            apart.normal,
            normal,
            (body, &sweep.pose_at(0.0), &sweep.pose_at(1.0)),
            (other, &other_sweep.pose_at(0.0), &other_sweep.pose_at(1.0)),
        )
}
