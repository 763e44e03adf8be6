//! The seams of a concave outline's pieces (`ConvexPolygon::seams`): over seeded outlines
//! (stars, untangled, combs, an L, a U, outlines under a flat top, with flat sides dented by
//! a hair), every edge of every piece is internal exactly when its ends are not neighbours on
//! the outline; each internal edge is shared, reversed, with exactly one other piece, and each
//! edge of the outline is an outer edge of exactly one piece; a seam's points are the
//! outline's neighbours of its ends, and the outline's normals a piece keeps at each vertex
//! are, bit for bit, the normals of the pieces whose outer edges the outline runs along
//! there. A piece that is the whole outline has no seams. Bad seams are refused by field;
//! seams survive rounding and serde, and a polygon without them serializes as before.

use impact_geometry::{ConcaveOutline, ConvexPolygon, GeometryError, Point, Real, Seam, Vector};
use impact_testkit::SplitMix64;
use impact_testkit::outlines;

fn p(x: Real, y: Real) -> Point {
    Point::new(x, y)
}

/// The seeded outlines the checks run over.
fn test_outlines() -> Vec<Vec<Point>> {
    let mut rng = SplitMix64::new(0x5ea3_0001);
    let mut all = vec![
        outlines::ell(3.0, 1.0),
        outlines::you(3.0, 2.0, 1.0),
        outlines::upside_down(&outlines::ell(3.0, 1.0)),
    ];
    for k in 0..12 {
        let c = Vector::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        all.push(outlines::star(&mut rng, 5 + 3 * k, c, 2.0));
        all.push(outlines::untangled(&mut rng, 6 + 2 * k, c, 2.0));
        all.push(outlines::comb(&mut rng, 1 + k % 5, c, 3.0));
        let top = outlines::under_flat_top(&mut rng, 4.0, 2 + k % 6);
        let edge = top.len() - 1;
        all.push(outlines::dented(&mut rng, &top, edge, 1 + k % 4, 1e-5));
    }
    all
}

#[test]
fn seams_are_the_diagonals_with_the_outline_on_either_side() {
    let mut internal_edges = 0usize;
    for outline in test_outlines() {
        let shape = ConcaveOutline::new(&outline).unwrap();
        let vertices = shape.vertices();
        let n = vertices.len();
        let pieces = shape.convex_pieces();
        let indices = shape.piece_indices();
        // (from, to) outline indices of every edge of every piece, with its piece and edge.
        let mut edges: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (k, (piece, idx)) in pieces.iter().zip(&indices).enumerate() {
            let m = idx.len();
            assert_eq!(piece.vertices().len(), m);
            let seams = piece.seams();
            assert_eq!(piece.has_seams(), !seams.is_empty());
            let mut listed = seams.iter();
            for e in 0..m {
                let (u, v) = (idx[e], idx[(e + 1) % m]);
                edges.push((u, v, k, e));
                let outer = (u + 1) % n == v;
                assert_eq!(piece.is_internal_edge(e), !outer, "piece {k} edge {e}");
                if !outer {
                    internal_edges += 1;
                    let seam = listed.next().expect("every internal edge is a seam");
                    assert_eq!(seam.edge, e);
                    assert_eq!(seam.after_start, vertices[(u + 1) % n]);
                    assert_eq!(seam.before_end, vertices[(v + n - 1) % n]);
                }
            }
            assert!(listed.next().is_none(), "a seam on an outer edge");
            assert!(!piece.is_internal_edge(m), "past the last edge");
        }
        // Each internal edge once each way; each outline edge an outer edge exactly once.
        for &(u, v, k, _) in &edges {
            let reverse = edges
                .iter()
                .filter(|&&(a, b, _, _)| (a, b) == (v, u))
                .count();
            let same = edges
                .iter()
                .filter(|&&(a, b, _, _)| (a, b) == (u, v))
                .count();
            assert_eq!(same, 1, "edge {u} -> {v} twice");
            if (u + 1) % n == v {
                assert_eq!(reverse, 0);
            } else {
                assert_eq!(reverse, 1, "internal edge {u} -> {v} of piece {k} unshared");
            }
        }
        for i in 0..n {
            let count = edges
                .iter()
                .filter(|&&(a, b, _, _)| (a, b) == (i, (i + 1) % n))
                .count();
            assert_eq!(count, 1, "outline edge {i}");
        }
        // The outline's normals at each vertex of each piece: the owners' own, bit for bit.
        let owner_normal = |i: usize| -> Vector {
            let &(_, _, k, e) = edges
                .iter()
                .find(|&&(a, b, _, _)| (a, b) == (i, (i + 1) % n))
                .unwrap();
            pieces[k].normals()[e]
        };
        for (piece, idx) in pieces.iter().zip(&indices) {
            for (j, &i) in idx.iter().enumerate() {
                let [coming, going] = piece.outline_normals(j);
                let (c, g) = (owner_normal((i + n - 1) % n), owner_normal(i));
                assert_eq!(
                    (coming.x.to_bits(), coming.y.to_bits()),
                    (c.x.to_bits(), c.y.to_bits())
                );
                assert_eq!(
                    (going.x.to_bits(), going.y.to_bits()),
                    (g.x.to_bits(), g.y.to_bits())
                );
            }
        }
        // The capped pieces carry their seams too.
        for piece in shape.convex_pieces_with_at_most(4).unwrap() {
            for seam in piece.seams() {
                assert!(piece.is_internal_edge(seam.edge));
            }
            let any = (0..piece.vertices().len()).any(|e| piece.is_internal_edge(e));
            assert_eq!(any, piece.has_seams());
        }
    }
    assert!(
        internal_edges > 500,
        "{internal_edges} internal edges checked"
    );
}

