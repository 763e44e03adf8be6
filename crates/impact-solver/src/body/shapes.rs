//! A body's shapes: reading them, per-shape materials and filters, adding and removing shapes,
//! and the boxes and radii of the whole body.

use super::{RigidBody, inverse_mass};
use crate::body_def::RigidBodyDef;
use crate::error::{SolverError, non_negative};
use crate::filter::CollisionFilter;
use crate::material::Material;
use crate::shape_def::{BodyShape, ShapeDef};
use impact_geometry::{Aabb, BoxTree, Isometry, MassProperties, Point, Real, Shape, Sweep};

/// The shapes `def` describes, validated: its own fields first, then `def.shapes`.
pub(crate) fn body_shapes(def: &RigidBodyDef) -> Result<Vec<BodyShape>, SolverError> {
    let first = ShapeDef {
        shape: def.shape.clone(),
        density: def.density,
        friction: def.friction,
        restitution: def.restitution,
        filter: def.filter,
        sensor: def.sensor,
        contact_force_threshold: def.contact_force_threshold,
    };
    let mut shapes = Vec::with_capacity(1 + def.shapes.len());
    shapes.push(BodyShape::new(first, "body")?);
    for (i, more) in def.shapes.iter().enumerate() {
        shapes.push(BodyShape::new(more.clone(), &format!("body.shapes[{i}]"))?);
    }
    Ok(shapes)
}

/// A body of more shapes than this keeps a [`BoxTree`] over their boxes.
pub(crate) const TREE_FROM: usize = 8;

/// The tree over the boxes of `shapes` in the body frame, if there are more than
/// [`TREE_FROM`] of them (else empty).
pub(crate) fn shape_tree(shapes: &[BodyShape]) -> BoxTree {
    if shapes.len() <= TREE_FROM {
        return BoxTree::default();
    }
    let boxes: Vec<Aabb> = shapes
        .iter()
        .map(|s| s.shape().aabb(&Isometry::identity()))
        .collect();
    BoxTree::new(&boxes)
}

/// The mass properties of a body made of `shapes` at their densities.
pub(crate) fn combined_mass(shapes: &[BodyShape]) -> MassProperties {
    if let [one] = shapes {
        return one.mass_properties();
    }
    let parts: Vec<MassProperties> = shapes.iter().map(BodyShape::mass_properties).collect();
    MassProperties::combine(&parts)
}

impl RigidBody {
    /// Every shape of the body, in the body frame; never empty. A shape's place in this list
    /// is the `index` of its [`ShapeId`](crate::ShapeId).
    #[inline]
    pub fn shapes(&self) -> &[BodyShape] {
        &self.shapes
    }

    /// Shape `index` of the body, or its first shape if `index` is past its list: what a
    /// contact, an impact or a hook names a shape by, and so never past the list for a
    /// shape the world gave.
    #[inline]
    pub fn shape_or_first(&self, index: u32) -> &BodyShape {
        self.shapes.get(index as usize).unwrap_or(&self.shapes[0])
    }

    /// Whether the body has exactly one shape.
    #[inline]
    pub fn has_one_shape(&self) -> bool {
        self.shapes.len() == 1
    }

    /// Appends to `out`, in increasing order, the places of the shapes whose boxes may meet
    /// `region` (world) with the body frame at `pose`: every shape whose box there, tight
    /// ([`Shape::aabb`]) or padded for rounding ([`Aabb::still`]), meets `region` is among
    /// them (the tree's boxes are grown by a billionth of the coordinates' size, far beyond
    /// either's rounding), and others may be. A body of more than 8 shapes (static ground of many boxes, a long chain) answers
    /// from a [`BoxTree`] over its shapes' boxes in the body frame, built with the shapes;
    /// a smaller one gives every shape.
    pub fn shapes_near(&self, pose: &Isometry, region: &Aabb, out: &mut Vec<u32>) {
        if self.shape_tree.is_empty() {
            out.extend(0..self.shapes.len() as u32);
        } else {
            self.shape_tree.query(pose, region, out);
        }
    }

    /// The density of the first shape (unused when the mass was set by hand).
    #[inline]
    pub fn density(&self) -> Real {
        self.shapes[0].density()
    }

