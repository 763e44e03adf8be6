//! A [`Picture`] as an SVG document.

use crate::picture::{Colour, DASH, GAP, Item, Layout, Mark, Picture, chain_tick};
use core::fmt::Write as _;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Shape};

/// The SVG document of `picture`.
pub(crate) fn write(picture: &Picture) -> String {
    let layout = picture.layout();
    let (width, height) = (layout.width, layout.height);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&picture.title));
    let _ = writeln!(
        svg,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        Colour::BACKGROUND.hex()
    );
    let _ = writeln!(
        svg,
        r#"<clipPath id="frame"><rect width="{width:.1}" height="{height:.1}"/></clipPath><g clip-path="url(#frame)" fill="none" stroke-linejoin="round">"#
    );
    for item in &picture.items {
        mark(&mut svg, item, &layout);
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

fn mark(svg: &mut String, item: &Item, layout: &Layout) {
    let colour = item.colour.hex();
    let style = format!(
        r#"stroke="{colour}" stroke-width="{}"{}"#,
        item.width,
        stroke_opacity(item.opacity)
    );
    match &item.mark {
        Mark::Path(points) => {
            if points.len() < 2 {
                return;
            }
            let mut d = String::new();
            for (i, p) in points.iter().enumerate() {
                let (x, y) = layout.px(p);
                let _ = write!(d, "{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" });
            }
            let _ = writeln!(svg, r#"<path d="{d}" {style}/>"#);
        }
        Mark::Dashed(points) => {
            if points.len() < 2 {
                return;
            }
            let mut d = String::new();
            for (i, p) in points.iter().enumerate() {
                let (x, y) = layout.px(p);
                let _ = write!(d, "{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" });
            }
            let _ = writeln!(
                svg,
                r#"<path d="{d}" {style} stroke-dasharray="{DASH} {GAP}"/>"#
            );
        }
        Mark::Outline(shape, pose) => outline(svg, shape, pose, layout, &style, item),
    }
}

