//! # impact-solver
//!
//! Rigid bodies and how they respond to contact, for
//! [impact](https://example.invalid/impact), a 2D physics stack built around continuous
//! collision detection:
//!
//! - [`RigidBody`] (dynamic, static or kinematic) created from a [`RigidBodyDef`] with
//!   defaults and validation, named by a generational [`BodyHandle`] in a [`BodySet`] that
//!   iterates in a deterministic order; [`Material`] with documented combine rules;
//! - semi-implicit Euler integration: [`integrate_velocities`], [`integrate_positions`];
//! - the sequential-impulse [`ContactSolver`] over narrowphase manifolds, warm started from a
//!   [`ContactCache`] that lives from step to step, configured by [`SolverSettings`], its
//!   arrays kept from step to step in a [`SolverScratch`] the caller owns;
//! - joints ([`JointSet`] of [`JointDef`]s: revolute, prismatic, weld, distance and rope,
//!   wheel, motor, mouse), solved as rows of the same soft step before the contacts
//!   ([`ContactSolver::prepare_joints`]);
//! - [`resolve_impact`], the exact single-impact resolver the first-time-of-impact stepper
//!   calls at the moment two bodies touch.
//! - [`GroupImpactSolver`], the same for a body held by joints: the velocity problem of the
//!   whole jointed group at that instant (contact and rigid joint rows, a direct solve), and
//!   the group's rigid motion over the rest of a step ([`GroupImpactSolver::advance`]).
//!
//! ```
//! use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Vector};
//! use impact_geometry::tolerances::SPECULATIVE_DISTANCE;
//! use impact_narrowphase::contact_manifold;
//! use impact_solver::{
//!     BodySet, ContactCache, ContactPair, ImpactSettings, RigidBodyDef, SolverSettings,
//!     resolve_impact, solve_step,
//! };
//!
//! let mut bodies = BodySet::new();
//!
//! // Two equal discs, perfectly elastic and frictionless, head on: they swap velocities.
//! let disc = |x: f64, vx: f64| {
//!     RigidBodyDef::new(Circle::new(0.5).unwrap().into())
//!         .pose(Isometry::translation(x, 0.0))
//!         .linvel(Vector::new(vx, 0.0))
//!         .restitution(1.0)
//!         .friction(0.0)
//! };
//! let a = bodies.insert(disc(-0.5, 2.0))?;
//! let b = bodies.insert(disc(0.5, -1.0))?;
//! let impulse = resolve_impact(&mut bodies, a, b, Point::origin(), Vector::x(),
//!                              &ImpactSettings::default())?;
//! assert!(impulse.normal > 0.0);
//! assert!((bodies.get(a).unwrap().linvel().x + 1.0).abs() < 1e-12);
//! assert!((bodies.get(b).unwrap().linvel().x - 2.0).abs() < 1e-12);
//!
//! // A box resting on the ground stays put: one step of the contact solver.
//! let ground = bodies.insert(RigidBodyDef::fixed(ConvexPolygon::rectangle(10.0, 0.5)?.into())
//!     .pose(Isometry::translation(0.0, -10.5)))?;
//! let crate_ = bodies.insert(RigidBodyDef::new(ConvexPolygon::rectangle(0.5, 0.5)?.into())
//!     .pose(Isometry::translation(0.0, -9.5)))?;
//! let mut cache = ContactCache::new();
//! let gravity = Vector::new(0.0, -10.0);
//! for _ in 0..60 {
//!     let (g, c) = (bodies.get(ground).unwrap(), bodies.get(crate_).unwrap());
//!     let manifold = contact_manifold(g.shape(), g.pose(), c.shape(), c.pose(),
//!                                     SPECULATIVE_DISTANCE);
//!     let pairs = [ContactPair::new(ground, crate_, manifold)];
//!     solve_step(&mut bodies, &pairs, &mut cache, gravity, &SolverSettings::default(),
//!                1.0 / 60.0)?;
//! }
//! let y = bodies.get(crate_).unwrap().pose().translation.y;
//! assert!((y + 9.5).abs() < 0.01, "the box sank to {y}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A pendulum: a disc on a revolute joint, stepped by the solver with no contacts; the
//! joint's reaction on the disc is read after each step.
//!
//! ```
//! use impact_geometry::{Circle, Isometry, Point, Vector};
//! use impact_solver::{
//!     BodySet, ContactCache, ContactSolver, JointDef, JointSet, RevoluteJoint, RigidBodyDef,
//!     SolverSettings,
//! };
//!
//! let mut bodies = BodySet::new();
//! let pivot = bodies.insert(RigidBodyDef::fixed(Circle::new(0.05)?.into()))?;
//! let bob = bodies.insert(RigidBodyDef::new(Circle::new(0.1)?.into())
//!     .pose(Isometry::translation(1.0, 0.0)))?;
//! let mut joints = JointSet::new();
//! let hinge = joints.insert(&bodies, JointDef::at_world_anchor(
//!     &bodies, pivot, bob, Point::origin(), RevoluteJoint::default().into())?)?;
//! let (cache, settings) = (ContactCache::new(), SolverSettings::default());
//! for _ in 0..30 {
//!     let mut solver = ContactSolver::new(&bodies, &[], &cache, &settings, 1.0 / 60.0)?;
//!     solver.prepare_joints(&bodies, &joints)?;
//!     solver.step(&mut bodies, Vector::new(0.0, -10.0))?;
//!     solver.store_joint_impulses(&mut joints);
//! }
//! // Half a second later the bob has swung down, still a metre from the pivot.
//! let bob = bodies.get(bob).unwrap();
//! assert!(bob.pose().translation.y < -0.5);
//! assert!((bob.pose().translation.vector.norm() - 1.0).abs() < 1e-3);
//! assert!(joints.get(hinge).unwrap().reaction_force().y > 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Position correction: the soft step
//!
//! Overlap must be removed without turning into bounce. Baumgarte stabilisation (feeding
//! `beta * overlap / dt` into the velocity target) does remove it, but the push-out velocity
//! stays in the bodies: stacks jitter and deep overlaps explode. The two established cures
//! are split impulses or non-linear Gauss-Seidel (NGS) position iterations, which correct
//! positions apart from velocities, and Box2D v3's *soft step*. impact uses the soft step,
//! because:
//!
//! - it runs entirely on velocities, so the stepper keeps sole control over how positions
//!   advance: [`ContactSolver`] exposes the stages (solve, then the stepper moves bodies,
//!   then relax), and `MotionClamping` or `FirstTimeOfImpact` slot their own motion in
//!   between, which an NGS pass working on poses after the step would fight;
//! - the contact is a spring-damper (frequency [`SolverSettings::contact_hertz`], damping
//!   ratio [`SolverSettings::contact_damping_ratio`]) solved implicitly, so its stiffness is
//!   stated in physical units and stays stable at any mass ratio, and the push-out speed is
//!   capped ([`SolverSettings::max_push_out_velocity`]);
//! - the *relax* iterations run after positions were integrated, without the bias: they take
//!   back the push-out velocity, so position correction does not turn into kinetic energy
//!   (a point the push carried past touching keeps what it holds; see the relax pass); and
//!   restitution is applied once,
//!   at the end, by Gauss-Seidel sweeps over the points that pushed, from approach velocities
//!   all read off the same free flight, with each island's energy bounded by what its
//!   bodies came with (see [`ContactSolver::apply_restitution`] for why each of these),
//!   and friction solved again where the bodies bounced (see *Friction at a bounce* below);
//! - substeps (4 by default) give stiff stacks at the cost of an iteration each, which
//!   Catto's solver comparisons (Solver2D, 2024) show beats more iterations of a rigid PGS
//!   with NGS on large pyramids and mass ratios; there is no position-iteration setting.
//!
//! Speculative contacts (separation `s > 0`) let the bodies close the gap at `s / h` within a
//! substep and no faster, with no impulse until they touch; restitution skips points that
//! never pushed, and is computed from the free-flight velocity at the substep the contact
//! first pushed, so early contact creation neither adds nor removes bounce.
//!
//! Each point's separation is measured along the normal it was prepared with, between the
//! core points behind it (a disc's centre, a polygon's surface) turned with their bodies, so
//! a rolling disc keeps its contact. That measure is never above the true distance under
//! translation, and where the closest features change within a step (a body passing a
//! corner) it falls below it: a point's impulse therefore rises only while its bodies are
//! within the linear slop of each other, or come within it over the coming substep (a
//! certificate kept every substep, then the exact distance, then a time of impact). Bodies
//! whose courses stay farther apart get nothing from each other.
//!
//! With restitution 1, no friction and `restitution_threshold` 0, a crowded scene keeps
//! its kinetic energy step by step (25 discs in a walled box: within 1e-11 over 5 s; the
//! tests in `impact-stepper`'s `elastic_energy.rs`, and random crowds moving up to two
//! thirds of a radius per step, over every step that starts with the bodies apart). Not
//! always: a step that starts with an overlap (soft contacts let a crowd sink in, about one
//! random crowd in 300 of those tests) can add up to a few percent, since the soft push-out
//! is not wholly taken back (in fast crowds, a radius per step, up to 3%), and where contacts persist
//! (restitution below 1, or friction) a single step can add a few percent, though no run
//! measured ended above its start: the warm start and the soft push-out are not exact
//! projections. Exact elastic events are the first-time-of-impact stepper's job.
//!
//! # Friction at a bounce
//!
//! One rule in the contact solver and in [`resolve_impact`]: Coulomb's bound on the
//! **whole normal impulse, restitution included**, clamped where the slip stops. The
//! resolver applies the normal impulse `j` that sends the bodies apart at `e` times their
//! approach speed first, then the friction impulse that stops the slip, clamped to
//! `mu * j`. The solver's soft solve clamps friction by the normal impulse that stops the
//! approach, before any bounce; so once the restitution impulses are final, friction at
//! every point that bounced is solved again, the point's total friction over the step
//! clamped to `mu (N + R)`, with `N` the normal impulse the solve applied over the *whole
//! step* (every substep's, not the last substep's accumulated impulse, which a landing disc
//! has already given back by then) and `R` the restitution impulse. A point that only
//! passed a bounce on (a disc pressed against a wall by one bouncing off it) keeps the
//! solve's friction.
//!
//! A disc with its rotation locked, `mu` 0.6 and restitution 0.9, landing on a static floor
//! at (10, -10) in zero gravity, so leaves at (0, 9) from both (`0.6 * 19 = 11.4` is more
//! than the 10 that stops its slip); bounding by the solve's 10 alone would leave it at
//! (4, 9). One contact point between bodies with their rotation locked, touching at the
//! start of the step in zero gravity, gives the resolver's velocities to 1e-9 at the
//! default settings and at any number of substeps and iterations with at least one relax
//! iteration (without one, the soft push-out is not taken back and the normal velocities
//! already differ); the tests in `tests/friction_at_a_bounce.rs`. A uniform disc, free to
//! turn, leaves the same floor at (6.67, 9) rolling at -13.3 rad/s from both.
//!
//! The re-solve only removes slip, so it never adds kinetic energy; it runs only for
//! islands with a bounce, and scenes without restitution take none of it (not even the
//! count of the solve's impulses over the step, which only a solver with restitution
//! keeps): they step bit for bit as before. Its impulses are reported apart
//! ([`ConstraintPoint::restitution_tangent_impulse`]) and not cached for warm starting.
//!
//! # The stage loop and its rows
//!
//! [`ContactSolver`] is a stage loop in the manner of Box2D v3's `solver.c`: it holds the
//! bodies of the step in compact arrays and calls every kind of constraint row at each
//! stage (warm start, solve, relax, restitution, store). There are two kinds: the joints,
//! which each stage visits first, and the contacts, solved last so that they have the final
//! say on overlap (the module `solver::rows` states what a kind implements). A step without
//! joints runs the contacts' arithmetic unchanged.
//!
//! # Determinism
//!
//! Constraints are solved in the order of the pairs the caller gives; the warm-starting
//! cache is a sorted `Vec` searched by binary search, and the solver's body table is dense by
//! slot. Nothing iterates a hash map, so the same calls give bit-identical states.
//!
//! # One shape per body, and compounds later
//!
//! A body owns exactly one [`Shape`](impact_geometry::Shape) in its body frame. Compounds
//! will fit without changing the solver: a body will hold a list of (local pose, shape,
//! density, material) colliders, its mass properties will be the sum of theirs moved to the
//! common centre of mass (parallel axis theorem), and the narrowphase will produce one
//! manifold per collider pair, each becoming a [`ContactPair`] of the same two bodies with
//! the collider index folded into the cache key. Everything here works on the body's total
//! mass, inertia and centre of mass already.
//!
//! # Features
//!
//! `serde` derives `Serialize` and `Deserialize` for definitions, bodies, the body set,
//! handles, materials, settings, the cache, and joints and the joint set; deserializing runs
//! the same validation as the constructors, and restored bodies and joints are
//! bit-identical (a restored simulation continues bit for bit).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod body;
mod body_def;
mod body_set;
mod contact;
mod error;
mod filter;
mod group_impact;
mod impact;
mod integrate;
mod joint;
mod material;
mod settings;
mod shape_def;
mod solver;