    /// The material of the first shape; [`BodyShape::material`] gives each shape's.
    #[inline]
    pub fn material(&self) -> Material {
        self.shapes[0].material()
    }

    /// Gives every shape of the body `material`.
    pub fn set_material(&mut self, material: Material) {
        for s in &mut self.shapes {
            s.set_material(material);
        }
    }

    /// Gives shape `index` `material`.
    ///
    /// # Errors
    /// [`SolverError::UnknownShape`] naming `shape` if the body has no shape `index`.
    pub fn set_shape_material(
        &mut self,
        index: u32,
        material: Material,
    ) -> Result<(), SolverError> {
        self.shape_mut(index)?.set_material(material);
        Ok(())
    }

    /// The collision filter of the first shape; [`BodyShape::filter`] gives each shape's.
    #[inline]
    pub fn filter(&self) -> CollisionFilter {
        self.shapes[0].filter()
    }

    /// Gives every shape of the body `filter`. A world filters pairs afresh at every step:
    /// from its next step a pair the new filter keeps apart has no contact, and its
    /// warm-starting impulses are dropped with the step's contacts.
    pub fn set_filter(&mut self, filter: CollisionFilter) {
        for s in &mut self.shapes {
            s.set_filter(filter);
        }
    }

    /// Gives shape `index` `filter` (see [`RigidBody::set_filter`]).
    ///
    /// # Errors
    /// [`SolverError::UnknownShape`] naming `shape` if the body has no shape `index`.
    pub fn set_shape_filter(
        &mut self,
        index: u32,
        filter: CollisionFilter,
    ) -> Result<(), SolverError> {
        self.shape_mut(index)?.set_filter(filter);
        Ok(())
    }

    /// Whether the first shape is a sensor: it reports overlaps and never collides.
    #[inline]
    pub fn is_sensor(&self) -> bool {
        self.shapes[0].is_sensor()
    }

    /// Whether any shape of the body is a sensor.
    pub fn has_sensor(&self) -> bool {
        self.shapes.iter().any(BodyShape::is_sensor)
    }

    /// The smallest contact force threshold (newtons) of the body's shapes, if any has one
    /// (see [`RigidBodyDef::contact_force_threshold`]).
    pub fn contact_force_threshold(&self) -> Option<Real> {
        self.shapes
            .iter()
            .filter_map(BodyShape::contact_force_threshold)
            .reduce(Real::min)
    }

    /// Gives every shape of the body the contact force threshold `threshold` (`None`: none).
    ///
    /// # Errors
    /// [`SolverError`] naming `body.contact_force_threshold` if it is not finite or negative;
    /// the body is unchanged.
    pub fn set_contact_force_threshold(
        &mut self,
        threshold: Option<Real>,
    ) -> Result<(), SolverError> {
        if let Some(t) = threshold {
            non_negative("body.contact_force_threshold", t)?;
        }
        for s in &mut self.shapes {
            s.set_contact_force_threshold(threshold);
        }
        Ok(())
    }

    /// Adds a shape at the end of the body's list and returns its index. Mass, centre of mass
    /// and inertia are recomputed from all the shapes unless they were set by hand; the pose
    /// of the body frame and the velocity of the centre of mass are kept (a body whose centre
    /// of mass moves keeps the velocity its new centre had).
    ///
    /// # Errors
    /// [`SolverError`] naming `shape.density`, `shape.friction`, `shape.restitution` or
    /// `shape.contact_force_threshold`; the body is unchanged.
    pub fn add_shape(&mut self, def: ShapeDef) -> Result<u32, SolverError> {
        let shape = BodyShape::new(def, "shape")?;
        let mut shapes = self.shapes.clone();
        shapes.push(shape);
        self.replace_shapes(shapes)?;
        Ok(self.shapes.len() as u32 - 1)
    }

