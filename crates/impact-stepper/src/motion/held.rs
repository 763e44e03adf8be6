//! The pairs the contact solver holds in a step, as the CCD steppers ask about them: whether
//! the solver holds a pair at all (asked for every neighbour a plan meets, so kept per slot
//! rather than searched for), its manifold's normal (the side each body belongs on), and
//! whether its targets closed in past what a soft contact gives under a load, in which case
//! the solver did not hold it and its meeting is planned like any other pair's.

use impact_geometry::{Isometry, Point, Real, Vector};
use impact_solver::{BodySet, ContactPair};

/// A slot with more partners than this keeps them sorted and is searched by halves; fewer are
/// scanned.
const SCANNED: usize = 16;

/// The pairs of slots the contact solver holds in a step, listed by their smaller slot.
///
/// A plan asks whether the solver holds a pair for every neighbour it meets: a binary
/// search over the whole contact pairs (a few hundred bytes each) misses the cache at
/// every probe in a large world, where this reads one slot's few partners.
#[derive(Debug, Clone, Default)]
pub(crate) struct HeldPairs {
    /// Per slot, and one past the last: where its partners start in `partners`.
    start: Vec<u32>,
    /// The larger slot of each pair, grouped by the smaller.
    partners: Vec<u32>,
    /// The pairs kept by the last rebuild, (smaller slot, larger slot): its storage, reused
    /// from step to step.
    kept: Vec<(u32, u32)>,
    /// The pairs with a contact the last rebuild did not keep, sorted.
    dropped: Vec<(u32, u32)>,
}

impl HeldPairs {
    /// Lists the pairs of `contacts` (in any order).
    #[cfg(test)]
    pub fn rebuild(&mut self, contacts: &[ContactPair]) {
        self.rebuild_where(contacts, |_| true, |_| false);
    }

    /// Lists the pairs of `contacts` (in any order) that pass `keep`, asked once per contact.
    /// A pair of bodies of which `several` says one has several shapes has a contact per
    /// shape pair, and is listed only if every one of them passes: the solver holds the pair
    /// only if it holds every shape pair. (A pair met through two images of a periodic domain
    /// is listed if one of its contacts passes.)
    pub fn rebuild_where(
        &mut self,
        contacts: &[ContactPair],
        keep: impl Fn(&ContactPair) -> bool,
        several: impl Fn(&ContactPair) -> bool,
    ) {
        self.kept.clear();
        self.dropped.clear();
        for c in contacts {
            let (a, b) = (c.a.index, c.b.index);
            let pair = if a < b { (a, b) } else { (b, a) };
            if keep(c) {
                self.kept.push(pair);
            } else if several(c) {
                self.dropped.push(pair);
            }
        }
        if !self.dropped.is_empty() {
            self.dropped.sort_unstable();
            let dropped = &self.dropped;
            self.kept.retain(|p| dropped.binary_search(p).is_err());
        }
        let slots = self.kept.iter().map(|&(lo, _)| lo as usize + 1).max();
        self.start.clear();
        self.start.resize(slots.unwrap_or(0) + 1, 0);
        for &(lo, _) in &self.kept {
            self.start[lo as usize + 1] += 1;
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.partners.clear();
        self.partners.resize(self.kept.len(), 0);
        // Filled from each slot's start, which moves one place along per partner (and
        // ends at the next slot's start, where the counting put it).
        for &(lo, hi) in &self.kept {
            let at = &mut self.start[lo as usize];
            self.partners[*at as usize] = hi;
            *at += 1;
        }
        // Each start now holds the next slot's: shifted back by one place.
        self.start.rotate_right(1);
        self.start[0] = 0;
        // A body many rest on (one static ground of many shapes) has hundreds of partners:
        // sorted, they are searched by halves (see `holds`).
        for w in self.start.windows(2) {
            let partners = &mut self.partners[w[0] as usize..w[1] as usize];
            if partners.len() > SCANNED {
                partners.sort_unstable();
            }
        }
    }

    /// Whether the pair of slots `x` and `y` (either order) is listed.
    pub fn holds(&self, x: u32, y: u32) -> bool {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        let lo = lo as usize;
        match (self.start.get(lo), self.start.get(lo + 1)) {
            (Some(&from), Some(&to)) => {
                let partners = &self.partners[from as usize..to as usize];
                if partners.len() > SCANNED {
                    partners.binary_search(&hi).is_ok()
                } else {
                    partners.contains(&hi)
                }
            }
            _ => false,
        }
    }
}

/// Whether the contact solver's targets bring the pair of `c` together along its normal, at
/// one of its points, by more than the separation the manifold had there plus a slack (the
/// larger of `tolerance` and a quarter of the smaller body's bounding radius): a contact the
/// soft solver did not hold. `start` holds the poses at the start of the step by slot; the
/// bodies are at their targets.
pub(crate) fn closes_in(
    bodies: &BodySet,
    start: &[Option<Isometry>],
    c: &ContactPair,
    tolerance: Real,
) -> bool {
    let (Some(a), Some(b)) = (bodies.get(c.a), bodies.get(c.b)) else {
        return false;
    };
    let (Some(Some(start_a)), Some(Some(start_b))) =
        (start.get(c.a.index as usize), start.get(c.b.index as usize))
    else {
        return false;
    };
    // Soft contacts close in a little under a load and push out again: only a quarter of
    // the smaller body's bounding radius beyond that counts.
    let slack = tolerance.max(
        0.25 * a
            .bounding_radius(&a.local_center())
            .min(b.bounding_radius(&b.local_center())),
    );
    // How far the material point at `at` moved over the step.
    let moved =
        |from: &Isometry, to: &Isometry, at: Point| to * from.inverse_transform_point(&at) - at;
    c.manifold.points().iter().any(|p| {
        let (at_a, at_b) = (p.point, p.point - c.offset);
        let closing = (moved(start_a, a.pose(), at_a) - moved(start_b, b.pose(), at_b))
            .dot(&c.manifold.normal);
        closing > p.separation.max(0.0) + slack
    })
}

/// The step's contacts ordered by the slots of their bodies, smaller first, as
/// [`held_contact`] looks them up: the world's own order (by proxy) where every body has one
/// shape, and otherwise a sorted copy, since a further shape's proxy index says nothing of
/// its body's slot. Kept from step to step for its storage.
#[derive(Debug, Clone, Default)]
pub(crate) struct BySlots {
    sorted: Vec<ContactPair>,
    /// Each contact's key and place, sorted: a contact is a few hundred bytes, which a sort
    /// would move about `log n` times each; the keys are sorted instead, and each contact
    /// copied once.
    order: Vec<((u32, u32), u32)>,
    own: bool,
}

/// The key [`BySlots`] orders a contact by: its bodies' slots, smaller first.
fn slots_key(c: &ContactPair) -> (u32, u32) {
    let (a, b) = (c.a.index, c.b.index);
    if a < b { (a, b) } else { (b, a) }
}

impl BySlots {
    /// Orders `contacts` (a copy only if they are not in order already).
    pub(crate) fn rebuild(&mut self, contacts: &[ContactPair]) {
        self.own = !contacts.is_sorted_by_key(slots_key);
        self.sorted.clear();
        if self.own {
            // By key, then place: the order of a stable sort by key.
            self.order.clear();
            self.order.extend(
                contacts
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (slots_key(c), i as u32)),
            );
            self.order.sort_unstable();
            let order = &self.order;
            self.sorted
                .extend(order.iter().map(|&(_, i)| contacts[i as usize]));
        }
    }