pub use body::RigidBody;
pub use body_def::{BodyType, RigidBodyDef};
pub use body_set::{BodyHandle, BodySet};
pub use contact::{
    CacheKey, CachedImpulse, ConstraintPoint, ContactCache, ContactConstraint, ContactPair,
    contact_tangent,
};
pub use error::SolverError;
pub use filter::{CollisionFilter, ShapeId};
pub use group_impact::{
    GroupAdvance, GroupContact, GroupImpactSolver, GroupImpulse, GroupMotion, GroupPoint,
    GroupStep, Held, JointClosure, JointGraph, Touch,
};
pub use impact::{Impulse, resolve_impact, resolve_impact_with};
pub use integrate::{integrate_positions, integrate_velocities};
pub use joint::{
    DistanceJoint, Joint, JointDef, JointHandle, JointImpulses, JointKind, JointPairs,
    JointSeparation, JointSet, JointSetState, MAX_JOINT_MAGNITUDE, MotorJoint, MouseJoint,
    PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
pub use material::{Material, combine_friction, combine_restitution};
pub use settings::{ImpactSettings, MAX_SOLVER_ITERATIONS, SolverSettings};
pub use shape_def::{BodyShape, ShapeDef};
pub use solver::{ContactSolver, SolverScratch, solve_step, solve_step_in};
