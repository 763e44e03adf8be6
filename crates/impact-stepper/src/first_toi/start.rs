//! The start of a step of [`FirstTimeOfImpact`](super::FirstTimeOfImpact): what is decided
//! once, before the event loop.
//!
//! Which bodies are *checked* (fast CCD bodies, planned as impacts) and which contacts stay
//! with the contact solver: a checked body's pairs that are apart at the start are the event
//! loop's, every other pair (resting, slow, touching) the solver's, which is what keeps stacks
//! steady. Touching pairs that close fast are impacts at the start, resolved before the
//! solver's step, one after the other, so a struck line of touching discs passes the blow
//! along. After the solver's step, the pairs it held whose targets did not close in stay
//! its own, and the net under them stops a pair the soft contacts pushed through each other,
//! which no time of impact can see.

use super::FirstTimeOfImpactSettings;
use super::state::{Run, Scratch, is_live, reset};
use crate::events::{HookRequests, Impact};
use crate::motion::{closes_in, fast_ccd_body, move_pair_as_one, never_collides, pushed_through};
use crate::report::FirstToiReport;
use crate::stepper::StepContext;
use crate::touching::{self, Closing, ClosingScratch};
use impact_broadphase::Broadphase;
use impact_geometry::Real;
use impact_solver::{BodyHandle, BodySet, ContactPair, RigidBody};

/// Resolves the pairs of `ctx.contacts` with a dynamic CCD body that touch and close fast at
/// the start of the step (see [`touching`]), records their events and runs the hook at each
/// (the bodies are where they start the step, and what the hook asks is kept in `requests`
/// for the rest of the step). Returns how many impacts it resolved.
fn start_impacts<B: Broadphase>(
    settings: &FirstTimeOfImpactSettings,
    ctx: &mut StepContext<'_, B>,
    scratch: &mut ClosingScratch,
    requests: &mut Vec<HookRequests>,
) -> usize {
    let closing = Closing {
        contacts: ctx.contacts,
        reach: settings.toi.target_separation() + settings.toi.tolerance(),
        speeds: touching::impact_speeds(
            settings.impact.restitution_threshold,
            settings.toi.tolerance(),
            ctx.gravity.norm(),
            ctx.dt,
        ),
        settings: settings.impact,
        most: settings.max_events,
        most_per_pair: settings.max_pair_events,
    };
    let live = |r: &[HookRequests], h: BodyHandle| is_live(r, h.index as usize);
    let dt = ctx.dt;
    let mut touched = Vec::new();
    let (time, events, hook) = (ctx.time, &mut *ctx.events, &mut *ctx.hook);
    touching::resolve_closing(
        ctx.bodies,
        &closing,
        scratch,
        requests,
        |bodies, c, requests| {
            live(requests, c.a)
                && live(requests, c.b)
                && match (bodies.get(c.a), bodies.get(c.b)) {
                    (Some(a), Some(b)) => touching::may_resolve(a, b, dt, closing.reach),
                    _ => false,
                }
        },
        |bodies, c, impulse, requests| {
            let event = touching::start_event(c, impulse, time);
            events.push(event);
            touched.clear();
            hook.on_impact(&mut Impact {
                event: &event,
                bodies,
                motions: &[],
                at: 0.0,
                requests,
                touched: &mut touched,
            });
            // Velocities the hook set hold from the start of the step, as every velocity
            // does until the step's solver.
            for h in &touched {
                if let Some(r) = requests.get_mut(h.index as usize) {
                    r.velocity_set = false;
                }
            }
        },
    )
}

impl Scratch {
    /// The step's start poses and checked bodies, the impacts of touching pairs at the start
    /// (their events recorded, the hook run), and the contacts left to the solver in
    /// `solver_contacts`. Returns whether the world has a dynamic CCD body at all.
    pub(super) fn split_contacts<B: Broadphase>(
        &mut self,
        settings: &FirstTimeOfImpactSettings,
        ctx: &mut StepContext<'_, B>,
        report: &mut FirstToiReport,
    ) -> bool {
        let (dt, slots, g) = (ctx.dt, ctx.proxies.len(), ctx.gravity.norm());
        reset(&mut self.start, slots, None);
        reset(&mut self.checked, slots, false);
        let mut any_ccd = false;
        for (handle, body) in ctx.bodies.iter_awake() {
            let slot = handle.index as usize;
            self.start[slot] = Some(*body.pose());
            // A sensor never collides: not checked, and no reason for the event loop.
            if body.is_dynamic() && body.ccd() && !never_collides(body) {
                any_ccd = true;
                if fast_ccd_body(settings.threshold_radii_per_step, body, g, dt) {
                    self.checked[slot] = true;
                    report.checked_bodies += 1;
                }
            }
        }
        let contact_distance = settings.toi.target_separation() + settings.toi.tolerance();
        reset(&mut self.requests, slots, HookRequests::default());
        report.events += start_impacts(settings, ctx, &mut self.closing, &mut self.requests);
        self.note_joints(ctx.bodies, ctx.joints, slots);
        self.solver_contacts.clear();
        // The pairs of bodies of several shapes with a contact within the contact distance:
        // the solver keeps every contact of such a pair (a disc rolling over a chain's
        // concave joint meets the next segment through the solver's speculative contact, as
        // under `Discrete`, not as an impact that kicks it off), and the plans ask only the
        // shape pairs without one (see `Run::asks`).
        self.touching_pairs.clear();
        for c in ctx.contacts {
            if c.manifold.min_separation() <= contact_distance && several_shapes(ctx.bodies, c) {
                self.touching_pairs.push(slot_pair(c));
            }
        }
        self.touching_pairs.sort_unstable();
        for c in ctx.contacts {
            if !(is_live(&self.requests, c.a.index as usize)
                && is_live(&self.requests, c.b.index as usize))
            {
                // A body the hook removed or disabled at an impact at the start.
                continue;
            }
            let apart = c.manifold.min_separation() > contact_distance;
            let checked = self.checked[c.a.index as usize] || self.checked[c.b.index as usize];
            let touching = || self.touching_pairs.binary_search(&slot_pair(c)).is_ok();
            if checked && apart && !touching() {
                report.event_pairs += 1;
            } else {
                self.solver_contacts.push(*c);
            }
        }
        any_ccd
    }

