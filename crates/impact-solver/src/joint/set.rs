//! [`JointSet`]: the joints of a simulation, named by generational [`JointHandle`]s, each a
//! [`Joint`] (its definition, its accumulated impulses and its last reaction).

use super::def::{JointDef, JointKind};
use crate::body_set::{BodyHandle, BodySet};
use crate::error::SolverError;
use core::sync::atomic::{AtomicU64, Ordering};
use impact_geometry::{Point, Real, Vector};

/// Names one joint of a [`JointSet`]: a slot index plus the generation of that slot, stale
/// once the joint is removed (as [`BodyHandle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointHandle {
    /// The slot in the set.
    pub index: u32,
    /// How many joints occupied the slot before this one.
    pub generation: u32,
}

/// A joint's accumulated impulses (newton seconds, or newton metre seconds for angular
/// rows) over the last substep it was solved in: what warm starts the next step, and what
/// its reaction is read from. Each kind uses the fields named below; the others stay 0, and
/// so do those of a row the joint does not solve (a motor, limit or spring switched off, a
/// spring of 0 Hz).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointImpulses {
    /// The point rows (revolute, weld, motor, mouse): world frame, on body B.
    pub linear: Vector,
    /// The angle row (weld, prismatic, motor; a mouse joint's damping of B's turning).
    pub angular: Real,
    /// The user spring's row (revolute, prismatic, distance, wheel), along the joint's
    /// axis or length for the linear ones, positive pushing B along it.
    pub spring: Real,
    /// The motor's row (revolute and wheel: angular; prismatic and distance: along the axis
    /// or length).
    pub motor: Real,
    /// The lower limit's row (zero or more).
    pub lower: Real,
    /// The upper limit's row (zero or more).
    pub upper: Real,
    /// The rigid length row of a distance joint without a spring, positive pushing the
    /// anchors apart.
    pub axial: Real,
    /// The perpendicular row of a prismatic or wheel joint: along A's axis turned a quarter
    /// turn counter-clockwise, on body B.
    pub perpendicular: Real,
}

/// One joint: what it was made from (with its axis normalised), its impulses and its
/// reaction over the last step.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Joint {
    def: JointDef,
    impulses: JointImpulses,
    force: Vector,
    torque: Real,
}

impl Joint {
    /// The definition, axis normalised.
    #[inline]
    pub fn def(&self) -> &JointDef {
        &self.def
    }

    /// Body A.
    #[inline]
    pub fn body_a(&self) -> BodyHandle {
        self.def.body_a
    }

    /// Body B.
    #[inline]
    pub fn body_b(&self) -> BodyHandle {
        self.def.body_b
    }

    /// The constraint and its settings.
    #[inline]
    pub fn kind(&self) -> &JointKind {
        &self.def.kind
    }

    /// Whether the joint acts.
    #[inline]
    pub fn is_enabled(&self) -> bool {
        self.def.enabled
    }

    /// Whether the bodies' shapes may collide (see [`JointDef::collide_connected`]).
    #[inline]
    pub fn collide_connected(&self) -> bool {
        self.def.collide_connected
    }

    /// The accumulated impulses (see [`JointImpulses`]).
    #[inline]
    pub fn impulses(&self) -> &JointImpulses {
        &self.impulses
    }

    /// The force the joint applied to body B over the last substep of the last step
    /// (newtons, world frame): its linear impulses over the substep length. Zero until a
    /// step ran, and for a disabled joint.
    #[inline]
    pub fn reaction_force(&self) -> Vector {
        self.force
    }

    /// The torque the joint applied to body B about its anchor over the last substep of the
    /// last step (newton metres): its angular impulses over the substep length.
    #[inline]
    pub fn reaction_torque(&self) -> Real {
        self.torque
    }

    /// Whether the last step's reaction exceeds a break threshold of the definition.
    pub fn exceeds_break_threshold(&self) -> bool {
        self.force.norm() > self.def.break_force || self.torque.abs() > self.def.break_torque
    }

