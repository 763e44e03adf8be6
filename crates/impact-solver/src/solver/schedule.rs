//! The order the Gauss-Seidel sweeps visit rows in: the given order, cut into chunks of up to
//! [`LANES`] rows that share no body.
//!
//! A sweep's result depends only on the order in which each body sees its rows, so any order
//! that keeps each body's order gives the same result bit for bit. Rows without a body in
//! common can then be worked on side by side, instead of each waiting out the latency of the
//! impulse the previous one wrote into the bodies' velocities (in the given order, neighbours
//! in a stack nearly always share a body). Every kind of row that sweeps over bodies uses it:
//! the contacts' passes (four at a time in SIMD lanes), the restitution pass (one at a time,
//! but with independent neighbours).

/// Rows solved together by a sweep (a chunk of [`schedule`]): enough independent chains to
/// keep the processor busy while each waits on its own latency, and the lanes of the
/// contacts' four-wide vectors.
pub(crate) const LANES: usize = 4;

/// [`schedule`]'s result and working arrays, kept for their storage.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepOrder {
    /// The rows in the order the sweeps visit them.
    pub(crate) order: Vec<u32>,
    /// Where each chunk starts in `order`, and where the last ends.
    pub(crate) chunk_starts: Vec<u32>,
    /// Per body: the first chunk its next row may join.
    next_chunk: Vec<u32>,
    /// Per chunk: its rows and how many there are.
    members: Vec<([u32; LANES], usize)>,
    /// Per chunk: itself if it has room, else a later chunk to look at instead.
    room: Vec<u32>,
    /// From [`colour`]: where each colour's chunks start in the chunks, and where the last
    /// ends (one more entry than colours); empty from [`schedule`].
    pub(crate) colour_starts: Vec<u32>,
    /// Per body: the colours its updates took so far, a bit per colour below [`COLOURS`].
    taken: Vec<u64>,
    /// Per body: the first overflow colour (counted from [`COLOURS`]) its next update may
    /// take.
    next_overflow: Vec<u32>,
    /// Per update: its colour.
    colours: Vec<u32>,
    /// Per colour: where its updates start in `order` (one more entry than colours).
    colour_offsets: Vec<u32>,
}

impl SweepOrder {
    /// The arrays, emptied.
    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.chunk_starts.clear();
        self.next_chunk.clear();
        self.members.clear();
        self.room.clear();
        self.colour_starts.clear();
        self.taken.clear();
        self.next_overflow.clear();
        self.colours.clear();
        self.colour_offsets.clear();
    }
}

/// An order of `updates`, each given by the two bodies it reads and writes (indices below
/// `body_count`), cut into chunks of up to [`LANES`] updates without a body in common, in
/// which each body sees its updates in the given order.
///
/// Each update, in the given order, joins the first chunk with room that comes after every
/// chunk holding an earlier update of either of its bodies (bodies of infinite mass included,
/// so even the sign of a zero velocity is unchanged), and the sweeps visit the chunks in turn.
///
/// Leaves in `work` the order and where each chunk starts in it (one more entry than chunks).
pub(crate) fn schedule(
    updates: impl Iterator<Item = (u32, u32)>,
    body_count: usize,
    work: &mut SweepOrder,
) {
    work.clear();
    let SweepOrder {
        order,
        chunk_starts,
        next_chunk: next,
        members: chunks,
        room,
        ..
    } = work;
    // The first chunk each body's next update may join.
    next.resize(body_count, 0);
    // `room[k] == k`: chunk k has room; else a later chunk to look at instead (full chunks
    // are skipped with path compression, so placing every update stays near linear).
    let mut count = 0;
    for (i, (a, b)) in updates.enumerate() {
        let (a, b) = (a as usize, b as usize);
        count += 1;
        let first = next[a].max(next[b]) as usize;
        let mut k = first;
        while k < room.len() && room[k] as usize != k {
            k = room[k] as usize;
        }
        let mut x = first;
        while x < k {
            let after = room[x] as usize;
            room[x] = k as u32;
            x = after;
        }
        if k == chunks.len() {
            chunks.push(([0; LANES], 0));
            room.push(k as u32);
        }
        let (members, len) = &mut chunks[k];
        members[*len] = i as u32;
        *len += 1;
        if *len == LANES {
            room[k] = k as u32 + 1;
        }
        next[a] = k as u32 + 1;
        next[b] = k as u32 + 1;
    }
    order.reserve(count);
    chunk_starts.reserve(chunks.len() + 1);
    chunk_starts.push(0);
    for (members, len) in chunks.iter() {
        order.extend_from_slice(&members[..*len]);
        chunk_starts.push(order.len() as u32);
    }
}

