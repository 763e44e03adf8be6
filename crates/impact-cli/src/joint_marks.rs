//! How a joint is drawn: [`DrawnJoint`], what a picture needs of a joint (its bodies, its
//! anchors in their frames, and what it looks like), and the marks it makes where its
//! bodies are.
//!
//! Every joint is drawn in [`Colour::JOINT`], over its bodies: a line from each moving
//! body's centre of mass to its anchor (a static body's centre may be far along a wall or
//! the ground, so its line is left out), then the joint's own mark at its anchors: a ring at
//! a revolute joint's, a square at a weld's (turned with body A; either with a line to B's
//! anchor where the joint stretched by a pixel or more), a line between a distance
//! joint's two (dashed for a rope, which may go slack), a tick along a prismatic or wheel
//! joint's axis through A's anchor (with a ring at B's anchor for a wheel), a line between a
//! motor joint's anchors, and a dashed line from a mouse joint's anchor to its target, with
//! a ring there. Marks are sized in pixels, so a joint looks the same at any scale.

use crate::picture::{Colour, Item, Mark};
use impact_geometry::{Circle, ConvexPolygon, Isometry, Point, Real, Shape, Vector};
use impact_solver::JointKind;

/// The radius of a joint's ring (pixels).
const RING: Real = 3.0;
/// Half the side of a weld's square (pixels).
const SQUARE: Real = 3.0;
/// Half the length of a slider's axis tick (pixels).
const TICK: Real = 10.0;
/// The pen of a joint's marks (pixels).
const PEN: Real = 1.5;

/// What a joint's mark is, beyond the lines to its anchors.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Look {
    /// A hinge: a ring at the anchor.
    Pin,
    /// Glued: a square at the anchor.
    Weld,
    /// A line between the anchors, dashed for a rope.
    Link {
        /// Whether it may go slack.
        rope: bool,
    },
    /// A tick along the axis (in A's frame, unit) through A's anchor, and for a wheel a
    /// ring at B's.
    Slider {
        /// The axis in A's frame.
        axis: Vector,
        /// Whether it is a wheel joint.
        wheel: bool,
    },
    /// A line between the anchors.
    Drive,
    /// A dashed line from B's anchor to the target (world), and a ring there.
    Mouse {
        /// The target.
        target: Point,
    },
}

/// A joint as a picture draws it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DrawnJoint {
    /// The joint's slot in its world (its index in the scene's `joints`), to find it when it
    /// breaks.
    pub id: u32,
    /// The slots of bodies A and B.
    pub bodies: [u32; 2],
    /// The anchors in A's and B's frames.
    pub local: [Point; 2],
    /// Its mark.
    pub look: Look,
}

impl DrawnJoint {
    /// The joint `id` between the bodies of slots `bodies`, anchored at `local` (body
    /// frames), of `kind`.
    pub fn new(id: u32, bodies: [u32; 2], local: [Point; 2], kind: &JointKind) -> Self {
        let look = match kind {
            JointKind::Revolute(_) => Look::Pin,
            JointKind::Weld(_) => Look::Weld,
            // A rope: a spring of no force held only by its limits.
            JointKind::Distance(d) => Look::Link {
                rope: d.enable_spring && d.spring_hertz == 0.0 && d.enable_limit,
            },
            JointKind::Prismatic(p) => Look::Slider {
                axis: unit(p.local_axis_a),
                wheel: false,
            },
            JointKind::Wheel(w) => Look::Slider {
                axis: unit(w.local_axis_a),
                wheel: true,
            },
            JointKind::Motor(_) => Look::Drive,
            JointKind::Mouse(m) => Look::Mouse { target: m.target },
        };
        Self {
            id,
            bodies,
            local,
            look,
        }
    }

    /// The joint's marks with its bodies at `ends` (each body's pose, its centre of mass in
    /// the world, and whether it moves), in a picture of `scale` pixels per world unit.
    pub fn items(&self, ends: [(Isometry, Point, bool); 2], scale: Real) -> Vec<Item> {
        let px = |pixels: Real| pixels / scale;
        let anchors = [0, 1].map(|k| ends[k].0 * self.local[k]);
        let mut marks = Vec::new();
        for (k, &(_, centre, moves)) in ends.iter().enumerate() {
            // A mouse joint's body A only names it.
            let named_only = k == 0 && matches!(self.look, Look::Mouse { .. });
            if moves && !named_only {
                marks.push(Mark::Path(vec![centre, anchors[k]]));
            }
        }
        let ring = |at: Point| {
            Circle::new(px(RING))
                .ok()
                .map(|c| Mark::Outline(c.into(), Isometry::translation(at.x, at.y)))
        };
        let between = Mark::Path(anchors.to_vec());
        // A hinge's or a weld's anchors drawn apart, where the joint stretched by a pixel.
        let stretched = (anchors[1] - anchors[0]).norm() * scale >= 1.0;
        match &self.look {
            Look::Pin => {
                marks.extend(ring(anchors[0]));
                if stretched {
                    marks.push(between);
                }
            }
            Look::Weld => {
                let square: Option<Shape> = ConvexPolygon::rectangle(px(SQUARE), px(SQUARE))
                    .ok()
                    .map(Into::into);
                let pose = Isometry::from_parts(anchors[0].into(), ends[0].0.rotation);
                marks.extend(square.map(|s| Mark::Outline(s, pose)));
                if stretched {
                    marks.push(between);
                }
            }
            Look::Link { rope } => {
                marks.push(if *rope {
                    Mark::Dashed(anchors.to_vec())
                } else {
                    between
                });
                marks.extend(ring(anchors[0]));
                marks.extend(ring(anchors[1]));
            }
            Look::Slider { axis, wheel } => {
                let along = ends[0].0.rotation * axis * px(TICK);
                marks.push(Mark::Path(vec![anchors[0] - along, anchors[0] + along]));
                marks.push(between);
                if *wheel {
                    marks.extend(ring(anchors[1]));
                }
            }
            Look::Drive => marks.push(between),
            Look::Mouse { target } => {
                marks.push(Mark::Dashed(vec![anchors[1], *target]));
                marks.extend(ring(*target));
            }
        }
        marks
            .into_iter()
            .map(|mark| Item {
                mark,
                colour: Colour::JOINT,
                width: PEN,
                opacity: 1.0,
            })
            .collect()
    }
}