    /// `contacts` (those of the last rebuild) in order.
    pub(crate) fn view<'c>(&'c self, contacts: &'c [ContactPair]) -> &'c [ContactPair] {
        if self.own { &self.sorted } else { contacts }
    }
}

/// The contact of shape `i` of the body of slot `x` and shape `j` of that of slot `y` (any
/// shapes of the pair for `None`), in either order, in `contacts` ordered by slots (see
/// [`BySlots`]), if it is there.
pub(crate) fn held_contact(
    contacts: &[ContactPair],
    (x, i): (u32, Option<u32>),
    (y, j): (u32, Option<u32>),
) -> Option<&ContactPair> {
    let (x, y) = ((x, i), (y, j));
    pair_contacts(contacts, x.0, y.0).find(|c| {
        let (own, other) = if c.a.index == x.0 {
            (c.shapes[0], c.shapes[1])
        } else {
            (c.shapes[1], c.shapes[0])
        };
        x.1.is_none_or(|i| i == own) && y.1.is_none_or(|j| j == other)
    })
}

/// A contact of the bodies of slots `x` and `y` (any of their shapes) in `contacts` ordered
/// by slots whose manifold normal, turned to point from `x` toward `y`, is `normal` to
/// within `cos_tolerance` (the cosine of the angle allowed between them): the contact a
/// time of impact at the start of the step found again when a chain segment or an
/// outline's piece answered a hit at its neighbour's joint with the face that owns it (the
/// neighbour's, whose contact the solver holds), not with its own.
pub(crate) fn held_contact_along<'c>(
    contacts: &'c [ContactPair],
    (x, y): (u32, u32),
    normal: &Vector,
    cos_tolerance: Real,
) -> Option<&'c ContactPair> {
    pair_contacts(contacts, x, y).find(|c| {
        let n = if c.a.index == x {
            c.manifold.normal
        } else {
            -c.manifold.normal
        };
        !c.manifold.is_empty() && n.dot(normal) >= cos_tolerance
    })
}

/// The contacts of the bodies of slots `x` and `y`, in either order, in `contacts` ordered
/// by slots.
fn pair_contacts(contacts: &[ContactPair], x: u32, y: u32) -> impl Iterator<Item = &ContactPair> {
    let key = if x < y { (x, y) } else { (y, x) };
    let range = match contacts.binary_search_by(|c| slots_key(c).cmp(&key)) {
        Err(_) => 0..0,
        Ok(at) => {
            let from = contacts[..at]
                .iter()
                .rposition(|c| slots_key(c) != key)
                .map_or(0, |p| p + 1);
            let to = contacts[at..]
                .iter()
                .position(|c| slots_key(c) != key)
                .map_or(contacts.len(), |p| at + p);
            from..to
        }
    };
    contacts[range].iter()
}

/// The manifold normal of the contact of shape `i` of slot `x` and shape `j` of slot `y`
/// in `contacts` (ordered as for [`held_contact`]), turned to point from `x` toward `y`;
/// `None` if the pair is not there.
pub(crate) fn held_normal(
    contacts: &[ContactPair],
    x: (u32, u32),
    y: (u32, u32),
) -> Option<Vector> {
    let c = held_contact(contacts, (x.0, Some(x.1)), (y.0, Some(y.1)))?;
    Some(if c.a.index == x.0 {
        c.manifold.normal
    } else {
        -c.manifold.normal
    })
}