/// Colours a greedy colouring takes before it overflows: one bit each in a body's `u64`.
pub(crate) const COLOURS: usize = 64;

/// An order of `updates`, each given by its two bodies (indices below `body_count`) and
/// whether it writes each of them, grouped by colour: no two updates of a colour write the
/// same body, and no update of a colour reads a body another writes. Within a colour the
/// updates are therefore independent, and a colour's updates can be visited in any order or
/// at once on several threads with the same result bit for bit; each body sees its updates
/// in colour order. Bodies of infinite mass are read but never written (an impulse changes
/// nothing of them), so any number of updates of a colour share them: a pyramid's ground does
/// not need a colour per box standing on it.
///
/// Each update, in the given order, takes the lowest colour that neither of the bodies it
/// writes has taken (the greedy colouring of Box2D v3's constraint graph); past [`COLOURS`]
/// colours a body's further updates overflow into colours numbered on from there, each after
/// the last overflow colour of either body, so the colouring never fails. The colours are then
/// cut into chunks of up to [`LANES`] updates in the given order.
///
/// Leaves in `work` the order, where each chunk starts in it (one more entry than chunks),
/// and where each colour's chunks start (one more entry than colours).
pub(crate) fn colour(
    updates: impl Iterator<Item = (u32, u32, bool, bool)>,
    body_count: usize,
    work: &mut SweepOrder,
) {
    work.clear();
    let SweepOrder {
        order,
        chunk_starts,
        colour_starts,
        taken,
        next_overflow,
        colours,
        colour_offsets: starts,
        ..
    } = work;
    taken.resize(body_count, 0);
    next_overflow.resize(body_count, 0);
    let mut colour_count = 0;
    for (a, b, writes_a, writes_b) in updates {
        let (a, b) = (a as usize, b as usize);
        let mut busy = 0;
        if writes_a {
            busy |= taken[a];
        }
        if writes_b {
            busy |= taken[b];
        }
        let c = if busy != u64::MAX {
            let c = (!busy).trailing_zeros();
            let bit = 1 << c;
            if writes_a {
                taken[a] |= bit;
            }
            if writes_b {
                taken[b] |= bit;
            }
            c
        } else {
            let level = next_overflow[a].max(next_overflow[b]);
            // Only written bodies order the overflow colours; a body of infinite mass with
            // a full colour mask cannot occur (it takes no colour).
            next_overflow[a] = level + 1;
            next_overflow[b] = level + 1;
            COLOURS as u32 + level
        };
        colour_count = colour_count.max(c as usize + 1);
        colours.push(c);
    }
    // A counting sort by colour, stable, so each colour keeps the given order.
    starts.resize(colour_count + 1, 0);
    for &c in colours.iter() {
        starts[c as usize + 1] += 1;
    }
    for k in 0..colour_count {
        starts[k + 1] += starts[k];
    }
    order.resize(colours.len(), 0);
    // `starts[c]` walks through colour c's places, then is set back.
    for (i, &c) in colours.iter().enumerate() {
        order[starts[c as usize] as usize] = i as u32;
        starts[c as usize] += 1;
    }
    for k in (1..=colour_count).rev() {
        starts[k] = starts[k - 1];
    }
    starts[0] = 0;
    chunk_starts.push(0);
    colour_starts.push(0);
    for k in 0..colour_count {
        let (start, end) = (starts[k], starts[k + 1]);
        let mut at = start;
        while at < end {
            at = (at + LANES as u32).min(end);
            chunk_starts.push(at);
        }
        colour_starts.push(chunk_starts.len() as u32 - 1);
    }
}
