//! Chains and concave outlines in scene files: the two shape types that stand for several
//! shapes of a body, read with their errors at the file's paths, and the body's shapes
//! gathered into the entries its file is written with.
//!
//! - `chain` (`points`, `closed`, and for an open chain `ghost_before`, `ghost_after`) is
//!   a [`Chain`]: it stands for the chain's one-sided segments, segment `i` from `points[i]`
//!   to the next, each a shape of the body
//!   ([`RigidBodyDef::from_chain`](impact_solver::RigidBodyDef::from_chain) makes the same
//!   shapes). An open chain's end ghosts are its ends continued straight on unless given
//!   (Box2D v2.4's `prevVertex` and `nextVertex`): a chain that goes on in another body, or
//!   past a neighbour of another material, runs smoothly over the joint.
//! - `outline` (`points`) is a [`ConcaveOutline`]: it stands for the outline's convex
//!   pieces, each a polygon of the body (as
//!   [`RigidBodyDef::from_outline`](impact_solver::RigidBodyDef::from_outline), with at most
//!   [`MAX_POLYGON_VERTICES`] vertices a piece so that every piece can be written as a
//!   polygon of the file).
//! - `chain_segment` (`a`, `b`, `ghost_before`, `ghost_after`) is one [`ChainSegment`], so
//!   that any body of chain segments is written exactly.
//!
//! A body is written with one entry per shape, except that a run of consecutive chain
//! segments with the same density, material, filter, sensor flag and force threshold that
//! makes one chain (each segment's end, ghost after and start matching the next one's
//! start, end and ghost before, and the chain through their points giving the same
//! segments bit for bit) is written as that `chain`, with its end ghosts where they are not
//! its ends continued. So a chain read from a file is written back as it was given, a chain
//! whose segment `k` has another material as three chains (the middle one a single
//! segment, written as a `chain_segment`), and a chain segment with ghosts set by hand
//! that match no neighbour as a `chain_segment`. An outline is written as its pieces: the
//! body keeps no outline, only its convex pieces.

use crate::error::{SceneError, remap, required};
use crate::file::ShapeFile;
use crate::read;
use crate::scene::MAX_POLYGON_VERTICES;
use crate::write;
use impact_geometry::{
    Chain, ChainSegment, ConcaveOutline, GeometryError, Isometry, Point, Shape, Vector,
};
use impact_solver::ShapeDef;

/// For a shape type that stands for several shapes, the type that is one of them (the
/// advice given where only one shape is allowed); `None` for the other types.
pub(crate) fn one_of(kind: &str) -> Option<&'static str> {
    match kind {
        "chain" => Some("a chain_segment"),
        "outline" => Some("a polygon"),
        _ => None,
    }
}

/// The shapes the `chain` or `outline` (`kind`) at `path` stands for, in order, its points
/// first moved by `by` (an entry's `offset`: the chain or outline is the one through the
/// moved points).
///
/// # Errors
/// [`SceneError`] naming `{path}.points` (missing, too few, on one line) or
/// `{path}.points[i]` (repeated, self-intersecting: the message names the other point).
pub(crate) fn read_several(
    s: &ShapeFile,
    kind: &str,
    path: &str,
    by: Option<&Isometry>,
) -> Result<Vec<Shape>, SceneError> {
    let field = format!("{path}.points");
    let given = s.points.as_deref().ok_or_else(|| {
        let what = if kind == "chain" {
            "a chain needs its points, [[x, y], ...] (its solid side to the right of each segment)"
        } else {
            "an outline needs its points, [[x, y], ...] (a simple polygon, either winding)"
        };
        required(&field, what)
    })?;
    let points: Vec<Point> = given
        .iter()
        .map(|&[x, y]| {
            let p = Point::new(x, y);
            by.map_or(p, |by| by * p)
        })
        .collect();
    if kind == "chain" {
        let chain = Chain::new(&points, s.closed.unwrap_or(false))
            .map_err(|e| renamed(e, "chain.points", &field))?;
        let mut segments: Vec<ChainSegment> = chain.segments().collect();
        let moved = |xy: Option<[f64; 2]>| {
            xy.map(|[x, y]| {
                let p = Point::new(x, y);
                by.map_or(p, |by| by * p)
            })
        };
        end_ghosts(
            &mut segments,
            chain.is_closed(),
            [moved(s.ghost_before), moved(s.ghost_after)],
            path,
        )?;
        let given = [s.ghost_before.is_some(), s.ghost_after.is_some()];
        in_range(&segments, points.len(), given, path)?;
        Ok(segments.into_iter().map(Shape::from).collect())
    } else {
        let outline = ConcaveOutline::new(&points).map_err(|e| renamed(e, "outline", &field))?;
        let pieces = outline
            .convex_pieces_with_at_most(MAX_POLYGON_VERTICES)
            .map_err(|e| renamed(e, "outline", &field))?;
        Ok(pieces.into_iter().map(Shape::from).collect())
    }
}

