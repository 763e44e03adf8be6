//! Changing a body's shapes in a world: adding and removing a shape, and a shape's filter.
//!
//! A body keeps its handle. Its broadphase proxies are made anew
//! ([`ShapeProxies::detach`](crate::ShapeProxies) then `attach`: the first shape's proxy is
//! still the body's slot, the further shapes' indices are reserved again), because the list
//! of shapes is what the proxies are named after. Its warm-starting impulses and the sides of
//! its segment contacts are forgotten: its mass and centre of mass changed, so last step's
//! impulses belonged to another body. The pairs of a removed shape end, with end events at
//! the world's time in the next step's events; the shapes after it move down one place in
//! the body's list, and so do their names in the pairs touching and overlapping sensors, so
//! that they neither end nor begin again.

use super::{World, shape_boxes};
use crate::contact_events::{ContactEndEvent, touch_key};
use crate::error::WorldError;
use crate::sensing::SensorEvent;
use crate::stepper::Stepper;
use impact_broadphase::Broadphase;
use impact_geometry::Aabb;
use impact_solver::{BodyHandle, BodyShape, CollisionFilter, RigidBody, ShapeDef, ShapeId};

impl<B: Broadphase, S: Stepper> World<B, S> {
    /// Adds a shape to the body `handle` (at the end of its list) and returns its
    /// [`ShapeId`]. The body's mass, centre of mass and inertia are recomputed from all its
    /// shapes unless they were set by hand (see [`RigidBody::add_shape`]); it keeps its
    /// handle, pose and velocities, and is seen by queries and the next step at once. Its
    /// warm-starting impulses and remembered segment sides are forgotten.
    ///
    /// ```
    /// use impact_geometry::{Circle, ConvexPolygon, Point, Vector};
    /// use impact_solver::{RigidBodyDef, ShapeDef, ShapeId};
    /// use impact_stepper::{World, WorldSettings};
    ///
    /// let mut world: World = World::new(WorldSettings::with_gravity(Vector::zeros()))?;
    /// let body = world.create_body(RigidBodyDef::new(Circle::new(0.5)?.into()))?;
    /// let arm = ConvexPolygon::new(&[
    ///     Point::new(0.5, -0.1), Point::new(2.0, -0.1), Point::new(2.0, 0.1), Point::new(0.5, 0.1),
    /// ])?;
    /// let id = world.add_shape(body, ShapeDef::new(arm.into()).density(2.0))?;
    /// assert_eq!(id, ShapeId { body, index: 1 });
    /// assert_eq!(world.body(body).unwrap().shapes().len(), 2);
    /// // A bad shape is refused by its field, and nothing changes.
    /// let bad = ShapeDef::new(Circle::new(1.0)?.into()).friction(-1.0);
    /// let err = world.add_shape(body, bad).unwrap_err();
    /// assert!(err.to_string().starts_with("shape.friction"), "{err}");
    /// assert_eq!(world.body(body).unwrap().shapes().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `handle`; the shape's validation error
    /// ([`WorldError::Solver`] naming `shape.density`, `shape.friction`,
    /// `shape.restitution` or `shape.contact_force_threshold`); [`WorldError::NotFinite`]
    /// naming `shape.aabb.*` if its box at the body's pose overflows; in a periodic domain
    /// [`WorldError::OutOfRange`] naming `body.aabb.width` or `.height` if the body would be
    /// wider or taller than half of it. The world is unchanged.
    pub fn add_shape(&mut self, handle: BodyHandle, def: ShapeDef) -> Result<ShapeId, WorldError> {
        let mut body = self.try_body(handle)?.clone();
        let index = body.add_shape(def)?;
        let boxes = shape_boxes(&body, "shape")?;
        self.settings.domain.check_fits(&body.aabb(), "body.aabb")?;
        self.install_shapes(handle, body, &boxes);
        Ok(ShapeId {
            body: handle,
            index,
        })
    }

    /// Removes the shape `shape` from its body and returns it; the shapes after it move down
    /// one place (their [`ShapeId`]s' indices drop by one). The body's mass properties are
    /// recomputed as by [`RigidBody::remove_shape`]. The pairs the shape touched and the
    /// sensors it overlapped (or, a sensor, the shapes in it) end: their end events, at the
    /// world's time, come with the next step's events; the pairs of the shapes that moved
    /// down go on under their new names. The body's warm-starting impulses and remembered
    /// segment sides are forgotten.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `shape.body`; [`WorldError::Solver`] with
    /// [`SolverError::UnknownShape`](impact_solver::SolverError::UnknownShape) naming `shape`
    /// if the body has no shape `shape.index` or it is the body's only shape, or
    /// [`SolverError::MasslessDynamic`](impact_solver::SolverError::MasslessDynamic) if a
    /// dynamic body would be left without mass. The world is unchanged.
    pub fn remove_shape(&mut self, shape: ShapeId) -> Result<BodyShape, WorldError> {
        let mut body = self.body_of_shape(shape)?.clone();
        let removed = body.remove_shape(shape.index)?;
        // The remaining shapes' boxes are those they had: finite, and within the domain.
        let boxes = shape_boxes(&body, "body")?;
        self.end_pairs_of_shape(shape);
        self.install_shapes(shape.body, body, &boxes);
        Ok(removed)
    }