    /// The pairs the solver held that stay its own: all but those whose targets close in
    /// past a slack. `bodies` are at their targets.
    pub(super) fn hold_pairs(&mut self, bodies: &BodySet, tolerance: Real) {
        // A pair the solver held is its business, unless its targets close in past a slack
        // (see `closes_in`): the soft contact did not hold, and its meeting is planned like
        // any other pair's. In the rain of 10,000 discs two discs sliding side by side on a
        // segment, hammered from above by impacts the solver does not see, had targets 7 cm
        // into each other.
        let start = &self.start;
        let several = |h| {
            bodies
                .get(h)
                .is_some_and(|b: &RigidBody| !b.has_one_shape())
        };
        self.held.rebuild_where(
            &self.solver_contacts,
            |c| !closes_in(bodies, start, c, tolerance),
            |c| several(c.a) || several(c.b),
        );
        self.by_slots.rebuild(&self.solver_contacts);
    }
}

/// The slots of the bodies of `c`, smaller first.
fn slot_pair(c: &ContactPair) -> (u32, u32) {
    let (a, b) = (c.a.index, c.b.index);
    if a < b { (a, b) } else { (b, a) }
}

/// Whether a body of `c` has several shapes.
fn several_shapes(bodies: &BodySet, c: &ContactPair) -> bool {
    let several = |h| {
        bodies
            .get(h)
            .is_some_and(|b: &RigidBody| !b.has_one_shape())
    };
    several(c.a) || several(c.b)
}

impl Run<'_> {
    /// Whether the pair of `c`, a contact the solver held, is two dynamic bodies whose
    /// meeting the start planning asks along their courses (see [`Run::plan_pair`]): one of
    /// them is checked, and the solver does not hold the pair or one of them swings. Such a
    /// pair cannot pass through itself unseen: a time of impact from where the two touch,
    /// or [`Run::overlapping`] from where they overlap, covers the very courses the
    /// pushed-through net judges, and resolves their meeting there.
    ///
    /// The net stops a pair where it was and leaves it moving as one. With a static body,
    /// moving as one is standing still, and the next step starts afresh. Two dynamic bodies
    /// keep their common motion, and a pair already moving as one, turning by more than a
    /// quarter turn a step, is found pushed through again by the solver's next targets (the
    /// closest-point normal turns round with the pair, and the straight courses from the
    /// start poses to the targets of two bodies on such arcs put them into each other, or
    /// one centre through the other body as seen from it), stopped again, and so at every
    /// step: in the tumbling rain at 1,000 bodies, pairs of sticks, capsules and squares
    /// turning together at 140 to 510 rad/s hung in mid-air with the bodies that landed on
    /// them (seeds 5 and 10 of 1-12: 8 and 4 bodies).
    fn followed_from_start(&self, c: &ContactPair) -> bool {
        let (a, b) = (c.a.index as usize, c.b.index as usize);
        let s = &*self.s;
        s.hot[a].dynamic
            && s.hot[b].dynamic
            && s.motions[a].is_some()
            && s.motions[b].is_some()
            && (s.checked[a] || s.checked[b])
            && (!s.held.holds(c.a.index, c.b.index) || s.swings[a] || s.swings[b])
    }

    /// The net under the contact solver's pairs (see [`pushed_through`]): a pair it pushed
    /// through each other stops where it was at the start and leaves moving as one body.
    pub(super) fn stop_pushed_through(&mut self) {
        let contact_distance =
            self.settings.toi.target_separation() + self.settings.toi.tolerance();
        // A contact the solver held must not end on the far side: soft contacts can push a
        // body through a zero-thickness segment under a load. A pair whose closest-point
        // normal turned round over the step is stopped where it was at the start, unless the
        // event loop follows it along its courses from the start of the step.
        for i in 0..self.s.solver_contacts.len() {
            let c = self.s.solver_contacts[i];
            if self.followed_from_start(&c) {
                continue;
            }
            if pushed_through(self.bodies, &self.s.start, &c, contact_distance, self.dt) {
                self.report.crossings_stopped += 1;
                self.stop(c.a.index as usize, 0.0);
                self.stop(c.b.index as usize, 0.0);
                // ...and leaves moving as one body, or it hangs there step after step.
                move_pair_as_one(self.bodies, &self.s.start, &c);
            }
        }
    }

    /// The bodies the hook removed at an impact at the start: in `removed`, and on a course
    /// that stays put.
    pub(super) fn keep_removed(&mut self, removed: &mut Vec<BodyHandle>) {
        for slot in 0..self.proxies.len() {
            if self.s.requests[slot].removed
                && let Some(handle) = self.proxies[slot]
            {
                removed.push(handle);
                self.report.removed += 1;
                self.set_course(slot, 0.0, true);
            }
        }
    }
}