/// Checks that the chain at `path` (its `segments`, through `count` points; `given` says
/// which end ghosts the file gave) stays within the range of an `f64`: each segment's direction, and its ends
/// continued to its ghosts, finite. Points far enough apart pass the chain's own checks yet
/// leave a segment whose direction, or an end's ghost (the end continued by the end
/// segment's length), overflows, which no query could use.
///
/// # Errors
/// Naming `{path}.points[i]`, the end of a segment longer than an `f64` holds, or the end
/// of an open chain whose ghost overflows; or `{path}.ghost_before` / `.ghost_after` if the
/// file gave that ghost.
fn in_range(
    segments: &[ChainSegment],
    count: usize,
    given: [bool; 2],
    path: &str,
) -> Result<(), SceneError> {
    let finite = |v: Vector| v.x.is_finite() && v.y.is_finite();
    let n = segments.len();
    for (k, s) in segments.iter().enumerate() {
        if !finite(s.direction()) {
            return Err(SceneError::new(
                format!("{path}.points[{}]", (k + 1) % count),
                format!(
                    "is too far from {path}.points[{k}]: the segment between them is longer than an f64 holds"
                ),
            ));
        }
    }
    // An open chain's ends (a closed chain's ghosts are its points, checked above).
    let ends = [
        (
            segments[0].a() - segments[0].ghost_before(),
            "ghost_before",
            0,
        ),
        (
            segments[n - 1].ghost_after() - segments[n - 1].b(),
            "ghost_after",
            count - 1,
        ),
    ];
    for (i, (d, name, point)) in ends.into_iter().enumerate() {
        if finite(d) {
            continue;
        }
        return Err(if given[i] {
            SceneError::new(
                format!("{path}.{name}"),
                format!(
                    "is too far from {path}.points[{point}]: their distance is more than an f64 holds"
                ),
            )
        } else {
            SceneError::new(
                format!("{path}.points[{point}]"),
                format!(
                    "is the end of an open chain whose end segment, continued as far again (the end's ghost), leaves the range of an f64: give {name}"
                ),
            )
        });
    }
    Ok(())
}

/// Gives the end segments of an open chain (the `segments` of the chain at `path`) the
/// ghosts `[before, after]` where they are given, in place of the ends continued straight
/// on: where the chain goes on in another body, or past a neighbour of another material.
///
/// # Errors
/// Naming `{path}.ghost_before` or `.ghost_after`: given for a closed chain (which has no
/// ends), or the same point as the end it continues.
fn end_ghosts(
    segments: &mut [ChainSegment],
    closed: bool,
    [before, after]: [Option<Point>; 2],
    path: &str,
) -> Result<(), SceneError> {
    let last = segments.len() - 1;
    for (name, ghost, k) in [("ghost_before", before, 0), ("ghost_after", after, last)] {
        let Some(ghost) = ghost else { continue };
        let field = format!("{path}.{name}");
        if closed {
            return Err(SceneError::new(
                field,
                "a closed chain has no ends: its ghosts are its own points",
            ));
        }
        let s = segments[k];
        let (before, after) = if k == 0 && name == "ghost_before" {
            (ghost, s.ghost_after())
        } else {
            (s.ghost_before(), ghost)
        };
        segments[k] = ChainSegment::new(before, s.a(), s.b(), after).map_err(|_| {
            let end = if name == "ghost_before" { 0 } else { last + 1 };
            SceneError::new(
                field,
                format!(
                    "the same point as {path}.points[{end}] (a ghost must differ from the end it continues)"
                ),
            )
        })?;
    }
    Ok(())
}

/// A geometry error whose fields start with `from` (`chain.points[4]`, `outline[2]`), as a
/// [`SceneError`] at `to` instead: the field it names, and the other point a repeated or
/// self-intersecting point is compared with, in its message.
pub(crate) fn renamed(e: GeometryError, from: &str, to: &str) -> SceneError {
    let swap = |f: String| match f.strip_prefix(from) {
        Some(rest) if rest.is_empty() || rest.starts_with(['.', '[']) => format!("{to}{rest}"),
        _ => f,
    };
    let e = match e {
        GeometryError::RepeatedPoint { field, same_as } => GeometryError::RepeatedPoint {
            field,
            same_as: swap(same_as),
        },
        GeometryError::SelfIntersecting { field, other } => GeometryError::SelfIntersecting {
            field,
            other: swap(other),
        },
        other => other,
    };
    remap(&e, from, to)
}

/// One entry of a body as it is written: shapes `start .. start + len` of the body (its
/// own first shape being shape 0), as the shape object `geometry` of type `kind`.
pub(crate) struct Entry {
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) kind: &'static str,
    pub(crate) geometry: ShapeFile,
}