    /// Sets the collision filter of one shape (see [`CollisionFilter`]), as
    /// [`World::set_filter`] does for every shape of a body: from the next step a pair the
    /// filter now keeps apart has no contact, impact or event (an overlap of a sensor ends),
    /// and its warm-starting impulses are dropped with the step's contacts.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] naming `shape.body`; [`WorldError::Solver`] with
    /// [`SolverError::UnknownShape`](impact_solver::SolverError::UnknownShape) naming `shape`
    /// if the body has no shape `shape.index`. The world is unchanged.
    pub fn set_shape_filter(
        &mut self,
        shape: ShapeId,
        filter: CollisionFilter,
    ) -> Result<(), WorldError> {
        self.body_of_shape(shape)?;
        let body = self
            .bodies
            .get_mut(shape.body)
            .expect("the body was just found");
        body.set_shape_filter(shape.index, filter)?;
        self.rules_stale = true;
        self.wake(shape.body)?;
        self.wake_touching(shape.body);
        Ok(())
    }

    /// The body of `shape`, or [`WorldError::UnknownBody`] naming `shape.body`.
    fn body_of_shape(&self, shape: ShapeId) -> Result<&RigidBody, WorldError> {
        self.bodies.get(shape.body).ok_or(WorldError::UnknownBody {
            field: "shape.body".to_owned(),
            handle: shape.body,
        })
    }

    /// Puts `body` (the body of `handle` with its shapes changed, checked) in place of the
    /// one there, its proxies made anew with `boxes` (one per shape, in order).
    fn install_shapes(&mut self, handle: BodyHandle, body: RigidBody, boxes: &[Aabb]) {
        // A body whose shapes change wakes, with what it touches.
        self.wake(handle).ok();
        self.wake_touching(handle);
        for proxy in self.shape_proxies.detach(&mut self.bodies, handle) {
            let removed = self.broadphase.remove(proxy);
            debug_assert!(removed.is_ok(), "every shape has a proxy");
        }
        *self
            .bodies
            .get_mut(handle)
            .expect("the caller checked the handle") = body;
        let proxies = self
            .shape_proxies
            .attach(&mut self.bodies, handle, boxes.len());
        for (&proxy, aabb) in proxies.iter().zip(boxes) {
            // A proxy of a free or reserved index is free in the broadphase, and the boxes
            // are finite: the insertion cannot fail.
            let inserted = self.broadphase.insert(proxy, *aabb);
            debug_assert!(inserted.is_ok(), "a free proxy and a finite box");
        }
        self.rules_stale = true;
        self.forget_contacts(handle);
        self.bodies_moved();
        self.reorient_touching(handle);
    }

    /// Puts each touching pair of `handle`'s shapes back in the order a step finds it (the
    /// shape of the smaller proxy first), now that its further shapes have new proxies, and
    /// the list back in [`touch_key`] order: a pair that goes on touching is then the same
    /// pair at the next step, not one that ended and one that began.
    fn reorient_touching(&mut self, handle: BodyHandle) {
        let proxies = &self.shape_proxies;
        let proxy = |id: ShapeId| proxies.proxy_of(id).map_or(u32::MAX, |p| p.0);
        let touching = &mut self.tracking.touching;
        for (a, b) in touching.iter_mut() {
            if (a.body == handle || b.body == handle) && proxy(*a) > proxy(*b) {
                core::mem::swap(a, b);
            }
        }
        if !touching.is_sorted_by_key(|&p| touch_key(p)) {
            touching.sort_by_key(|&p| touch_key(p));
        }
    }

    /// Ends the touching pairs and sensor overlaps of `shape` (just removed from its body),
    /// with end events in the next step's events at the world's time, and renames the pairs
    /// of the shapes of its body after it (one place down).
    fn end_pairs_of_shape(&mut self, shape: ShapeId) {
        let time = self.time;
        let tracking = &mut self.tracking;
        let later = |id: &mut ShapeId| {
            if id.body == shape.body && id.index > shape.index {
                id.index -= 1;
            }
        };
        tracking.touching.retain_mut(|(a, b)| {
            if *a == shape || *b == shape {
                tracking
                    .pending_contact
                    .push(ContactEndEvent { a: *a, b: *b, time });
                return false;
            }
            later(a);
            later(b);
            true
        });
        tracking.overlaps.retain_mut(|(s, v)| {
            if *s == shape || *v == shape {
                tracking.pending_sensor.push(SensorEvent {
                    sensor: *s,
                    visitor: *v,
                    time,
                    fraction: 0.0,
                });
                return false;
            }
            later(s);
            later(v);
            true
        });
    }
}