#[test]
fn a_convex_outline_is_one_piece_without_seams() {
    let square = [p(0.0, 0.0), p(2.0, 0.0), p(2.0, 2.0), p(0.0, 2.0)];
    let pieces = ConcaveOutline::new(&square).unwrap().convex_pieces();
    assert_eq!(pieces.len(), 1);
    assert!(!pieces[0].has_seams());
    assert_eq!(pieces[0], ConvexPolygon::new(&square).unwrap());
    // Its outline normals are its own.
    assert_eq!(
        pieces[0].outline_normals(0),
        [Vector::new(-1.0, 0.0), Vector::new(0.0, -1.0)]
    );
}

#[test]
fn bad_seams_are_refused_by_field() {
    let quad = ConvexPolygon::new(&[p(0.0, 0.0), p(3.0, 0.0), p(3.0, 1.0), p(1.0, 1.0)]).unwrap();
    let seam = |edge: usize, after_start: Point, before_end: Point| Seam {
        edge,
        after_start,
        before_end,
    };
    let good = seam(3, p(1.0, 3.0), p(0.0, 3.0));
    assert!(quad.clone().with_seams(&[good]).is_ok());
    let field = |e: GeometryError| match e {
        GeometryError::OutOfRange { field, .. }
        | GeometryError::NotFinite { field, .. }
        | GeometryError::RepeatedPoint { field, .. } => field,
        other => panic!("{other:?}"),
    };
    let cases = [
        (
            vec![seam(4, p(1.0, 3.0), p(0.0, 3.0))],
            "polygon.seams[0].edge",
        ),
        (
            vec![good, seam(2, p(1.0, 3.0), p(0.0, 3.0))],
            "polygon.seams[1].edge",
        ),
        (vec![good, good], "polygon.seams[1].edge"),
        (
            vec![seam(3, p(Real::NAN, 3.0), p(0.0, 3.0))],
            "polygon.seams[0].after_start.x",
        ),
        (
            vec![seam(3, p(1.0, 3.0), p(0.0, Real::INFINITY))],
            "polygon.seams[0].before_end.y",
        ),
        (
            vec![seam(3, p(1.0, 1.0), p(0.0, 3.0))],
            "polygon.seams[0].after_start",
        ),
        (
            vec![seam(3, p(1.0, 3.0), p(0.0, 0.0))],
            "polygon.seams[0].before_end",
        ),
    ];
    for (seams, expected) in cases {
        let err = quad.clone().with_seams(&seams).unwrap_err();
        let message = err.to_string();
        assert_eq!(field(err), expected, "{message}");
    }
}

#[test]
fn seams_survive_rounding_and_can_be_cleared() {
    let pieces = ConcaveOutline::new(&outlines::ell(3.0, 1.0))
        .unwrap()
        .convex_pieces();
    let piece = pieces[0].clone();
    assert!(piece.has_seams());
    let rounded = piece.clone().with_radius(0.1).unwrap();
    assert_eq!(rounded.seams(), piece.seams());
    assert_eq!(rounded.outline_normals(0), piece.outline_normals(0));
    let plain = piece.clone().with_seams(&[]).unwrap();
    assert!(!plain.has_seams());
    assert_eq!(plain, ConvexPolygon::new(piece.vertices()).unwrap());
}

#[cfg(feature = "serde")]
#[test]
fn seams_round_trip_and_a_polygon_without_them_is_written_as_before() {
    use impact_geometry::Shape;
    let pieces: Vec<Shape> = ConcaveOutline::new(&outlines::you(3.0, 2.0, 1.0))
        .unwrap()
        .convex_pieces()
        .into_iter()
        .map(Shape::from)
        .collect();
    let json = serde_json::to_string(&pieces).unwrap();
    assert!(json.contains("\"seams\""), "{json}");
    let back: Vec<Shape> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, pieces);
    let plain = Shape::from(ConvexPolygon::rectangle(1.0, 0.5).unwrap());
    let json = serde_json::to_string(&plain).unwrap();
    assert!(!json.contains("seams"), "{json}");
    let bad = r#"{"type":"polygon","vertices":[[0,0],[3,0],[3,1],[1,1]],"seams":[{"edge":7,"after_start":[1,3],"before_end":[0,3]}]}"#;
    let err = serde_json::from_str::<Shape>(bad).unwrap_err();
    assert!(err.to_string().contains("polygon.seams[0].edge"), "{err}");
}