    /// Removes shape `index` and returns it; later shapes move down one place. Mass
    /// properties are recomputed as by [`RigidBody::add_shape`].
    ///
    /// # Errors
    /// [`SolverError::UnknownShape`] naming `shape` if there is no shape `index` or it is the
    /// body's only shape (a body has at least one), and [`SolverError::MasslessDynamic`] if
    /// a dynamic body would be left without mass; the body is unchanged.
    pub fn remove_shape(&mut self, index: u32) -> Result<BodyShape, SolverError> {
        let i = index as usize;
        if i >= self.shapes.len() || self.shapes.len() == 1 {
            return Err(SolverError::UnknownShape {
                field: "shape".to_owned(),
                index,
                count: self.shapes.len() as u32,
            });
        }
        let mut shapes = self.shapes.clone();
        let removed = shapes.remove(i);
        self.replace_shapes(shapes)?;
        Ok(removed)
    }

    fn shape_mut(&mut self, index: u32) -> Result<&mut BodyShape, SolverError> {
        let count = self.shapes.len() as u32;
        self.shapes
            .get_mut(index as usize)
            .ok_or_else(|| SolverError::UnknownShape {
                field: "shape".to_owned(),
                index,
                count,
            })
    }

    /// Installs `shapes` and the mass they give, or changes nothing on error.
    fn replace_shapes(&mut self, shapes: Vec<BodyShape>) -> Result<(), SolverError> {
        let props = self.mass_override.unwrap_or_else(|| combined_mass(&shapes));
        let (inv_mass, inv_inertia) = inverse_mass(self.body_type, &props)?;
        // The centre of mass keeps its world velocity only if it stays put; a moved centre
        // takes the velocity of the body point it moved to.
        let new_center = self.pose * props.local_center;
        self.linvel = self.velocity_at_point(&new_center);
        self.shape_tree = shape_tree(&shapes);
        self.shapes = shapes;
        self.mass = props.mass;
        self.inertia = props.inertia;
        self.local_center = props.local_center;
        self.center_radius = largest_radius(&self.shapes, &self.local_center);
        self.inv_mass = inv_mass;
        self.inv_inertia = inv_inertia;
        Ok(())
    }

    /// The tight box of every shape at the body's pose.
    pub fn aabb(&self) -> Aabb {
        self.aabb_at(&self.pose)
    }

    /// The tight box of every shape with the body frame at `pose`.
    pub fn aabb_at(&self, pose: &Isometry) -> Aabb {
        self.union(|s| s.aabb(pose))
    }

    /// A box that holds every shape over the whole of `sweep` ([`Aabb::swept`] of each).
    pub fn swept_aabb(&self, sweep: &Sweep) -> Aabb {
        self.union(|s| Aabb::swept(s, sweep))
    }

    /// The largest distance from `center` (body frame) to a point of any shape: see
    /// [`Shape::bounding_radius`]. About the centre of mass, the steppers' usual question,
    /// it is kept from when the shapes were set (a body of thousands of shapes is asked it
    /// for every pair a step looks at).
    pub fn bounding_radius(&self, center: &Point) -> Real {
        if *center == self.local_center {
            self.center_radius
        } else {
            largest_radius(&self.shapes, center)
        }
    }

    /// The largest distance from `center` (body frame) to a point of any shape's core: see
    /// [`Shape::core_bounding_radius`].
    pub fn core_bounding_radius(&self, center: &Point) -> Real {
        self.largest(|s| s.core_bounding_radius(center))
    }

    fn union(&self, f: impl Fn(&Shape) -> Aabb) -> Aabb {
        let mut shapes = self.shapes.iter();
        let first = f(shapes.next().expect("a body has a shape").shape());
        shapes.fold(first, |acc, s| acc.merged(&f(s.shape())))
    }

    fn largest(&self, f: impl Fn(&Shape) -> Real) -> Real {
        largest_of(&self.shapes, f)
    }
}

/// The largest distance from `center` (body frame) to a point of any of `shapes`.
pub(crate) fn largest_radius(shapes: &[BodyShape], center: &Point) -> Real {
    largest_of(shapes, |s| s.bounding_radius(center))
}

/// The largest `f` over `shapes` (the first's where none is larger).
fn largest_of(shapes: &[BodyShape], f: impl Fn(&Shape) -> Real) -> Real {
    let mut shapes = shapes.iter();
    let first = f(shapes.next().expect("a body has a shape").shape());
    shapes.fold(first, |acc, s| {
        let r = f(s.shape());
        if r > acc { r } else { acc }
    })
}