/// The `stroke-opacity` attribute (with its leading space) of a mark of `opacity`, or
/// nothing for an opaque one.
fn stroke_opacity(opacity: Real) -> String {
    if opacity < 1.0 {
        format!(r#" stroke-opacity="{opacity}""#)
    } else {
        String::new()
    }
}

/// Draws the outline of `shape` at `pose` with `style` (the item's stroke).
fn outline(
    svg: &mut String,
    shape: &Shape,
    pose: &Isometry,
    layout: &Layout,
    style: &str,
    item: &Item,
) {
    match shape {
        Shape::Circle(c) => {
            let (x, y) = layout.px(&(pose * c.center()));
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" {style}/>"#,
                (c.radius() * layout.scale).max(0.5)
            );
        }
        Shape::Segment(s) => {
            let ((x0, y0), (x1, y1)) = (layout.px(&(pose * s.a())), layout.px(&(pose * s.b())));
            let _ = writeln!(
                svg,
                r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" {style}/>"#
            );
        }
        // Its plain segment, and a tick into its back.
        Shape::ChainSegment(s) => {
            let plain = Shape::Segment(s.segment());
            outline(svg, &plain, pose, layout, style, item);
            let (from, to) = chain_tick(s, pose, layout);
            let ((x0, y0), (x1, y1)) = (layout.px(&from), layout.px(&to));
            let _ = writeln!(
                svg,
                r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" {style}/>"#
            );
        }
        Shape::Capsule(c) => {
            let ((x0, y0), (x1, y1)) = (
                layout.px(&(pose * c.axis().a())),
                layout.px(&(pose * c.axis().b())),
            );
            // Filled, half transparent: the axis drawn with a round pen as wide as the
            // capsule (the PNG draws it the same way).
            let _ = writeln!(
                svg,
                r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" stroke="{}" stroke-opacity="{}" stroke-linecap="round" stroke-width="{:.2}"/>"#,
                item.colour.hex(),
                0.5 * item.opacity,
                (2.0 * c.radius() * layout.scale).max(item.width)
            );
        }
        Shape::Polygon(p) if p.radius() > 0.0 => {
            let _ = writeln!(
                svg,
                r#"<path d="{}" {style}/>"#,
                rounded_path(p, pose, layout)
            );
        }
        Shape::Polygon(p) => {
            let points = p
                .vertices()
                .iter()
                .map(|v| {
                    let (x, y) = layout.px(&(pose * v));
                    format!("{x:.2},{y:.2}")
                })
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(svg, r#"<polygon points="{points}" {style}/>"#);
        }
    }
}

/// The outline of the rounded polygon `polygon` at `pose` as an SVG path: each edge moved out
/// by the radius, joined at each corner by an arc of the radius about the corner (from the
/// normal of the edge before to the normal of the edge after: less than half a turn, and
/// counter-clockwise in the world, which is clockwise on the page, whose y points down: SVG's
/// sweep flag 1).
fn rounded_path(polygon: &ConvexPolygon, pose: &Isometry, layout: &Layout) -> String {
    let (v, normals, r) = (polygon.vertices(), polygon.normals(), polygon.radius());
    let n = v.len();
    let at = |p: Point| {
        let (x, y) = layout.px(&(pose * p));
        format!("{x:.2},{y:.2}")
    };
    let radius = r * layout.scale;
    let mut d = format!("M{}", at(v[0] + normals[0] * r));
    for i in 0..n {
        let (next, after) = (v[(i + 1) % n], normals[(i + 1) % n]);
        let _ = write!(
            d,
            " L{} A{radius:.2},{radius:.2} 0 0 1 {}",
            at(next + normals[i] * r),
            at(next + after * r)
        );
    }
    d.push_str(" Z");
    d
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_segment_is_its_segment_with_a_tick_into_its_back() {
        // Ground from right to left: its front faces up, so the tick hangs down from its
        // middle (down the page: y grows).
        let ground = impact_geometry::Chain::open(&[Point::new(1.0, 0.0), Point::new(-1.0, 0.0)])
            .unwrap()
            .segment(0)
            .unwrap();
        let picture = Picture {
            title: String::new(),
            lo: Point::new(-2.0, -2.0),
            hi: Point::new(2.0, 2.0),
            items: vec![Item {
                mark: Mark::Outline(ground.into(), Isometry::identity()),
                colour: Colour::STATIC,
                width: 2.0,
                opacity: 1.0,
            }],
        };
        let svg = write(&picture);
        let lines: Vec<&str> = svg.lines().filter(|l| l.starts_with("<line")).collect();
        assert_eq!(lines.len(), 2, "{svg}");
        let layout = picture.layout();
        let (x, y) = layout.px(&Point::origin());
        let tick = format!(
            r#"<line x1="{x:.2}" y1="{y:.2}" x2="{x:.2}" y2="{:.2}" "#,
            y + crate::picture::CHAIN_TICK
        );
        assert!(lines[1].starts_with(&tick), "{}\n{tick}", lines[1]);
    }

    #[test]
    fn a_dashed_line_is_a_path_with_a_dash_array() {
        let picture = Picture {
            title: String::new(),
            lo: Point::new(-2.0, -2.0),
            hi: Point::new(2.0, 2.0),
            items: vec![Item {
                mark: Mark::Dashed(vec![Point::new(-1.0, 0.0), Point::new(1.0, 0.0)]),
                colour: Colour::JOINT,
                width: 1.5,
                opacity: 1.0,
            }],
        };
        let svg = write(&picture);
        let layout = picture.layout();
        let ((x0, y0), (x1, y1)) = (
            layout.px(&Point::new(-1.0, 0.0)),
            layout.px(&Point::new(1.0, 0.0)),
        );
        let expected = format!(
            r##"<path d="M{x0:.1},{y0:.1} L{x1:.1},{y1:.1}" stroke="#9467bd" stroke-width="1.5" stroke-dasharray="6 4"/>"##
        );
        assert!(svg.contains(&expected), "{svg}\n{expected}");
    }

    #[test]
    fn a_rounded_box_is_four_moved_sides_and_four_quarter_arcs() {
        let picture = Picture {
            title: String::new(),
            lo: Point::new(-2.0, -2.0),
            hi: Point::new(2.0, 2.0),
            items: Vec::new(),
        };
        let layout = picture.layout();
        let rounded = ConvexPolygon::rectangle(1.0, 1.0)
            .unwrap()
            .with_radius(0.5)
            .unwrap();
        let d = rounded_path(&rounded, &Isometry::identity(), &layout);
        let px = |x: Real, y: Real| {
            let (x, y) = layout.px(&Point::new(x, y));
            format!("{x:.2},{y:.2}")
        };
        let radius = 0.5 * layout.scale;
        // From the bottom side's left end, along it, round the bottom-right corner, and so on.
        let expected = format!(
            "M{} L{} A{radius:.2},{radius:.2} 0 0 1 {} L{} A{radius:.2},{radius:.2} 0 0 1 {} L{} A{radius:.2},{radius:.2} 0 0 1 {} L{} A{radius:.2},{radius:.2} 0 0 1 {} Z",
            px(-1.0, -1.5),
            px(1.0, -1.5),
            px(1.5, -1.0),
            px(1.5, 1.0),
            px(1.0, 1.5),
            px(-1.0, 1.5),
            px(-1.5, 1.0),
            px(-1.5, -1.0),
            px(-1.0, -1.5),
        );
        assert_eq!(d, expected);
    }
}
