//! Invariant: handles are generational (a removed body's handle stays dead even after its
//! slot is reused), iteration is in slot order, and the warm-starting cache finds a contact
//! whichever order its pair is given in.

mod common;

use common::disc;
use impact_geometry::{Point, Vector};
use impact_narrowphase::ContactId;
use impact_solver::{BodyHandle, BodySet, CacheKey};

#[test]
fn stale_handles_find_nothing() {
    let mut bodies = BodySet::new();
    let a = bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::zeros()))
        .unwrap();
    let b = bodies
        .insert(disc(0.5, 1.0, Point::new(2.0, 0.0), Vector::zeros()))
        .unwrap();
    assert_eq!((a.index, a.generation, b.index), (0, 0, 1));
    assert!(bodies.remove(a).is_some());
    assert!(bodies.remove(a).is_none(), "removing twice");
    assert!(bodies.get(a).is_none());
    let c = bodies
        .insert(disc(0.2, 1.0, Point::origin(), Vector::zeros()))
        .unwrap();
    assert_eq!(
        (c.index, c.generation),
        (0, 1),
        "slot reused, generation bumped"
    );
    assert!(bodies.get(a).is_none() && bodies.get_mut(a).is_none());
    assert!(bodies.try_get(a, "x").is_err());
    assert!(bodies.get(c).is_some());
    assert_eq!(bodies.len(), 2);
    let foreign = BodyHandle {
        index: 99,
        generation: 0,
    };
    assert!(bodies.get(foreign).is_none() && bodies.remove(foreign).is_none());
    assert!(bodies.get_pair_mut(c, c).is_none());
    let (x, y) = bodies.get_pair_mut(b, c).unwrap();
    assert_eq!((x.shape().radius(), y.shape().radius()), (0.5, 0.2));
}

#[test]
fn iteration_is_in_slot_order() {
    let mut bodies = BodySet::new();
    let hs: Vec<_> = (0..5)
        .map(|i| {
            bodies
                .insert(disc(
                    0.5,
                    1.0,
                    Point::new(f64::from(i), 0.0),
                    Vector::zeros(),
                ))
                .unwrap()
        })
        .collect();
    bodies.remove(hs[1]).unwrap();
    bodies.remove(hs[3]).unwrap();
    // Last freed, first reused.
    let h = bodies
        .insert(disc(0.5, 1.0, Point::origin(), Vector::zeros()))
        .unwrap();
    assert_eq!(h.index, 3);
    let order: Vec<_> = bodies.handles().map(|h| h.index).collect();
    assert_eq!(order, vec![0, 2, 3, 4]);
    let order_mut: Vec<_> = bodies.iter_mut().map(|(h, _)| h.index).collect();
    assert_eq!(order, order_mut);
}

#[test]
fn cache_key_ignores_pair_order() {
    let a = BodyHandle {
        index: 4,
        generation: 1,
    };
    let b = BodyHandle {
        index: 2,
        generation: 0,
    };
    let id = ContactId::new(3, 1);
    assert_eq!(CacheKey::new(a, b, id), CacheKey::new(b, a, id.swapped()));
    assert_eq!(CacheKey::new(a, b, id).a, b);
}
