//! World snapshots: `World` is `Serialize` and `Deserialize` (feature `serde`).
//!
//! A snapshot holds everything a step reads: the settings, the bodies (with their slots,
//! generations and free list, so handles stay valid, and their sleep state and time at
//! rest), the sleeping islands (with their contacts' warm-starting impulses), the joints (with their impulses of the
//! last step), the stepper and its settings, the warm-starting impulses, the clock and the fixed-step accumulator, and what the events
//! are judged against (the pairs touching and overlapping sensors, and the end events of
//! removals waiting for the next step). The last step's events are not stored. The broadphase is not
//! stored: it is rebuilt from the bodies. Its fat boxes may then differ from the original's,
//! which changes only the false positives it reports; every stage filters those (empty
//! manifolds, separated time-of-impact queries), so a restored world continues bit for bit
//! as the original would have.
//!
//! Bit-identical continuation needs a format that round-trips every `f64` exactly: binary
//! formats do, and so does `serde_json` with its `float_roundtrip` feature (without it,
//! parsing may be one ulp off, and the worlds drift apart).

use super::sleep::{Sleep, SleepingIsland};
use super::{Scratch, World};
use crate::contact_events::ContactEndEvent;
use crate::contact_events::touch_key;
use crate::error::WorldError;
use crate::sensing::SensorEvent;
use crate::settings::WorldSettings;
use crate::shape_proxies::ShapeProxies;
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Real, Vector};
use impact_solver::{BodySet, ContactCache, JointPairs, JointSet, ShapeId};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a snapshot holds, borrowed for writing.
#[derive(Serialize)]
struct SnapshotRef<'a, S> {
    settings: &'a WorldSettings,
    bodies: &'a BodySet,
    stepper: &'a S,
    cache: &'a ContactCache,
    #[serde(skip_serializing_if = "JointSet::is_empty")]
    joints: &'a JointSet,
    shape_proxies: &'a ShapeProxies,
    sides: &'a [(ShapeId, ShapeId, Vector)],
    touching: &'a [(ShapeId, ShapeId)],
    sensor_overlaps: &'a [(ShapeId, ShapeId)],
    pending_contact_ends: &'a [ContactEndEvent],
    pending_sensor_ends: &'a [SensorEvent],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    sleeping_islands: &'a [Option<SleepingIsland>],
    time: Real,
    steps: u64,
    accumulator: Real,
}

/// What a snapshot holds, owned for reading.
#[derive(Deserialize)]
struct Snapshot<S> {
    settings: WorldSettings,
    bodies: BodySet,
    stepper: S,
    cache: ContactCache,
    /// Absent from snapshots of worlds without joints.
    #[serde(default)]
    joints: JointSet,
    /// Absent from snapshots of worlds whose bodies all have one shape: each body's
    /// proxy is its slot.
    #[serde(default)]
    shape_proxies: ShapeProxies,
    /// Absent from snapshots written before sides were kept: none remembered.
    #[serde(default)]
    sides: Vec<(ShapeId, ShapeId, Vector)>,
    /// Absent from snapshots written before contact and sensor events: nothing touching
    /// or overlapping, so the first step reports every touching pair and overlap as begun.
    #[serde(default)]
    touching: Vec<(ShapeId, ShapeId)>,
    #[serde(default)]
    sensor_overlaps: Vec<(ShapeId, ShapeId)>,
    #[serde(default)]
    pending_contact_ends: Vec<ContactEndEvent>,
    #[serde(default)]
    pending_sensor_ends: Vec<SensorEvent>,
    /// Absent from snapshots of worlds where nothing sleeps.
    #[serde(default)]
    sleeping_islands: Vec<Option<SleepingIsland>>,
    time: Real,
    steps: u64,
    accumulator: Real,
}

impl<B: Broadphase, S: Stepper + Serialize> Serialize for World<B, S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        SnapshotRef {
            settings: &self.settings,
            bodies: &self.bodies,
            stepper: &self.stepper,
            cache: &self.cache,
            joints: &self.joints,
            shape_proxies: &self.shape_proxies,
            sides: &self.sides,
            touching: &self.tracking.touching,
            sensor_overlaps: &self.tracking.overlaps,
            pending_contact_ends: &self.tracking.pending_contact,
            pending_sensor_ends: &self.tracking.pending_sensor,
            sleeping_islands: &self.sleep.islands,
            time: self.time,
            steps: self.steps,
            accumulator: self.accumulator,
        }
        .serialize(serializer)
    }
}

impl<'de, B: Broadphase + Default, S: Stepper + Deserialize<'de>> Deserialize<'de> for World<B, S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let snapshot = Snapshot::<S>::deserialize(deserializer)?;
        World::from_snapshot(snapshot).map_err(serde::de::Error::custom)
    }
}