    /// Turns the joint on or off; turning it off clears its impulses.
    pub fn set_enabled(&mut self, enabled: bool) {
        if !enabled {
            self.clear_impulses();
        }
        self.def.enabled = enabled;
    }

    /// Replaces the constraint (limits, motor, spring, target, or another kind altogether),
    /// keeping the bodies, anchors and flags. A prismatic or wheel axis is in A's frame.
    /// Impulses are kept when the kind stays the same, cleared otherwise.
    ///
    /// # Errors
    /// As [`JointKind::validate`]; the joint is unchanged.
    pub fn set_kind(&mut self, kind: JointKind) -> Result<(), SolverError> {
        kind.validate()?;
        let mut kind = kind;
        normalise_axis(&mut kind);
        if core::mem::discriminant(&kind) != core::mem::discriminant(&self.def.kind) {
            self.clear_impulses();
        }
        self.def.kind = kind;
        Ok(())
    }

    /// Changes the constraint through `change`, then validates it: the usual way to set a
    /// motor's speed or a mouse joint's target at run time.
    ///
    /// ```
    /// # use impact_geometry::{Circle, Point};
    /// # use impact_solver::*;
    /// # let mut bodies = BodySet::new();
    /// # let a = bodies.insert(RigidBodyDef::fixed(Circle::new(0.1)?.into()))?;
    /// # let b = bodies.insert(RigidBodyDef::new(Circle::new(0.1)?.into()))?;
    /// # let mut joints = JointSet::new();
    /// let hinge = joints.insert(&bodies, JointDef::new(a, b, RevoluteJoint::default()
    ///     .motor(1.0, 10.0).into()))?;
    /// joints.get_mut(hinge).unwrap().modify(|kind| {
    ///     if let JointKind::Revolute(r) = kind {
    ///         r.motor_speed = -2.0;
    ///     }
    /// })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`JointKind::validate`] on the changed kind; the joint is unchanged then.
    pub fn modify(&mut self, change: impl FnOnce(&mut JointKind)) -> Result<(), SolverError> {
        let mut kind = self.def.kind.clone();
        change(&mut kind);
        self.set_kind(kind)
    }

    /// Moves a mouse joint's target (world frame).
    ///
    /// # Errors
    /// [`SolverError::NotFinite`] naming `joint.mouse.target`, or
    /// [`SolverError::WrongJointKind`] if the joint is not a mouse joint.
    pub fn set_mouse_target(&mut self, target: Point) -> Result<(), SolverError> {
        crate::error::finite_point("joint.mouse.target", &target)?;
        match &mut self.def.kind {
            JointKind::Mouse(m) => {
                m.target = target;
                Ok(())
            }
            other => Err(SolverError::WrongJointKind {
                field: "joint.mouse.target".to_owned(),
                kind: other.name(),
            }),
        }
    }

    /// Clears the accumulated impulses (the next step starts cold).
    pub fn clear_impulses(&mut self) {
        self.impulses = JointImpulses::default();
    }

    /// What the solver stored after a step.
    pub(crate) fn store(&mut self, impulses: JointImpulses, force: Vector, torque: Real) {
        self.impulses = impulses;
        self.force = force;
        self.torque = torque;
    }
}

/// A prismatic or wheel joint's axis as a unit vector.
fn normalise_axis(kind: &mut JointKind) {
    if let Some(axis) = kind.axis_mut() {
        *axis = axis.normalize();
    }
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Slot {
    generation: u32,
    joint: Option<Joint>,
}

/// The joints of a simulation, named by [`JointHandle`], visited in slot order (which
/// depends only on the sequence of inserts and removes, freed slots reused last-freed
/// first): the order the solver takes them in, so two runs making the same calls solve the
/// same way.
///
/// With the `serde` feature the set serializes with its free list and generations, so handles
/// stay valid across a snapshot; deserialization checks the free list against the slots and
/// every joint's fields (all but whether its bodies exist, which the body set answers:
/// [`JointDef::validate`]), and refuses a bad snapshot with the field named.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "JointSetDef", into = "JointSetDef")
)]
pub struct JointSet {
    slots: Vec<Slot>,
    free: Vec<u32>,
    len: usize,
    /// See [`JointSet::stamp`]; 0 for a set never changed (which is empty).
    stamp: u64,
}

