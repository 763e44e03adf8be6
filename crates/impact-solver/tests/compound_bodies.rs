//! Bodies of several shapes: mass properties by the parallel-axis theorem against closed
//! forms, per-shape materials and validation, adding and removing shapes.

use impact_geometry::{Capsule, Circle, ConvexPolygon, MassProperties, Point, Real, Shape};
use impact_solver::{BodySet, BodyType, Material, RigidBody, RigidBodyDef, ShapeDef, SolverError};
use proptest::prelude::*;

/// An axis-aligned box from `(x0, y0)` to `(x1, y1)`, in the body frame.
fn rect(x0: Real, y0: Real, x1: Real, y1: Real) -> Shape {
    ConvexPolygon::new(&[
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ])
    .unwrap()
    .into()
}

/// Mass, centroid and inertia about the centroid of a union of disjoint axis-aligned boxes of
/// unit density, from the boxes' closed forms `m (w^2 + h^2) / 12` and the parallel-axis
/// theorem written about the origin: `I_O = sum(I_i + m_i |c_i|^2)`, `I = I_O - m |c|^2`.
fn boxes_closed_form(boxes: &[(Real, Real, Real, Real)]) -> (Real, Point, Real) {
    let (mut m, mut mx, mut my, mut io) = (0.0, 0.0, 0.0, 0.0);
    for &(x0, y0, x1, y1) in boxes {
        let (w, h) = (x1 - x0, y1 - y0);
        let mi = w * h;
        let (cx, cy) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
        m += mi;
        mx += mi * cx;
        my += mi * cy;
        io += mi * (w * w + h * h) / 12.0 + mi * (cx * cx + cy * cy);
    }
    let c = Point::new(mx / m, my / m);
    (m, c, io - m * c.coords.norm_squared())
}

fn relative(a: Real, b: Real) -> Real {
    (a - b).abs() / b.abs().max(Real::MIN_POSITIVE)
}

fn compound(boxes: &[(Real, Real, Real, Real)]) -> RigidBody {
    let (x0, y0, x1, y1) = boxes[0];
    let mut def = RigidBodyDef::new(rect(x0, y0, x1, y1));
    for &(x0, y0, x1, y1) in &boxes[1..] {
        def = def.with_shape(ShapeDef::new(rect(x0, y0, x1, y1)));
    }
    RigidBody::new(def).unwrap()
}

#[test]
fn an_l_shape_has_the_closed_form_mass_properties() {
    let boxes = [(0.0, 0.0, 3.0, 1.0), (0.0, 1.0, 1.0, 3.0)];
    let body = compound(&boxes);
    let (m, c, i) = boxes_closed_form(&boxes);
    assert_eq!(body.shapes().len(), 2);
    assert!(relative(body.mass(), m) < 1e-12);
    assert!((body.local_center() - c).norm() < 1e-12 * c.coords.norm());
    assert!(
        relative(body.inertia(), i) < 1e-12,
        "{} {i}",
        body.inertia()
    );
}

#[test]
fn one_shape_gives_the_shapes_own_numbers_bit_for_bit() {
    for shape in [
        Shape::from(Circle::new(0.7).unwrap()),
        Capsule::new(Point::new(-1.0, 0.2), Point::new(1.5, 0.4), 0.3)
            .unwrap()
            .into(),
        rect(-0.3, 0.1, 2.0, 0.9),
    ] {
        let body = RigidBody::new(RigidBodyDef::new(shape.clone()).density(2.5)).unwrap();
        let props = MassProperties::from_shape(&shape, 2.5).unwrap();
        assert_eq!(body.mass().to_bits(), props.mass.to_bits());
        assert_eq!(body.inertia().to_bits(), props.inertia.to_bits());
        assert_eq!(body.local_center(), props.local_center);
    }
}

/// The exact mass properties of disjoint axis-aligned boxes of unit density whose corners
/// are whole multiples of 1/64, `(x0, y0, x1, y1)` in those units: integer arithmetic, no
/// rounding until the final division. With `D = 12 * 64^4`, `M = sum(W H)` and
/// `S = sum(W H (X0 + X1))` per axis, `I D M = M sum(W H (W^2 + H^2) + 3 W H |X0 + X1|^2)
/// - 3 |S|^2` (the parallel-axis theorem about the origin, then back to the centroid).
fn boxes_exact(boxes: &[(i64, i64, i64, i64)]) -> (Real, Point, Real) {
    let (mut m, mut sx, mut sy, mut sum) = (0i128, 0i128, 0i128, 0i128);
    for &(x0, y0, x1, y1) in boxes {
        let (w, h) = (i128::from(x1 - x0), i128::from(y1 - y0));
        let (ex, ey) = (i128::from(x0 + x1), i128::from(y0 + y1));
        let a = w * h;
        m += a;
        sx += a * ex;
        sy += a * ey;
        sum += a * (w * w + h * h) + 3 * a * (ex * ex + ey * ey);
    }
    let d = 12.0 * 64f64.powi(4);
    let inertia = (m * sum - 3 * (sx * sx + sy * sy)) as Real / (d * m as Real);
    let center = Point::new(
        sx as Real / (128.0 * m as Real),
        sy as Real / (128.0 * m as Real),
    );
    (m as Real / 4096.0, center, inertia)
}