impl<B: Broadphase + Default, S: Stepper> World<B, S> {
    /// The world a snapshot describes, its broadphase rebuilt from the bodies.
    fn from_snapshot(s: Snapshot<S>) -> Result<Self, WorldError> {
        crate::error::finite("time", s.time)?;
        crate::error::non_negative("accumulator", s.accumulator)?;
        for (key, _) in s.cache.iter() {
            if !s.bodies.contains(key.a) || !s.bodies.contains(key.b) {
                return Err(WorldError::UnknownBody {
                    field: "cache".to_owned(),
                    handle: if s.bodies.contains(key.a) {
                        key.b
                    } else {
                        key.a
                    },
                });
            }
        }
        for &(a, b, normal) in &s.sides {
            check_shapes(&s.bodies, "sides", [a, b])?;
            crate::error::finite("sides.normal.x", normal.x)?;
            crate::error::finite("sides.normal.y", normal.y)?;
        }
        if !s.sides.is_sorted_by_key(|&(a, b, _)| (a, b)) {
            return Err(WorldError::OutOfRange {
                field: "sides".to_owned(),
                value: s.sides.len() as Real,
                expected: "pairs sorted by shape",
            });
        }
        for &(a, b) in &s.touching {
            check_shapes(&s.bodies, "touching", [a, b])?;
        }
        if !s.touching.is_sorted_by_key(|&p| touch_key(p)) {
            return Err(WorldError::OutOfRange {
                field: "touching".to_owned(),
                value: s.touching.len() as Real,
                expected: "pairs sorted by slot and shape",
            });
        }
        for &(a, b) in &s.sensor_overlaps {
            check_shapes(&s.bodies, "sensor_overlaps", [a, b])?;
        }
        if !s.sensor_overlaps.is_sorted() {
            return Err(WorldError::OutOfRange {
                field: "sensor_overlaps".to_owned(),
                value: s.sensor_overlaps.len() as Real,
                expected: "pairs sorted by shape",
            });
        }
        for (_, joint) in s.joints.iter() {
            joint
                .def()
                .validate(&s.bodies)
                .map_err(|e| WorldError::from(e).renamed("joint", "joints"))?;
        }
        if !s.joints.is_empty() && s.settings.domain.is_periodic() {
            return Err(WorldError::OutOfRange {
                field: "joints".to_owned(),
                value: s.joints.len() as Real,
                expected: "no joint in a periodic domain",
            });
        }
        let shape_proxies = if s.shape_proxies.is_empty() {
            ShapeProxies::of_single_shapes(&s.bodies)
        } else {
            s.shape_proxies
        };
        let mut world = World::with_parts(s.settings, B::default(), s.stepper)?;
        for (handle, body) in s.bodies.iter() {
            world
                .settings
                .domain
                .check_fits(&super::proxy_box(body, "bodies")?, "bodies.aabb")?;
            let boxes = super::shape_boxes(body, "bodies")?;
            let proxies: Vec<ProxyId> = shape_proxies
                .proxies_of(handle.index, boxes.len())
                .collect();
            for (k, (&proxy, aabb)) in proxies.iter().zip(boxes).enumerate() {
                let named = ShapeId {
                    body: handle,
                    index: k as u32,
                };
                if shape_proxies.shape_of(proxy) != Some(named) {
                    return Err(WorldError::OutOfRange {
                        field: "shape_proxies".to_owned(),
                        value: proxy.index() as Real,
                        expected: "the proxy of each shape of each body, once",
                    });
                }
                world.broadphase.insert(proxy, aabb)?;
            }
            if proxies.len() != body.shapes().len() {
                return Err(WorldError::OutOfRange {
                    field: "shape_proxies".to_owned(),
                    value: proxies.len() as Real,
                    expected: "a proxy for every shape of every body",
                });
            }
            let slot = handle.index as usize;
            if world.proxies.len() <= slot {
                world.proxies.resize(slot + 1, None);
            }
            world.proxies[slot] = Some(handle);
        }
        world.shape_proxies = shape_proxies;
        world.sleep = Sleep::from_islands(s.sleeping_islands, &s.bodies)?;
        world.bodies = s.bodies;
        world.cache = s.cache;
        world.joint_pairs = JointPairs::of(&s.joints);
        world.joints = s.joints;
        world.sides = s.sides;
        world.tracking.touching = s.touching;
        world.tracking.overlaps = s.sensor_overlaps;
        world.tracking.pending_contact = s.pending_contact_ends;
        world.tracking.pending_sensor = s.pending_sensor_ends;
        world.time = s.time;
        world.steps = s.steps;
        world.accumulator = s.accumulator;
        world.scratch = Scratch::default();
        Ok(world)
    }
}

/// Every shape of `shapes` names a live body and one of its shapes, or the error naming
/// `field`.
fn check_shapes(bodies: &BodySet, field: &str, shapes: [ShapeId; 2]) -> Result<(), WorldError> {
    for shape in shapes {
        match bodies.get(shape.body) {
            Some(body) if (shape.index as usize) < body.shapes().len() => {}
            _ => {
                return Err(WorldError::UnknownBody {
                    field: field.to_owned(),
                    handle: shape.body,
                });
            }
        }
    }
    Ok(())
}
