//! World snapshots: `World` is `Serialize` and `Deserialize` (feature `serde`).
//!
//! A snapshot holds everything a step reads: the settings, the bodies (with their slots,
//! generations and free list, so handles stay valid), the stepper and its settings, the
//! warm-starting impulses, the clock and the fixed-step accumulator, and what the events
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

use super::{Scratch, World};
use crate::contact_events::ContactEndEvent;
use crate::error::WorldError;
use crate::sensing::SensorEvent;
use crate::settings::WorldSettings;
use crate::stepper::Stepper;
use impact_broadphase::{Broadphase, ProxyId};
use impact_geometry::{Real, Vector};
use impact_solver::{BodyHandle, BodySet, ContactCache};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a snapshot holds, borrowed for writing.
#[derive(Serialize)]
struct SnapshotRef<'a, S> {
    settings: &'a WorldSettings,
    bodies: &'a BodySet,
    stepper: &'a S,
    cache: &'a ContactCache,
    sides: &'a [(BodyHandle, BodyHandle, Vector)],
    touching: &'a [(BodyHandle, BodyHandle)],
    sensor_overlaps: &'a [(BodyHandle, BodyHandle)],
    pending_contact_ends: &'a [ContactEndEvent],
    pending_sensor_ends: &'a [SensorEvent],
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
    /// Absent from snapshots written before sides were kept: none remembered.
    #[serde(default)]
    sides: Vec<(BodyHandle, BodyHandle, Vector)>,
    /// Absent from snapshots written before contact and sensor events: nothing touching
    /// or overlapping, so the first step reports every touching pair and overlap as begun.
    #[serde(default)]
    touching: Vec<(BodyHandle, BodyHandle)>,
    #[serde(default)]
    sensor_overlaps: Vec<(BodyHandle, BodyHandle)>,
    #[serde(default)]
    pending_contact_ends: Vec<ContactEndEvent>,
    #[serde(default)]
    pending_sensor_ends: Vec<SensorEvent>,
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
            sides: &self.sides,
            touching: &self.tracking.touching,
            sensor_overlaps: &self.tracking.overlaps,
            pending_contact_ends: &self.tracking.pending_contact,
            pending_sensor_ends: &self.tracking.pending_sensor,
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
            for handle in [a, b] {
                if !s.bodies.contains(handle) {
                    return Err(WorldError::UnknownBody {
                        field: "sides".to_owned(),
                        handle,
                    });
                }
            }
            crate::error::finite("sides.normal.x", normal.x)?;
            crate::error::finite("sides.normal.y", normal.y)?;
        }
        if !s.sides.is_sorted_by_key(|&(a, b, _)| (a, b)) {
            return Err(WorldError::OutOfRange {
                field: "sides".to_owned(),
                value: s.sides.len() as Real,
                expected: "pairs sorted by handle",
            });
        }
        for (field, pairs) in [
            ("touching", &s.touching),
            ("sensor_overlaps", &s.sensor_overlaps),
        ] {
            for &(a, b) in pairs.iter() {
                for handle in [a, b] {
                    if !s.bodies.contains(handle) {
                        return Err(WorldError::UnknownBody {
                            field: field.to_owned(),
                            handle,
                        });
                    }
                }
            }
            if !pairs.is_sorted() {
                return Err(WorldError::OutOfRange {
                    field: field.to_owned(),
                    value: pairs.len() as Real,
                    expected: "pairs sorted by handle",
                });
            }
        }
        let mut world = World::with_parts(s.settings, B::default(), s.stepper)?;
        for (handle, body) in s.bodies.iter() {
            let aabb = super::proxy_box(body, "bodies")?;
            world.settings.domain.check_fits(&aabb, "bodies.aabb")?;
            let proxy = ProxyId(handle.index);
            world.broadphase.insert(proxy, aabb)?;
            if world.proxies.len() <= proxy.index() {
                world.proxies.resize(proxy.index() + 1, None);
            }
            world.proxies[proxy.index()] = Some(handle);
        }
        world.bodies = s.bodies;
        world.cache = s.cache;
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