/// The entries `shapes` (every shape of a body, in order) are written as: each run of two or
/// more chain segments that makes one chain as a `chain` (its end ghosts given where they
/// are not the ends continued), every other shape on its own, a single chain segment as a
/// `chain` of two points if its ghosts continue it straight on and as a `chain_segment`
/// otherwise (see the module docs).
pub(crate) fn entries(shapes: &[ShapeDef]) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < shapes.len() {
        let run = linked_run(&shapes[k..]);
        if let Some(geometry) = as_chain(&shapes[k..k + run]) {
            out.push(Entry {
                start: k,
                len: run,
                kind: "chain",
                geometry,
            });
            k += run;
            continue;
        }
        for (i, s) in shapes[k..k + run.max(1)].iter().enumerate() {
            out.push(Entry {
                start: k + i,
                len: 1,
                kind: read::shape_name(&s.shape),
                geometry: write::shape(&s.shape),
            });
        }
        k += run.max(1);
    }
    out
}

/// How many shapes from the start of `shapes` are chain segments, each linked to the one
/// before it (see [`links`]) and with its fields: zero if the first is not a chain segment.
fn linked_run(shapes: &[ShapeDef]) -> usize {
    let Some(Shape::ChainSegment(first)) = shapes.first().map(|s| &s.shape) else {
        return 0;
    };
    let (mut last, mut run) = (*first, 1);
    for s in &shapes[1..] {
        match &s.shape {
            Shape::ChainSegment(next) if links(&last, next) && same_fields(&shapes[0], s) => {
                run += 1;
                last = *next;
            }
            _ => break,
        }
    }
    run
}

/// Whether `next` follows `seg` in a chain: it starts where `seg` ends, `seg`'s ghost after
/// is its end, and its ghost before is `seg`'s start, all bit for bit.
fn links(seg: &ChainSegment, next: &ChainSegment) -> bool {
    same_point(seg.b(), next.a())
        && same_point(seg.ghost_after(), next.b())
        && same_point(next.ghost_before(), seg.a())
}

/// The `chain` object of `run` (linked chain segments), if the chain through their points
/// is valid and gives them back bit for bit: closed if the last segment links to the first,
/// else open with the end ghosts that are not the ends continued (a single segment only
/// without them: with them it is a `chain_segment`).
fn as_chain(run: &[ShapeDef]) -> Option<ShapeFile> {
    let segments: Vec<ChainSegment> = run
        .iter()
        .map(|s| match &s.shape {
            Shape::ChainSegment(c) => Some(*c),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (first, last) = (*segments.first()?, *segments.last()?);
    let starts = segments.iter().map(ChainSegment::a);
    if segments.len() >= 3 && links(&last, &first) {
        let chain = Chain::closed(&starts.collect::<Vec<_>>()).ok()?;
        let same = chain
            .segments()
            .zip(&segments)
            .all(|(x, y)| same_segment(&x, y));
        return (same && chain.segment_count() == segments.len()).then(|| ShapeFile {
            kind: Some("chain".to_owned()),
            points: Some(chain.points().iter().map(|p| [p.x, p.y]).collect()),
            closed: Some(true),
            ..ShapeFile::default()
        });
    }
    let chain = Chain::open(&starts.chain([last.b()]).collect::<Vec<_>>()).ok()?;
    let mut built: Vec<ChainSegment> = chain.segments().collect();
    let given = |ours: Point, theirs: Point| (!same_point(ours, theirs)).then_some(theirs);
    let before = given(built[0].ghost_before(), first.ghost_before());
    let after = given(built[built.len() - 1].ghost_after(), last.ghost_after());
    if segments.len() == 1 && (before.is_some() || after.is_some()) {
        return None;
    }
    end_ghosts(&mut built, false, [before, after], "").ok()?;
    let same = built.len() == segments.len()
        && built.iter().zip(&segments).all(|(x, y)| same_segment(x, y));
    let xy = |p: Point| [p.x, p.y];
    same.then(|| ShapeFile {
        kind: Some("chain".to_owned()),
        points: Some(chain.points().iter().map(|&p| xy(p)).collect()),
        ghost_before: before.map(xy),
        ghost_after: after.map(xy),
        ..ShapeFile::default()
    })
}

/// Equal to the bit, ghosts included.
fn same_segment(x: &ChainSegment, y: &ChainSegment) -> bool {
    same_point(x.ghost_before(), y.ghost_before())
        && same_point(x.a(), y.a())
        && same_point(x.b(), y.b())
        && same_point(x.ghost_after(), y.ghost_after())
}

fn same_point(p: Point, q: Point) -> bool {
    p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits()
}

/// Whether two shapes have the same density, material, filter, sensor flag and force
/// threshold, to the bit (one entry gives all of them once).
pub(crate) fn same_fields(x: &ShapeDef, y: &ShapeDef) -> bool {
    x.density.to_bits() == y.density.to_bits()
        && x.friction.to_bits() == y.friction.to_bits()
        && x.restitution.to_bits() == y.restitution.to_bits()
        && x.filter == y.filter
        && x.sensor == y.sensor
        && x.contact_force_threshold.map(f64::to_bits)
            == y.contact_force_threshold.map(f64::to_bits)
}
