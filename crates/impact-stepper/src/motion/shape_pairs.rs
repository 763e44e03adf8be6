//! The shape pairs of two bodies as the CCD steppers ask them: which pairs of their shapes
//! may collide, and the time of impact of the two bodies (the earliest over those pairs).
//!
//! A body owns one or more shapes, all in its frame, and moves as one: its sweep is about
//! its centre of mass, so every shape of it moves on that sweep, and the time of impact of
//! a shape pair is the narrowphase's own on the two bodies' sweeps (a closed form when
//! neither body turns, conservative advancement when one does). Two bodies meet first where
//! their earliest shape pair meets, so the pair's answer is the minimum over the shape pairs
//! the collision rules admit (each shape has its own filter and sensor flag, named by its
//! own proxy; a sensor never collides). A pair of bodies of one shape each asks the
//! narrowphase once, with neither the rules (the neighbour search asked them of the bodies)
//! nor a box, so its answers are the single-shape answers bit for bit.
//!
//! Shape pairs whose swept boxes stay apart (the first body's padded by the target
//! separation and the tolerance) cannot meet and are not asked: a terrain chain of a hundred
//! segments that moves costs a box per segment and the queries of the few it passes near;
//! one that does not move (static ground, the usual case) boxes only the segments its tree
//! gives near the other body ([`RigidBody::shapes_near`]).

use crate::rules::CollisionRules;
use crate::shape_proxies::ShapeProxies;
use impact_geometry::{Aabb, Real, Shape, Sweep, Vector};
use impact_narrowphase::{Toi, ToiOptions, time_of_impact, time_of_impact_until};
use impact_solver::{BodyHandle, BodySet, Material, RigidBody, ShapeId};

/// One body of a pair query: its handle and the body.
pub(crate) type Member<'a> = (BodyHandle, &'a RigidBody);

/// Which shape pairs of two bodies may collide: the step's rules, asked per shape through
/// the shapes' proxies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShapeRules<'a> {
    /// The step's rules (per proxy).
    pub rules: CollisionRules<'a>,
    /// The proxy of each shape.
    pub proxies: &'a ShapeProxies,
}

impl ShapeRules<'_> {
    /// Whether shape `i` of `x` and shape `j` of `y` may collide: neither is a sensor, their
    /// filters (through their proxies) let them, and so does the pair filter hook, asked
    /// with the body of the smaller slot first.
    pub(crate) fn admits(
        &self,
        bodies: &BodySet,
        x: Member<'_>,
        y: Member<'_>,
        [i, j]: [u32; 2],
    ) -> bool {
        let (Some(sx), Some(sy)) = (x.1.shapes().get(i as usize), y.1.shapes().get(j as usize))
        else {
            return false;
        };
        if sx.is_sensor() || sy.is_sensor() {
            return false;
        }
        if !self.rules.filters_pairs() {
            return true;
        }
        let (ix, iy) = (
            ShapeId {
                body: x.0,
                index: i,
            },
            ShapeId {
                body: y.0,
                index: j,
            },
        );
        if let (Some(px), Some(py)) = (self.proxies.proxy_of(ix), self.proxies.proxy_of(iy))
            && !self.rules.may_collide(px.0, py.0)
        {
            return false;
        }
        let (a, b) = if x.0.index <= y.0.index {
            (ix, iy)
        } else {
            (iy, ix)
        };
        self.rules.allows_shapes(bodies, a, b)
    }

    /// Whether some shape pair of `x` and `y` may collide ([`ShapeRules::admits`]); for two
    /// bodies of one shape each, the rules' answer for their slots
    /// ([`CollisionRules::allows`]), `proxies` naming the body of each slot.
    pub(crate) fn admits_bodies(
        &self,
        bodies: &BodySet,
        proxies: &[Option<BodyHandle>],
        x: Member<'_>,
        y: Member<'_>,
    ) -> bool {
        if x.1.has_one_shape() && y.1.has_one_shape() {
            return self.rules.allows(bodies, proxies, x.0.index, y.0.index);
        }
        let (nx, ny) = (x.1.shapes().len() as u32, y.1.shapes().len() as u32);
        (0..nx).any(|i| (0..ny).any(|j| self.admits(bodies, x, y, [i, j])))
    }
}

/// Whether no shape of `body` ever collides: all are sensors.
pub(crate) fn never_collides(body: &RigidBody) -> bool {
    body.shapes().iter().all(|s| s.is_sensor())
}

