//! Generational handles and the set of bodies they name.

use crate::body::{RigidBody, RigidBodyDef};
use crate::error::SolverError;
use impact_geometry::Real;

/// Names one body of a [`BodySet`]: a slot index plus the generation of that slot.
///
/// Removing a body bumps its slot's generation, so a handle kept past the removal is *stale*:
/// lookups with it return `None` (or [`SolverError::UnknownBody`]) even after the slot is
/// reused by a new body. Handles order by index, then generation, which is slot order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHandle {
    /// The slot in the set.
    pub index: u32,
    /// How many bodies occupied the slot before this one.
    pub generation: u32,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Slot {
    generation: u32,
    body: Option<RigidBody>,
    /// Held by [`BodySet::reserve_index`]: no body, and not free.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    reserved: bool,
    /// The body is asleep (see [`BodySet::is_asleep`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    asleep: bool,
    /// How long the body has been at rest (seconds; see [`BodySet::sleep_time`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    sleep_time: Real,
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(x: &Real) -> bool {
    *x == 0.0
}

/// The bodies of a simulation, named by [`BodyHandle`].
///
/// Iteration visits bodies in slot order, which depends only on the sequence of inserts and
/// removes: freed slots are reused last-freed first. Two runs that make the same calls see
/// the same handles and the same order, which is what makes the solver deterministic.
///
/// Each body is awake or asleep ([`BodySet::is_asleep`]): a sleeping body is one a world
/// put to sleep with its island, which the solver and the steppers leave out
/// ([`BodySet::iter_awake`]). The set only keeps the flag and each body's time at rest; the
/// world decides.
///
/// With the `serde` feature the set serializes with its free list and generations, so handles
/// stay valid across a snapshot, and with each body's sleep state; deserialization checks the
/// free list against the slots.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BodySetDef", into = "BodySetDef"))]
pub struct BodySet {
    slots: Vec<Slot>,
    free: Vec<u32>,
    len: usize,
    /// The slots of the awake bodies, in slot order, while `awake_fresh`; rebuilt by
    /// [`BodySet::refresh_awake`] after a change, so that a step visits the awake bodies
    /// without touching the sleeping ones.
    awake: Vec<u32>,
    awake_fresh: bool,
    /// How many live bodies are asleep.
    asleep: usize,
}

impl PartialEq for BodySet {
    /// The same bodies in the same slots, with the same free list and sleep states (the
    /// list of awake slots is derived from them).
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots && self.free == other.free && self.len == other.len
    }
}