proptest! {
    /// Two to four disjoint boxes in a row, anywhere within 1e3 of the origin: the body's
    /// mass properties equal the exact ones within 1e-12 relative.
    #[test]
    fn boxes_in_a_row_match_the_closed_form(
        x in -64_000i64..64_000, y in -64_000i64..64_000,
        sizes in proptest::collection::vec((3i64..320, 3i64..320), 2..5),
    ) {
        let mut boxes = Vec::new();
        let mut left = x;
        for (w, h) in sizes {
            boxes.push((left, y, left + w, y + h));
            left += w;
        }
        let real: Vec<_> = boxes
            .iter()
            .map(|&(a, b, c, d)| (a as Real / 64.0, b as Real / 64.0, c as Real / 64.0, d as Real / 64.0))
            .collect();
        let body = compound(&real);
        let (m, c, i) = boxes_exact(&boxes);
        prop_assert!(relative(body.mass(), m) < 1e-12);
        prop_assert!((body.local_center() - c).norm() <= 1e-12 * c.coords.norm().max(1.0));
        prop_assert!(relative(body.inertia(), i) < 1e-12, "{} {i}", body.inertia());
    }
}

#[test]
fn each_shape_keeps_its_material_and_errors_name_the_shape() {
    let body = RigidBody::new(
        RigidBodyDef::new(rect(0.0, 0.0, 1.0, 1.0))
            .friction(0.9)
            .with_shape(
                ShapeDef::new(rect(1.0, 0.0, 2.0, 1.0))
                    .friction(0.1)
                    .restitution(0.5),
            ),
    )
    .unwrap();
    assert_eq!(
        body.shapes()[0].material(),
        Material::new(0.0, 0.9).unwrap()
    );
    assert_eq!(
        body.shapes()[1].material(),
        Material::new(0.5, 0.1).unwrap()
    );
    for (def, field) in [
        (
            ShapeDef::new(rect(1.0, 0.0, 2.0, 1.0)).density(-1.0),
            "body.shapes[0].density",
        ),
        (
            ShapeDef::new(rect(1.0, 0.0, 2.0, 1.0)).friction(Real::NAN),
            "body.shapes[0].friction",
        ),
        (
            ShapeDef::new(rect(1.0, 0.0, 2.0, 1.0)).restitution(1.5),
            "body.shapes[0].restitution",
        ),
    ] {
        let err = RigidBody::new(RigidBodyDef::new(rect(0.0, 0.0, 1.0, 1.0)).with_shape(def))
            .unwrap_err();
        assert!(err.to_string().starts_with(field), "{err}");
    }
}

#[test]
fn adding_and_removing_shapes_keeps_the_handle_and_recomputes_the_mass() {
    let mut bodies = BodySet::new();
    let h = bodies
        .insert(RigidBodyDef::new(rect(0.0, 0.0, 3.0, 1.0)))
        .unwrap();
    let body = bodies.get_mut(h).unwrap();
    assert_eq!(
        body.add_shape(ShapeDef::new(rect(0.0, 1.0, 1.0, 3.0)))
            .unwrap(),
        1
    );
    let (m, c, i) = boxes_closed_form(&[(0.0, 0.0, 3.0, 1.0), (0.0, 1.0, 1.0, 3.0)]);
    assert!(relative(body.mass(), m) < 1e-12 && relative(body.inertia(), i) < 1e-12);
    assert!((body.local_center() - c).norm() < 1e-12);
    let removed = body.remove_shape(0).unwrap();
    assert_eq!(*removed.shape(), rect(0.0, 0.0, 3.0, 1.0));
    assert!(relative(body.mass(), 2.0) < 1e-12);
    assert!(matches!(
        body.remove_shape(0),
        Err(SolverError::UnknownShape {
            index: 0,
            count: 1,
            ..
        })
    ));
    assert!(matches!(
        body.set_shape_filter(3, Default::default()),
        Err(SolverError::UnknownShape { index: 3, .. })
    ));
    assert!(bodies.contains(h));
}

#[test]
fn a_dynamic_body_is_never_left_without_mass() {
    let segment: Shape = impact_geometry::Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 0.0))
        .unwrap()
        .into();
    let mut body = RigidBody::new(
        RigidBodyDef::new(rect(0.0, 0.0, 1.0, 1.0)).with_shape(ShapeDef::new(segment)),
    )
    .unwrap();
    let before = body.clone();
    assert!(matches!(
        body.remove_shape(0),
        Err(SolverError::MasslessDynamic { .. })
    ));
    assert_eq!(body, before, "a failed removal changes nothing");
    let mut fixed =
        RigidBody::new(RigidBodyDef::new(rect(0.0, 0.0, 1.0, 1.0)).body_type(BodyType::Static))
            .unwrap();
    assert_eq!(
        fixed
            .add_shape(ShapeDef::new(rect(1.0, 0.0, 2.0, 1.0)))
            .unwrap(),
        1
    );
    assert_eq!(fixed.inv_mass(), 0.0);
}

#[cfg(feature = "serde")]
#[test]
fn a_compound_body_round_trips_through_serde_bit_for_bit() {
    let body = compound(&[
        (0.0, 0.0, 3.0, 1.0),
        (0.0, 1.0, 1.0, 3.0),
        (2.0, 1.0, 3.0, 2.0),
    ]);
    let json = serde_json::to_string(&body).unwrap();
    let back: RigidBody = serde_json::from_str(&json).unwrap();
    assert_eq!(back, body);
    assert_eq!(back.inertia().to_bits(), body.inertia().to_bits());
}