/// Calls `each` with every shape pair of `x` on `sweep_x` and `y` on `sweep_y` (`[i, j]`,
/// the shapes' places in their bodies' lists, and the two shapes) that `admit` lets
/// collide and whose swept boxes meet, `x`'s padded by `pad`, in the order of `y`'s
/// shapes, then `x`'s. Two bodies of one shape each: their one pair, neither admitted nor
/// boxed (the callers asked the rules of the bodies).
pub(crate) fn for_each_pair(
    (x, sweep_x): (&RigidBody, &Sweep),
    (y, sweep_y): (&RigidBody, &Sweep),
    pad: Real,
    admit: impl Fn([u32; 2]) -> bool,
    mut each: impl FnMut([u32; 2], &Shape, &Shape),
) {
    if x.has_one_shape() && y.has_one_shape() {
        each([0, 0], x.shape(), y.shape());
        return;
    }
    with_scratch(|scratch| {
        boxes_in(
            (x, sweep_x),
            (y, sweep_y),
            pad,
            admit,
            &mut scratch.boxes,
            each,
        );
    });
}

/// Reused buffers of [`for_each_pair`] and [`earliest_shape_tois`], one set per thread: a
/// step asks these by the hundred thousand, and each would otherwise allocate.
#[derive(Default)]
struct Scratch {
    /// The boxes of [`boxes_in`].
    boxes: Boxes,
    /// The shape pairs of [`earliest_shape_tois`]: bound, place, pair, answer.
    pending: Vec<Pending>,
}

/// The buffers of [`boxes_in`].
#[derive(Default)]
struct Boxes {
    /// The second body's shapes whose boxes are made, with their boxes.
    y: Vec<(usize, Aabb)>,
    /// The first body's shapes whose boxes may meet the second body's, with their boxes.
    near_x: Vec<(usize, Aabb)>,
    /// Shape places from a body's tree.
    places: Vec<u32>,
}

/// A shape pair waiting for its answer in [`earliest_shape_tois`]: its lower bound, its
/// place in [`shape_tois`]'s order, its shapes' places, its answer once asked.
type Pending = (Real, u32, [u32; 2], Option<Toi>);

std::thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's [`Scratch`], or with new buffers if it is in use (a filter
/// hook asking a query of its own).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// [`for_each_pair`] for bodies not both of one shape, with its buffers. Each shape's box is
/// made once: `y`'s, and those of `x`'s shapes that meet the union of `y`'s (a piece against
/// a chain of a hundred segments, either way round). A body that does not move answers from
/// its tree which of its shapes can meet the other's box ([`RigidBody::shapes_near`]), and
/// only those are boxed (a limb against static ground of thousands of squares). A pair is
/// called for exactly when its two boxes meet, in `y`'s order, then `x`'s.
fn boxes_in(
    (x, sweep_x): (&RigidBody, &Sweep),
    (y, sweep_y): (&RigidBody, &Sweep),
    pad: Real,
    admit: impl Fn([u32; 2]) -> bool,
    boxes: &mut Boxes,
    mut each: impl FnMut([u32; 2], &Shape, &Shape),
) {
    let Boxes {
        y: boxes_y,
        near_x,
        places,
    } = boxes;
    let box_of = |body: &RigidBody, sweep: &Sweep, i: u32| {
        let shape = body.shapes()[i as usize].shape();
        (i as usize, swept_box(shape, sweep))
    };
    let padded_x = |i: u32| {
        let (i, b) = box_of(x, sweep_x, i);
        (i, b.inflated(pad))
    };
    boxes_y.clear();
    near_x.clear();
    if is_still(sweep_y) && !is_still(sweep_x) {
        // `y`'s shapes near all of `x`'s boxes.
        near_x.extend((0..x.shapes().len() as u32).map(padded_x));
        let Some(whole_x) = union(near_x) else {
            return;
        };
        shapes_meeting(y, sweep_y, &whole_x, places);
        boxes_y.extend(places.iter().map(|&j| box_of(y, sweep_y, j)));
    } else {
        boxes_y.extend((0..y.shapes().len() as u32).map(|j| box_of(y, sweep_y, j)));
        let Some(whole_y) = union(boxes_y) else {
            return;
        };
        shapes_meeting(x, sweep_x, &whole_y.inflated(pad), places);
        near_x.extend(
            places
                .iter()
                .map(|&i| padded_x(i))
                .filter(|(_, b)| b.intersects(&whole_y)),
        );
    }
    let Some(whole_x) = union(near_x) else {
        return;
    };
    for &(j, box_y) in boxes_y.iter() {
        if !whole_x.intersects(&box_y) {
            continue;
        }
        for &(i, box_x) in near_x.iter() {
            let pair = [i as u32, j as u32];
            if box_x.intersects(&box_y) && admit(pair) {
                each(pair, x.shapes()[i].shape(), y.shapes()[j].shape());
            }
        }
    }
}