impl BodySet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Validates `def` and inserts the body.
    ///
    /// # Errors
    /// As [`RigidBody::new`]; the set is unchanged.
    pub fn insert(&mut self, def: RigidBodyDef) -> Result<BodyHandle, SolverError> {
        Ok(self.insert_body(RigidBody::new(def)?))
    }

    /// Inserts an already valid body, reusing the most recently freed slot if any.
    pub fn insert_body(&mut self, body: RigidBody) -> BodyHandle {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.body = Some(body);
            slot.asleep = false;
            slot.sleep_time = 0.0;
            self.awake_fresh = false;
            return BodyHandle {
                index,
                generation: slot.generation,
            };
        }
        // More than 4 billion bodies would exhaust memory long before the index type.
        let index = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.slots.push(Slot {
            generation: 0,
            body: Some(body),
            reserved: false,
            asleep: false,
            sleep_time: 0.0,
        });
        // A body in a new last slot keeps the awake list in slot order.
        if self.awake_fresh {
            self.awake.push(index);
        }
        BodyHandle {
            index,
            generation: 0,
        }
    }

    /// Removes and returns the body, or `None` if the handle is stale or foreign.
    pub fn remove(&mut self, handle: BodyHandle) -> Option<RigidBody> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        if slot.generation != handle.generation {
            return None;
        }
        let body = slot.body.take()?;
        slot.generation = slot.generation.wrapping_add(1);
        if core::mem::take(&mut slot.asleep) {
            self.asleep -= 1;
        }
        slot.sleep_time = 0.0;
        self.free.push(handle.index);
        self.len -= 1;
        self.awake_fresh = false;
        Some(body)
    }

    /// Takes an index that no body will get until [`BodySet::release_index`] gives it back:
    /// a world names the broadphase proxies of a body's further shapes with such indices, so
    /// that every proxy index is a slot of this set and the first shape's proxy stays its
    /// body's index. Free slots are reused as by [`BodySet::insert`].
    pub fn reserve_index(&mut self) -> u32 {
        if let Some(index) = self.free.pop() {
            self.slots[index as usize].reserved = true;
            return index;
        }
        let index = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.slots.push(Slot {
            generation: 0,
            body: None,
            reserved: true,
            asleep: false,
            sleep_time: 0.0,
        });
        index
    }

    /// Gives back an index taken by [`BodySet::reserve_index`]; `false` (and nothing done) if
    /// `index` is not reserved.
    pub fn release_index(&mut self, index: u32) -> bool {
        match self.slots.get_mut(index as usize) {
            Some(slot) if slot.reserved => {
                slot.reserved = false;
                self.free.push(index);
                true
            }
            _ => false,
        }
    }

    /// How many slots the set has (live bodies, free slots and reserved indices): every body
    /// index and reserved index is below it.
    #[inline]
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The body, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn get(&self, handle: BodyHandle) -> Option<&RigidBody> {
        let slot = self.slots.get(handle.index as usize)?;
        if slot.generation == handle.generation {
            slot.body.as_ref()
        } else {
            None
        }
    }

    /// The body in slot `index` with its handle, or `None` if the slot is empty or beyond
    /// the set: how something that names bodies by slot (a broadphase proxy,
    /// `ProxyId(handle.index)` in a world) finds the body and its current generation.
    ///
    /// ```
    /// use impact_geometry::Circle;
    /// use impact_solver::{BodySet, RigidBodyDef};
    ///
    /// let mut set = BodySet::new();
    /// let first = set.insert(RigidBodyDef::new(Circle::new(1.0)?.into()))?;
    /// set.remove(first);
    /// assert!(set.get_by_index(first.index).is_none());
    /// // The slot is reused by the next body, under a new generation.
    /// let second = set.insert(RigidBodyDef::new(Circle::new(2.0)?.into()))?;
    /// let (handle, _) = set.get_by_index(first.index).unwrap();
    /// assert_eq!((handle, handle.index), (second, first.index));
    /// assert_ne!(second, first);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_by_index(&self, index: u32) -> Option<(BodyHandle, &RigidBody)> {
        let slot = self.slots.get(index as usize)?;
        let body = slot.body.as_ref()?;
        Some((
            BodyHandle {
                index,
                generation: slot.generation,
            },
            body,
        ))
    }

    /// The body, mutably, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn get_mut(&mut self, handle: BodyHandle) -> Option<&mut RigidBody> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        if slot.generation == handle.generation {
            slot.body.as_mut()
        } else {
            None
        }
    }

    /// Two different bodies, mutably; `None` if either handle is stale or both are the same.
    pub fn get_pair_mut(
        &mut self,
        a: BodyHandle,
        b: BodyHandle,
    ) -> Option<(&mut RigidBody, &mut RigidBody)> {
        if a.index == b.index {
            return None;
        }
        self.get(a)?;
        self.get(b)?;
        let (ia, ib) = (a.index as usize, b.index as usize);
        let (lo, hi) = if ia < ib { (ia, ib) } else { (ib, ia) };
        let (left, right) = self.slots.split_at_mut(hi);
        let (x, y) = (left[lo].body.as_mut()?, right[0].body.as_mut()?);
        Some(if ia < ib { (x, y) } else { (y, x) })
    }

    /// The body, or [`SolverError::UnknownBody`] naming `field`.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] if the handle is stale or foreign.
    pub fn try_get(&self, handle: BodyHandle, field: &str) -> Result<&RigidBody, SolverError> {
        self.get(handle).ok_or_else(|| SolverError::UnknownBody {
            field: field.to_owned(),
            handle,
        })
    }

    /// Whether the handle names a body of this set.
    #[inline]
    pub fn contains(&self, handle: BodyHandle) -> bool {
        self.get(handle).is_some()
    }

    /// How many bodies the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bodies with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (BodyHandle, &RigidBody)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, slot)| {
            slot.body.as_ref().map(|b| {
                (
                    BodyHandle {
                        index: i as u32,
                        generation: slot.generation,
                    },
                    b,
                )
            })
        })
    }

    /// The bodies with their handles, mutably, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (BodyHandle, &mut RigidBody)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(i, slot)| {
            let generation = slot.generation;
            slot.body.as_mut().map(|b| {
                (
                    BodyHandle {
                        index: i as u32,
                        generation,
                    },
                    b,
                )
            })
        })
    }

    /// The handles of every body, in slot order.
    pub fn handles(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.iter().map(|(h, _)| h)
    }

    /// FNV-1a over the bits of every body's handle, pose and velocities, in slot order:
    /// equal hashes mean (all but surely) bit-identical states, which is how determinism is
    /// checked and reported. Hand-written so the value depends on nothing but the bits (the
    /// standard library's hasher may change between releases).
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |word: u64| {
            for byte in word.to_le_bytes() {
                h ^= u64::from(byte);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (handle, body) in self.iter() {
            eat(u64::from(handle.index) << 32 | u64::from(handle.generation));
            let pose = body.pose();
            eat(pose.translation.x.to_bits());
            eat(pose.translation.y.to_bits());
            eat(pose.rotation.re.to_bits());
            eat(pose.rotation.im.to_bits());
            eat(body.linvel().x.to_bits());
            eat(body.linvel().y.to_bits());
            eat(body.angvel().to_bits());
        }
        h
    }

    /// Whether the body is asleep; `false` for a stale or foreign handle.
    #[inline]
    pub fn is_asleep(&self, handle: BodyHandle) -> bool {
        self.slots
            .get(handle.index as usize)
            .is_some_and(|s| s.generation == handle.generation && s.body.is_some() && s.asleep)
    }

    /// Whether the body in slot `index` is asleep (`false` for an empty slot).
    #[inline]
    pub fn is_asleep_at(&self, index: u32) -> bool {
        self.slots
            .get(index as usize)
            .is_some_and(|s| s.asleep && s.body.is_some())
    }

    /// Puts the body to sleep or wakes it (the flag only: a world moves whole islands);
    /// returns whether it changed, `false` for a stale or foreign handle.
    pub fn set_asleep(&mut self, handle: BodyHandle, asleep: bool) -> bool {
        let Some(slot) = self.slots.get_mut(handle.index as usize) else {
            return false;
        };
        if slot.generation != handle.generation || slot.body.is_none() || slot.asleep == asleep {
            return false;
        }
        slot.asleep = asleep;
        if asleep {
            self.asleep += 1;
        } else {
            self.asleep -= 1;
        }
        self.awake_fresh = false;
        true
    }

    /// How many live bodies are asleep.
    #[inline]
    pub fn asleep_len(&self) -> usize {
        self.asleep
    }

    /// How long the body has been at rest (seconds), as a world counts it toward sleeping;
    /// 0 for a stale or foreign handle.
    #[inline]
    pub fn sleep_time(&self, handle: BodyHandle) -> Real {
        self.slots
            .get(handle.index as usize)
            .filter(|s| s.generation == handle.generation)
            .map_or(0.0, |s| s.sleep_time)
    }

    /// Sets how long the body has been at rest (seconds; the caller keeps it finite and
    /// non-negative); nothing for a stale or foreign handle.
    #[inline]
    pub fn set_sleep_time(&mut self, handle: BodyHandle, time: Real) {
        if let Some(s) = self.slots.get_mut(handle.index as usize)
            && s.generation == handle.generation
        {
            s.sleep_time = time;
        }
    }

    /// Rebuilds the list of awake slots if a body was inserted, removed, put to sleep or
    /// woken since the last call: one pass over the slots after a change, nothing
    /// otherwise. [`BodySet::iter_awake`] is as fast as the list is fresh.
    pub fn refresh_awake(&mut self) {
        if self.awake_fresh {
            return;
        }
        self.awake.clear();
        self.awake.extend(
            self.slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.body.is_some() && !s.asleep)
                .map(|(i, _)| i as u32),
        );
        self.awake_fresh = true;
    }

    /// Calls `f` on every awake body with its handle (the bodies of
    /// [`BodySet::iter_awake_mut`]), each once, on rayon's threads in no fixed order: for a
    /// change to each body that depends on that body alone.
    #[cfg(feature = "parallel")]
    pub(crate) fn par_for_each_awake_mut<F>(&mut self, f: F)
    where
        F: Fn(BodyHandle, &mut RigidBody) + Sync + Send,
    {
        use rayon::prelude::*;
        self.slots
            .par_iter_mut()
            .enumerate()
            .with_min_len(256)
            .for_each(|(i, slot)| {
                if slot.asleep {
                    return;
                }
                let generation = slot.generation;
                if let Some(body) = &mut slot.body {
                    let index = i as u32;
                    f(BodyHandle { index, generation }, body);
                }
            });
    }

    /// Every awake body with its handle, in slot order: what a step moves. After
    /// [`BodySet::refresh_awake`] it visits only the awake bodies; after a change since, it
    /// scans every slot (the same bodies, more slowly).
    pub fn iter_awake(&self) -> impl Iterator<Item = (BodyHandle, &RigidBody)> + '_ {
        let listed = self.awake_fresh.then(|| {
            self.awake.iter().filter_map(|&i| {
                let slot = &self.slots[i as usize];
                slot.body.as_ref().map(|b| {
                    (
                        BodyHandle {
                            index: i,
                            generation: slot.generation,
                        },
                        b,
                    )
                })
            })
        });
        let scanned = (!self.awake_fresh).then(|| {
            self.slots
                .iter()
                .enumerate()
                .filter_map(|(i, slot)| match &slot.body {
                    Some(b) if !slot.asleep => Some((
                        BodyHandle {
                            index: i as u32,
                            generation: slot.generation,
                        },
                        b,
                    )),
                    _ => None,
                })
        });
        listed
            .into_iter()
            .flatten()
            .chain(scanned.into_iter().flatten())
    }

    /// [`BodySet::iter_awake`], mutably.
    pub fn iter_awake_mut(&mut self) -> impl Iterator<Item = (BodyHandle, &mut RigidBody)> + '_ {
        self.refresh_awake();
        let mut next = 0usize;
        let mut rest: &mut [Slot] = self.slots.as_mut_slice();
        self.awake.iter().filter_map(move |&i| {
            let i = i as usize;
            let taken = core::mem::take(&mut rest);
            let (_, tail) = taken.split_at_mut(i - next);
            let (slot, after) = tail.split_first_mut()?;
            next = i + 1;
            rest = after;
            let generation = slot.generation;
            slot.body.as_mut().map(|b| {
                (
                    BodyHandle {
                        index: i as u32,
                        generation,
                    },
                    b,
                )
            })
        })
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct BodySetDef {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

#[cfg(feature = "serde")]
impl TryFrom<BodySetDef> for BodySet {
    type Error = SolverError;
    fn try_from(d: BodySetDef) -> Result<Self, SolverError> {
        let mut listed = vec![false; d.slots.len()];
        for (i, &index) in d.free.iter().enumerate() {
            let field = || format!("bodies.free[{i}]");
            let Some(slot) = d.slots.get(index as usize) else {
                return Err(SolverError::OutOfRange {
                    field: field(),
                    value: Real::from(index),
                    expected: "the index of a slot",
                });
            };
            if slot.body.is_some() || slot.reserved || listed[index as usize] {
                return Err(SolverError::OutOfRange {
                    field: field(),
                    value: Real::from(index),
                    expected: "the index of an empty slot, listed once",
                });
            }
            listed[index as usize] = true;
        }
        if let Some(i) =
            (0..d.slots.len()).find(|&i| d.slots[i].body.is_some() && d.slots[i].reserved)
        {
            return Err(SolverError::OutOfRange {
                field: format!("bodies.slots[{i}].reserved"),
                value: i as Real,
                expected: "false for a slot holding a body",
            });
        }
        let unaccounted = |i: usize| {
            let slot = &d.slots[i];
            slot.body.is_none() && !slot.reserved && !listed[i]
        };
        if let Some(i) = (0..d.slots.len()).find(|&i| unaccounted(i)) {
            return Err(SolverError::OutOfRange {
                field: format!("bodies.slots[{i}]"),
                value: i as Real,
                expected: "occupied, reserved, or listed in the free list",
            });
        }
        for (i, slot) in d.slots.iter().enumerate() {
            if !slot.sleep_time.is_finite() || slot.sleep_time < 0.0 {
                return Err(SolverError::OutOfRange {
                    field: format!("bodies.slots[{i}].sleep_time"),
                    value: slot.sleep_time,
                    expected: "finite and not negative",
                });
            }
        }
        let len = d.slots.iter().filter(|s| s.body.is_some()).count();
        let asleep = d
            .slots
            .iter()
            .filter(|s| s.body.is_some() && s.asleep)
            .count();
        Ok(Self {
            slots: d.slots,
            free: d.free,
            len,
            awake: Vec::new(),
            awake_fresh: false,
            asleep,
        })
    }
}

#[cfg(feature = "serde")]
impl From<BodySet> for BodySetDef {
    fn from(s: BodySet) -> Self {
        Self {
            slots: s.slots,
            free: s.free,
        }
    }
}