/// `v` as a unit vector (the world normalises a joint's axis; a scene's may not be one).
fn unit(v: Vector) -> Vector {
    let n = v.norm();
    if n > 0.0 && n.is_finite() { v / n } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_solver::{DistanceJoint, MouseJoint, PrismaticJoint, RevoluteJoint};

    const SCALE: Real = 50.0;

    /// A static body at the origin and a moving one at (2, 0) turned a quarter turn.
    fn ends() -> [(Isometry, Point, bool); 2] {
        let b = Isometry::new(Vector::new(2.0, 0.0), core::f64::consts::FRAC_PI_2);
        [
            (Isometry::identity(), Point::origin(), false),
            (b, Point::new(2.0, 0.0), true),
        ]
    }

    fn near(p: Point, x: Real, y: Real) -> bool {
        (p.x - x).abs() < 1e-12 && (p.y - y).abs() < 1e-12
    }

    #[test]
    fn a_hinge_is_a_ring_at_its_anchor_and_a_line_from_the_moving_body() {
        // Anchored at (1, 0): A's (1, 0), and B's (-1, 0) turned a quarter turn is (0, 1) in
        // B's frame.
        let joint = DrawnJoint::new(
            0,
            [0, 1],
            [Point::new(1.0, 0.0), Point::new(0.0, 1.0)],
            &RevoluteJoint::default().into(),
        );
        let items = joint.items(ends(), SCALE);
        assert!(items.iter().all(|i| i.colour == Colour::JOINT));
        let [line, ring] = &items[..] else {
            panic!("{items:?}")
        };
        let Mark::Path(points) = &line.mark else {
            panic!("{line:?}")
        };
        assert!(near(points[0], 2.0, 0.0) && near(points[1], 1.0, 0.0));
        let Mark::Outline(Shape::Circle(c), pose) = &ring.mark else {
            panic!("{ring:?}")
        };
        assert!((c.radius() * SCALE - RING).abs() < 1e-12);
        assert!(near(pose * c.center(), 1.0, 0.0));
    }

    #[test]
    fn a_rope_is_dashed_and_a_rod_is_not() {
        let local = [Point::new(0.0, 0.0), Point::new(0.0, 0.0)];
        for (kind, dashed) in [
            (DistanceJoint::rope(3.0), true),
            (DistanceJoint::rod(2.0), false),
        ] {
            let joint = DrawnJoint::new(0, [0, 1], local, &kind.into());
            let items = joint.items(ends(), SCALE);
            let link: Vec<&Mark> = items
                .iter()
                .map(|i| &i.mark)
                .filter(|m| match m {
                    Mark::Dashed(p) | Mark::Path(p) => near(p[0], 0.0, 0.0) && near(p[1], 2.0, 0.0),
                    Mark::Outline(..) => false,
                })
                .collect();
            assert_eq!(link.len(), 1, "{items:?}");
            assert_eq!(matches!(link[0], Mark::Dashed(_)), dashed);
        }
    }

    #[test]
    fn a_slider_is_a_tick_along_its_axis_in_the_world() {
        // The axis is A's y; A is not turned, so the tick is vertical through A's anchor.
        let joint = DrawnJoint::new(
            0,
            [0, 1],
            [Point::new(1.0, 0.0), Point::new(0.0, 1.0)],
            &PrismaticJoint::along(Vector::new(0.0, 3.0)).into(),
        );
        let items = joint.items(ends(), SCALE);
        let half = TICK / SCALE;
        assert!(
            items.iter().any(|i| matches!(&i.mark, Mark::Path(p)
                if near(p[0], 1.0, -half) && near(p[1], 1.0, half))),
            "{items:?}"
        );
    }

    #[test]
    fn a_mouse_joint_is_a_dashed_line_to_its_target_and_a_ring_there() {
        let joint = DrawnJoint::new(
            0,
            [0, 1],
            [Point::origin(), Point::origin()],
            &MouseJoint::toward(Point::new(3.0, 4.0), 10.0).into(),
        );
        let items = joint.items(ends(), SCALE);
        // No line from body A, which only names the joint.
        assert!(!items.iter().any(|i| matches!(&i.mark, Mark::Path(p)
            if near(p[0], 0.0, 0.0))));
        assert!(items.iter().any(|i| matches!(&i.mark, Mark::Dashed(p)
            if near(p[0], 2.0, 0.0) && near(p[1], 3.0, 4.0))));
        assert!(
            items
                .iter()
                .any(|i| matches!(&i.mark, Mark::Outline(s, pose)
            if matches!(s, Shape::Circle(_)) && near(pose * Point::origin(), 3.0, 4.0)))
        );
    }
}