/// The union of the boxes of `boxes`, if any.
fn union(boxes: &[(usize, Aabb)]) -> Option<Aabb> {
    boxes
        .iter()
        .map(|&(_, b)| b)
        .reduce(|acc, b| acc.merged(&b))
}

/// Whether `sweep` neither moves nor turns.
#[inline]
fn is_still(sweep: &Sweep) -> bool {
    sweep.angvel() == 0.0 && sweep.linvel() == Vector::zeros()
}

/// The places of `body`'s shapes on `sweep` whose swept boxes may meet `region`, in order,
/// into `out` (emptied first): for a sweep that does not move, those its tree gives
/// ([`RigidBody::shapes_near`], which holds every shape whose [`Aabb::still`] box meets
/// `region`); else every shape.
fn shapes_meeting(body: &RigidBody, sweep: &Sweep, region: &Aabb, out: &mut Vec<u32>) {
    out.clear();
    if is_still(sweep) {
        body.shapes_near(&sweep.start(), region, out);
    } else {
        out.extend(0..body.shapes().len() as u32);
    }
}

/// [`Aabb::swept`] of `shape` on `sweep`, from the one pose of a sweep that does not move
/// ([`Aabb::still`]: the same box to the sign of a zero, which no test of meeting sees).
#[inline]
pub(super) fn swept_box(shape: &Shape, sweep: &Sweep) -> Aabb {
    if is_still(sweep) {
        Aabb::still(shape, &sweep.start())
    } else {
        Aabb::swept(shape, sweep)
    }
}

/// The time of impact of every shape pair [`for_each_pair`] gives (with the pad of
/// `options`: its target separation plus its tolerance), into `out` (emptied first), each
/// with the pair's shape places.
pub(crate) fn shape_tois(
    x: (&RigidBody, &Sweep),
    y: (&RigidBody, &Sweep),
    admit: impl Fn([u32; 2]) -> bool,
    options: &ToiOptions,
    out: &mut Vec<([u32; 2], Toi)>,
) {
    out.clear();
    let pad = options.target_separation() + options.tolerance();
    for_each_pair(x, y, pad, admit, |pair, a, b| {
        out.push((pair, time_of_impact(a, x.1, b, y.1, options)));
    });
}

/// How far past the earliest fraction found so far a shape pair is still asked in full: a
/// caller ranks by a time it computes from the fraction (`t + f * rest`), in which two
/// fractions this near may round to the same time and tie, and a tie goes to the first pair.
const TIE_MARGIN: Real = 1e-9;

/// [`shape_tois`], but only as far as the earliest answer needs: a shape pair whose answer
/// would come after `bound` (a fraction the caller already has: it only wants earlier ones)
/// or after the earliest hit among the pairs asked before it is left out or cut short.
///
/// Branch and bound: the pairs are asked in the order of a lower bound on when they can
/// meet ([`meeting_bound`]), each with the earliest fraction so far (plus [`TIE_MARGIN`]) as
/// its cutoff ([`time_of_impact_until`]), which stops conservative advancement there
/// without changing any step before it. A pair of two turning shapes whose bound is past
/// the cutoff is not asked at all: the advance would open its window at that bound or later
/// and answer [`Toi::Separated`] at once. Every answer in `out` is the unbounded one bit for
/// bit, in the order [`shape_tois`] gives, or [`Toi::Separated`] for a pair cut short past
/// the cutoff; pairs left out would have come after it. The earliest so far is taken from
/// hits after the start and answers that did not converge only: how a caller ranks an
/// overlap or a hit at the start depends on more than the fraction (the contact solver may
/// hold it), so neither cuts.
///
/// For callers whose ranking of a hit after the start and of an answer that did not
/// converge is their fraction, or a time growing with it, and whose hooks cannot set such
/// an answer aside (a pre-solve hook that may disable a hit needs every pair:
/// [`shape_tois`]).
pub(crate) fn earliest_shape_tois(
    x: (&RigidBody, &Sweep),
    y: (&RigidBody, &Sweep),
    admit: impl Fn([u32; 2]) -> bool,
    options: &ToiOptions,
    bound: Real,
    out: &mut Vec<([u32; 2], Toi)>,
) {
    if x.0.has_one_shape() && y.0.has_one_shape() {
        return shape_tois(x, y, admit, options, out);
    }
    out.clear();
    with_scratch(|scratch| {
        let Scratch { boxes, pending } = scratch;
        pending.clear();
        let slack = options.target_separation() + options.tolerance();
        boxes_in(x, y, slack, admit, boxes, |pair, a, b| {
            let lower = meeting_bound((a, x.1), (b, y.1), slack);
            pending.push((lower, pending.len() as u32, pair, None));
        });
        ask_in_order(x, y, options, bound, pending);
        out.extend(
            pending
                .iter()
                .filter_map(|&(_, _, pair, toi)| Some((pair, toi?))),
        );
    });
}