/// Equal when the joints, their slots and the free list are; the stamps are not compared.
impl PartialEq for JointSet {
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots && self.free == other.free && self.len == other.len
    }
}

/// A stamp no set has had yet in this process (see [`JointSet::stamp`]).
fn fresh_stamp() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a step changes of a [`JointSet`], saved to undo a failed step
/// ([`JointSet::save_state`]).
#[derive(Debug, Clone, Default)]
pub struct JointSetState(Vec<(JointImpulses, Vector, Real)>);

impl JointSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Validates `def` against `bodies` and inserts the joint (its axis normalised).
    ///
    /// # Errors
    /// As [`JointDef::validate`]; the set is unchanged.
    pub fn insert(&mut self, bodies: &BodySet, def: JointDef) -> Result<JointHandle, SolverError> {
        def.validate(bodies)?;
        let mut def = def;
        normalise_axis(&mut def.kind);
        self.stamp = fresh_stamp();
        let joint = Some(Joint {
            def,
            impulses: JointImpulses::default(),
            force: Vector::zeros(),
            torque: 0.0,
        });
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.joint = joint;
            return Ok(JointHandle {
                index,
                generation: slot.generation,
            });
        }
        let index = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.slots.push(Slot {
            generation: 0,
            joint,
        });
        Ok(JointHandle {
            index,
            generation: 0,
        })
    }

    /// Removes and returns the joint, or `None` if the handle is stale or foreign.
    pub fn remove(&mut self, handle: JointHandle) -> Option<Joint> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        if slot.generation != handle.generation {
            return None;
        }
        let joint = slot.joint.take()?;
        self.stamp = fresh_stamp();
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.index);
        self.len -= 1;
        Some(joint)
    }

    /// The joint, or `None` if the handle is stale or foreign.
    pub fn get(&self, handle: JointHandle) -> Option<&Joint> {
        let slot = self.slots.get(handle.index as usize)?;
        (slot.generation == handle.generation)
            .then_some(slot.joint.as_ref())
            .flatten()
    }

    /// The joint, to change its settings, or `None` if the handle is stale or foreign.
    /// Takes a new [`JointSet::stamp`] whenever it hands a joint out.
    pub fn get_mut(&mut self, handle: JointHandle) -> Option<&mut Joint> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        let joint = (slot.generation == handle.generation)
            .then_some(slot.joint.as_mut())
            .flatten()?;
        self.stamp = fresh_stamp();
        Some(joint)
    }

    /// A number for the joints' definitions as they are: a set takes a stamp no set in this
    /// process has had whenever a joint is inserted or removed, handed out to be changed
    /// ([`JointSet::get_mut`]) or restored from a snapshot, and keeps it otherwise (a clone
    /// keeps its original's until either changes; the solver's impulses and
    /// [`JointSet::restore_state`] leave it). Two sets with the same stamp hold the same
    /// definitions in the same slots, so whatever a caller derived from them (a joint graph,
    /// which bodies joints hold) still holds while the stamp does. 0 for a set never changed,
    /// which is empty.
    #[inline]
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// The joint, or [`SolverError::UnknownJoint`] naming `field`.
    ///
    /// # Errors
    /// [`SolverError::UnknownJoint`] if the handle is stale or foreign.
    pub fn try_get(&self, handle: JointHandle, field: &str) -> Result<&Joint, SolverError> {
        self.get(handle).ok_or_else(|| SolverError::UnknownJoint {
            field: field.to_owned(),
            handle,
        })
    }

    /// Whether the handle names a joint of the set.
    pub fn contains(&self, handle: JointHandle) -> bool {
        self.get(handle).is_some()
    }

    /// How many joints the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set holds no joint.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every joint with its handle, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (JointHandle, &Joint)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, slot)| {
            slot.joint.as_ref().map(|j| {
                (
                    JointHandle {
                        index: i as u32,
                        generation: slot.generation,
                    },
                    j,
                )
            })
        })
    }

    /// The joints attached to `body`, in slot order.
    pub fn joints_of(&self, body: BodyHandle) -> Vec<JointHandle> {
        self.iter()
            .filter(|(_, j)| j.body_a() == body || j.body_b() == body)
            .map(|(h, _)| h)
            .collect()
    }

    /// Saves what a step changes of the joints (their impulses and reactions) into `state`,
    /// for a caller that must undo a failed step with [`JointSet::restore_state`].
    pub fn save_state(&self, state: &mut JointSetState) {
        state.0.clear();
        state
            .0
            .extend(self.slots().map(|(_, j)| (j.impulses, j.force, j.torque)));
    }

    /// Puts back what [`JointSet::save_state`] saved; the set must have the same joints as
    /// then (else nothing is done and `false` returned).
    pub fn restore_state(&mut self, state: &JointSetState) -> bool {
        if state.0.len() != self.len {
            return false;
        }
        let joints = self.slots.iter_mut().filter_map(|s| s.joint.as_mut());
        for (joint, &(impulses, force, torque)) in joints.zip(&state.0) {
            joint.store(impulses, force, torque);
        }
        true
    }

    /// The joint in slot `index`, for the solver.
    pub(crate) fn slot(&self, index: u32) -> Option<&Joint> {
        self.slots.get(index as usize)?.joint.as_ref()
    }

    /// The joint in slot `index`, mutable, for the solver to store into.
    pub(crate) fn slot_mut(&mut self, index: u32) -> Option<&mut Joint> {
        self.slots.get_mut(index as usize)?.joint.as_mut()
    }

    /// Every joint with its slot index, in slot order, mutable, for the solver to store
    /// into.
    pub(crate) fn slots_mut(&mut self) -> impl Iterator<Item = (u32, &mut Joint)> + '_ {
        self.slots
            .iter_mut()
            .enumerate()
            .filter_map(|(i, s)| s.joint.as_mut().map(|j| (i as u32, j)))
    }

    /// Every joint with its slot index, in slot order.
    pub(crate) fn slots(&self) -> impl Iterator<Item = (u32, &Joint)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.joint.as_ref().map(|j| (i as u32, j)))
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct JointSetDef {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

#[cfg(feature = "serde")]
impl Joint {
    /// What a restored joint must satisfy: a valid definition (bodies aside, see
    /// [`JointDef::validate`]) with a unit axis, and finite impulses and reaction.
    fn check(&self, slot: usize) -> Result<(), SolverError> {
        use crate::error::{finite, finite_vector};
        self.def.validate_fields()?;
        if let Some(axis) = self.def.kind.axis()
            && (axis.norm() - 1.0).abs() > 1e-9
        {
            return Err(SolverError::OutOfRange {
                field: format!("joint.{}.local_axis_a.length", self.def.kind.name()),
                value: axis.norm(),
                expected: "1 (a stored axis is a unit vector)",
            });
        }
        let field = |name: &str| format!("joints.slots[{slot}].{name}");
        let i = &self.impulses;
        finite_vector(&field("impulses.linear"), &i.linear)?;
        for (name, value) in [
            ("impulses.angular", i.angular),
            ("impulses.spring", i.spring),
            ("impulses.motor", i.motor),
            ("impulses.lower", i.lower),
            ("impulses.upper", i.upper),
            ("impulses.axial", i.axial),
            ("impulses.perpendicular", i.perpendicular),
            ("torque", self.torque),
        ] {
            finite(&field(name), value)?;
        }
        finite_vector(&field("force"), &self.force)
    }
}

/// A set restored from a snapshot: its free list must name every empty slot once and no
/// other, and every joint must be valid (as [`Joint::check`]), or the snapshot is refused
/// with the field named (`joints.free[i]`, `joints.slots[i]`, `joint.*`).
#[cfg(feature = "serde")]
impl TryFrom<JointSetDef> for JointSet {
    type Error = SolverError;
    fn try_from(d: JointSetDef) -> Result<Self, SolverError> {
        let mut listed = vec![false; d.slots.len()];
        for (i, &index) in d.free.iter().enumerate() {
            let empty = d
                .slots
                .get(index as usize)
                .is_some_and(|s| s.joint.is_none());
            if !empty || listed[index as usize] {
                return Err(SolverError::OutOfRange {
                    field: format!("joints.free[{i}]"),
                    value: Real::from(index),
                    expected: "the index of an empty slot, listed once",
                });
            }
            listed[index as usize] = true;
        }
        let mut len = 0;
        for (i, slot) in d.slots.iter().enumerate() {
            let Some(joint) = &slot.joint else {
                if !listed[i] {
                    return Err(SolverError::OutOfRange {
                        field: format!("joints.slots[{i}]"),
                        value: i as Real,
                        expected: "occupied, or listed in the free list",
                    });
                }
                continue;
            };
            joint.check(i)?;
            len += 1;
        }
        Ok(Self {
            slots: d.slots,
            free: d.free,
            len,
            stamp: fresh_stamp(),
        })
    }
}

#[cfg(feature = "serde")]
impl From<JointSet> for JointSetDef {
    fn from(s: JointSet) -> Self {
        Self {
            slots: s.slots,
            free: s.free,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RevoluteJoint, RigidBodyDef};
    use impact_geometry::Circle;

    #[test]
    fn a_stamp_changes_with_the_definitions_and_with_nothing_else() {
        let mut bodies = BodySet::new();
        let [a, b] = [(); 2].map(|()| {
            let def = RigidBodyDef::new(Circle::new(0.5).expect("radius").into());
            bodies.insert(def).expect("a valid body")
        });
        let mut joints = JointSet::new();
        assert_eq!(joints.stamp(), 0, "a set never changed");
        let def = JointDef::new(a, b, RevoluteJoint::default().into());
        let h = joints.insert(&bodies, def.clone()).expect("a valid joint");
        let inserted = joints.stamp();
        assert_ne!(inserted, 0);
        // Reading, saving and restoring the impulses, and the solver's stores, keep it.
        let mut state = JointSetState::default();
        joints.save_state(&mut state);
        let _ = (joints.get(h), joints.iter().count());
        assert!(joints.restore_state(&state));
        if let Some(j) = joints.slot_mut(h.index) {
            j.store(JointImpulses::default(), Vector::new(1.0, 0.0), 2.0);
        }
        assert_eq!(joints.stamp(), inserted);
        // A clone keeps it until either changes; the two then differ.
        let mut copy = joints.clone();
        assert_eq!(copy.stamp(), inserted);
        copy.get_mut(h).expect("live").set_enabled(false);
        joints.get_mut(h).expect("live").set_enabled(true);
        assert_ne!(copy.stamp(), inserted);
        assert_ne!(joints.stamp(), inserted);
        assert_ne!(copy.stamp(), joints.stamp());
        // A failed insert keeps it; a removal and a stale handle's look-up do as they say.
        let before = joints.stamp();
        let bad = JointDef::new(a, a, RevoluteJoint::default().into());
        assert!(joints.insert(&bodies, bad).is_err());
        assert_eq!(joints.stamp(), before);
        joints.remove(h).expect("live");
        let removed = joints.stamp();
        assert_ne!(removed, before);
        assert!(joints.get_mut(h).is_none());
        assert_eq!(joints.stamp(), removed);
        // Equality is that of the joints, not of the stamps.
        let (mut x, mut y) = (JointSet::new(), JointSet::new());
        x.insert(&bodies, def.clone()).expect("a valid joint");
        y.insert(&bodies, def).expect("a valid joint");
        assert_ne!(x.stamp(), y.stamp());
        assert_eq!(x, y);
    }
}
