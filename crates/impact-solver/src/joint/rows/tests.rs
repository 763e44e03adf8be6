//! The four-wide hinges against the rows one at a time: the same velocities and impulses,
//! bit for bit, over seeded grids that mix plain hinges with hinges whose motor, limit or
//! spring acts, static bodies among the dynamic ones, and bodies moved and turned between
//! stages.

use super::{JointRows, Run};
use crate::body_set::BodySet;
use crate::joint::{JointDef, JointImpulses, JointSet, RevoluteJoint};
use crate::settings::SolverSettings;
use crate::solver::bodies::{BodyTable, Motion, SolverBody};
use crate::solver::rows::{RowKind, Stage};
use crate::{BodyType, RigidBodyDef};
use impact_geometry::{Circle, Isometry, Point, Real, Vector};
use proptest::prelude::*;

/// A grid of `columns x rows` discs, each jointed to its right and lower neighbours, with
/// every body, joint and impulse drawn from `seed`.
fn grid(columns: usize, rows: usize, seed: u64) -> (BodySet, JointSet) {
    let mut state = seed;
    let mut next = move || {
        // SplitMix64, to [-1, 1).
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as Real / (1u64 << 52) as Real - 1.0
    };
    let mut bodies = BodySet::new();
    let mut handles = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            let at = Point::new(c as Real + 0.1 * next(), -(r as Real) + 0.1 * next());
            let fixed = next() < -0.8;
            let def = RigidBodyDef::new(Circle::new(0.3 + 0.1 * next()).unwrap().into())
                .density(1.5 + next())
                .pose(Isometry::new(at.coords, next()));
            let def = if fixed {
                def.body_type(BodyType::Static)
            } else {
                def.linvel(Vector::new(next(), next())).angvel(2.0 * next())
            };
            handles.push(bodies.insert(def).unwrap());
        }
    }
    let mut joints = JointSet::new();
    for r in 0..rows {
        for c in 0..columns {
            let here = handles[r * columns + c];
            let mut join = |other| {
                let roll = next();
                let hinge = RevoluteJoint {
                    enable_motor: roll > 0.8,
                    max_motor_torque: 5.0,
                    motor_speed: 1.0,
                    enable_limit: roll < -0.85,
                    lower_angle: -0.2,
                    upper_angle: 0.3,
                    ..RevoluteJoint::default()
                };
                let anchor = Point::new(c as Real + 0.5 * next(), -(r as Real) + 0.5 * next());
                let def = JointDef::at_world_anchors(
                    &bodies,
                    here,
                    other,
                    (anchor, anchor),
                    hinge.into(),
                );
                let Ok(def) = def else { return };
                let Ok(handle) = joints.insert(&bodies, def) else {
                    return;
                };
                let impulses = JointImpulses {
                    linear: Vector::new(next(), next()),
                    motor: next(),
                    lower: next().max(0.0),
                    ..JointImpulses::default()
                };
                let joint = joints.get_mut(handle).expect("just inserted");
                joint.store(impulses, Vector::zeros(), 0.0);
            };
            if c + 1 < columns {
                join(handles[r * columns + c + 1]);
            }
            if r + 1 < rows {
                join(handles[(r + 1) * columns + c]);
            }
        }
    }
    (bodies, joints)
}

/// Motion since the step's start for every body of the table, from `seed`.
fn moved(count: usize, seed: u64, scale: Real) -> Vec<Motion> {
    (0..count)
        .map(|i| {
            let t = (seed as Real * 0.37 + i as Real * 1.13).sin();
            let angle = scale * t;
            Motion {
                dp: Vector::new(scale * 0.5 * t, scale * (1.7 * t).cos()),
                dq: (angle.cos(), angle.sin()),
            }
        })
        .collect()
}

fn bits(velocities: &[SolverBody], rows: &JointRows) -> Vec<u64> {
    let mut out: Vec<u64> = velocities
        .iter()
        .flat_map(|b| [b.v.x, b.v.y, b.w])
        .map(Real::to_bits)
        .collect();
    for row in &rows.rows {
        let i = &row.impulses;
        out.extend([i.linear.x, i.linear.y, i.motor, i.lower, i.upper].map(Real::to_bits));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hinges_four_wide_match_the_rows_one_at_a_time(
        columns in 2usize..9,
        rows in 1usize..7,
        seed in any::<u64>(),
    ) {
        let (bodies, joints) = grid(columns, rows, seed);
        let settings = SolverSettings::default();
        let h = 1.0 / 240.0;
        let mut table = BodyTable::default();
        let mut fast = JointRows::default();
        fast.prepare(&mut table, &bodies, &joints, &settings, (h, 1.0 / h)).unwrap();
        let mut slow = fast.clone();
        slow.hinges.clear();
        slow.runs = vec![Run::Rows(0..slow.rows.len())];
        let mut velocities = [table.velocities.clone(), table.velocities.clone()];
        let stage = |motion| Stage {
            settings: &settings,
            dt: 4.0 * h,
            h,
            inv_h: 1.0 / h,
            states: &table.states,
            motion,
            bodies: &bodies,
        };
        let first = moved(table.len(), seed, 0.0);
        let second = moved(table.len(), seed, 0.05);
        for (rows, v) in [&mut fast, &mut slow].into_iter().zip(&mut velocities) {
            rows.bodies_gathered(&table.states, &first);
            rows.warm_start(v, &first);
            rows.iterate(v, &stage(&first), true);
            rows.bodies_moved(&table.states, &second);
            rows.iterate(v, &stage(&second), false);
            rows.warm_start(v, &second);
            rows.iterate(v, &stage(&second), true);
            rows.store();
        }
        prop_assert_eq!(bits(&velocities[0], &fast), bits(&velocities[1], &slow));
    }
}

/// The seeded grids above do mix the two kinds of runs (so the proptest compares both).
#[test]
fn a_mixed_grid_has_hinge_chunks_and_rows() {
    let (bodies, joints) = grid(8, 6, 1);
    let mut rows = JointRows::default();
    let h = 1.0 / 240.0;
    let settings = SolverSettings::default();
    rows.prepare(
        &mut BodyTable::default(),
        &bodies,
        &joints,
        &settings,
        (h, 1.0 / h),
    )
    .unwrap();
    let hinges = rows
        .runs
        .iter()
        .filter(|r| matches!(r, Run::Hinges(_)))
        .count();
    assert!(hinges > 0 && hinges < rows.runs.len(), "{:?}", rows.runs);
}