/// The branch and bound of [`earliest_shape_tois`] over `pairs` (each with its bound and
/// place): asked in the order of their bounds, each answer put in its entry, and the entries
/// put back in their places' order.
fn ask_in_order(
    x: (&RigidBody, &Sweep),
    y: (&RigidBody, &Sweep),
    options: &ToiOptions,
    bound: Real,
    pairs: &mut [Pending],
) {
    if pairs.len() > 1 {
        pairs.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
    }
    // Only the advance answers two turning shapes, and its window opens at the bound.
    let both_turn = x.1.rotates() && y.1.rotates();
    let mut best = bound;
    for (lower, _, [i, j], answer) in pairs.iter_mut() {
        let cutoff = best + TIE_MARGIN;
        if both_turn && *lower > cutoff {
            break;
        }
        let (a, b) = (shape_at(x.0, *i), shape_at(y.0, *j));
        let toi = time_of_impact_until(a, x.1, b, y.1, options, cutoff);
        match toi {
            Toi::Hit(hit) if hit.fraction > 0.0 => best = best.min(hit.fraction),
            Toi::NotConverged { safe_fraction } => best = best.min(safe_fraction),
            _ => {}
        }
        *answer = Some(toi);
    }
    if pairs.len() > 1 {
        pairs.sort_unstable_by_key(|p| p.1);
    }
}

/// A lower bound on the fraction at which shape `a` on `sweep_a` and `b` on `sweep_b` can
/// come within `slack` (the target separation plus the tolerance) of each other, and at
/// which conservative advancement opens its window ([`Real::INFINITY`] if never): each
/// shape lies in the disc about its body's centre of mass that reaches its farthest point,
/// which moves on a straight line whatever the body turns, the same disc the advance's
/// window takes; here it is widened by the tolerance and far beyond rounding, so the bound
/// comes no later than the window.
fn meeting_bound(
    (a, sweep_a): (&Shape, &Sweep),
    (b, sweep_b): (&Shape, &Sweep),
    slack: Real,
) -> Real {
    let disc = |shape: &Shape, sweep: &Sweep| {
        let lc = sweep.local_center();
        (
            sweep.start() * lc,
            shape.core_bounding_radius(&lc) + shape.radius(),
        )
    };
    let ((ca, ra), (cb, rb)) = (disc(a, sweep_a), disc(b, sweep_b));
    let p = cb - ca;
    let v = sweep_b.displacement() - sweep_a.displacement();
    let (pp, vv, pv) = (p.norm_squared(), v.norm_squared(), p.dot(&v));
    let reach = ra + rb + slack;
    let reach = reach + BOUND_MARGIN * (reach + pp.sqrt());
    let c = pp - reach * reach;
    if c <= 0.0 {
        return 0.0;
    }
    let discriminant = pv * pv - vv * c;
    if pv >= 0.0 || discriminant < 0.0 || vv == 0.0 {
        return Real::INFINITY;
    }
    // The smaller root of `vv t^2 + 2 pv t + c`, in the form that does not cancel, and a
    // little earlier still.
    (c / (-pv + discriminant.sqrt())) * (1.0 - BOUND_MARGIN)
}

/// How far [`meeting_bound`] widens its discs (relative to their reach and distance) and
/// brings its fraction forward: far beyond the rounding of either, and of the window's own
/// closed form, which widens by less.
const BOUND_MARGIN: Real = 1e-7;

/// The time of impact of `x` on `sweep_x` and `y` on `sweep_y`: the earliest answer over
/// their shape pairs (as [`shape_tois`] gives them, found by [`earliest_shape_tois`]), ranked
/// by [`Toi::safe_fraction`] (an overlap at 0, ties to the first pair), with the places of
/// the pair that gave it; [`Toi::Separated`]
/// and `[0, 0]` when none meets. For two bodies of one shape each, the narrowphase's answer
/// for their shapes.
pub(crate) fn pair_toi(
    x: (&RigidBody, &Sweep),
    y: (&RigidBody, &Sweep),
    admit: impl Fn([u32; 2]) -> bool,
    options: &ToiOptions,
) -> (Toi, [u32; 2]) {
    if x.0.has_one_shape() && y.0.has_one_shape() {
        return (
            time_of_impact(x.0.shape(), x.1, y.0.shape(), y.1, options),
            [0, 0],
        );
    }
    let mut tois = Vec::new();
    earliest_shape_tois(x, y, admit, options, Real::INFINITY, &mut tois);
    earliest(&tois)
}

/// The time of impact of two bodies of any number of shapes, and the shapes that meet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyToi {
    /// The earliest answer over the bodies' shape pairs (see [`body_time_of_impact`]).
    pub toi: Toi,
    /// The places in their bodies' lists of the two shapes that gave `toi`, the first
    /// body's first (`[0, 0]` when no pair meets).
    pub shapes: [u32; 2],
}

/// The time of impact of body `x` on `sweep_x` and body `y` on `sweep_y` (both sweeps about
/// the bodies' centres of mass, as [`RigidBody::sweep`] makes them, over the same interval):
/// the earliest answer over every pair of their shapes that are not sensors, as the CCD
/// steppers ask it. Each shape pair is the narrowphase's
/// [`time_of_impact`] on the two sweeps (the closed form when neither body turns,
/// conservative advancement when one does), ranked by [`Toi::safe_fraction`] (an overlap at
/// the start counts as 0; ties go to the first pair in the order of `y`'s shapes, then
/// `x`'s); a pair whose swept boxes stay farther apart than the target separation plus the
/// tolerance is not asked, since it cannot meet. Two bodies of one shape each get the
/// narrowphase's answer for their shapes bit for bit ([`Toi::Separated`] if one is a
/// sensor).
///
/// The collision filters and hooks of a world are not asked: this is the geometry alone.
pub fn body_time_of_impact(
    x: &RigidBody,
    sweep_x: &Sweep,
    y: &RigidBody,
    sweep_y: &Sweep,
    options: &ToiOptions,
) -> BodyToi {
    let solid = |[i, j]: [u32; 2]| {
        !(x.shapes()[i as usize].is_sensor() || y.shapes()[j as usize].is_sensor())
    };
    if x.has_one_shape() && y.has_one_shape() && !solid([0, 0]) {
        return BodyToi {
            toi: Toi::Separated,
            shapes: [0, 0],
        };
    }
    let (toi, shapes) = pair_toi((x, sweep_x), (y, sweep_y), solid, options);
    BodyToi { toi, shapes }
}

/// The earliest of `tois` (see [`pair_toi`]).
pub(crate) fn earliest(tois: &[([u32; 2], Toi)]) -> (Toi, [u32; 2]) {
    let mut best: Option<(Real, Toi, [u32; 2])> = None;
    for &(pair, toi) in tois {
        if let Some(f) = toi.safe_fraction()
            && best.is_none_or(|(b, _, _)| f < b)
        {
            best = Some((f, toi, pair));
        }
    }
    best.map_or((Toi::Separated, [0, 0]), |(_, toi, pair)| (toi, pair))
}

/// The combined material of shape `i` of the body of `a` and shape `j` of that of `b`
/// (`[i, j]`), if either body has several shapes: the contact's material, as the contact
/// solver combines it per shape pair. `None` for two bodies of one shape each, whose
/// materials the resolver combines itself.
pub(crate) fn shapes_material(
    bodies: &BodySet,
    (a, b): (BodyHandle, BodyHandle),
    [i, j]: [u32; 2],
) -> Option<Material> {
    let (body_a, body_b) = (bodies.get(a)?, bodies.get(b)?);
    if body_a.has_one_shape() && body_b.has_one_shape() {
        return None;
    }
    let (ma, mb) = (
        body_a.shape_or_first(i).material(),
        body_b.shape_or_first(j).material(),
    );
    Material::new(ma.combined_restitution(&mb), ma.combined_friction(&mb)).ok()
}

/// The shape of `body` at place `index`, or its first shape past its list.
#[inline]
pub(crate) fn shape_at(body: &RigidBody, index: u32) -> &Shape {
    body.shape_or_first(index).shape()
}
