//! `impact run --svg`: the static geometry, the path of every dynamic body's centre, and
//! where each body ended, as an SVG picture.

use core::fmt::Write as _;
use impact_geometry::{Isometry, Point, Real, Shape};
use impact_solver::BodySet;

/// The most points recorded per body: longer runs are sampled every few steps.
const MAX_POINTS: u64 = 2_000;
/// The picture's longer side (pixels).
const SIZE: Real = 900.0;
/// The margin around the scene (pixels).
const MARGIN: Real = 20.0;

/// The centres of the dynamic bodies over a run, and the static bodies to draw under them.
#[derive(Debug, Clone, Default)]
pub struct Trajectories {
    statics: Vec<(Shape, Isometry)>,
    /// Per dynamic body, in slot order: its path, whether it has the ccd flag, and its shape
    /// and pose at the end.
    paths: Vec<Path>,
    every: u64,
}

#[derive(Debug, Clone)]
struct Path {
    slot: u32,
    points: Vec<Point>,
    ccd: bool,
    end: (Shape, Isometry),
}

impl Trajectories {
    /// Starts recording: the static bodies, and each dynamic body's first point.
    pub fn begin(&mut self, bodies: &BodySet, steps: u64) {
        self.every = steps.div_ceil(MAX_POINTS).max(1);
        self.statics = bodies
            .iter()
            .filter(|(_, b)| b.body_type() == impact_solver::BodyType::Static)
            .map(|(_, b)| (b.shape().clone(), *b.pose()))
            .collect();
        self.paths = bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(h, b)| Path {
                slot: h.index,
                points: vec![b.center_of_mass()],
                ccd: b.ccd(),
                end: (b.shape().clone(), *b.pose()),
            })
            .collect();
    }

    /// Records the bodies after step `step`.
    pub fn record(&mut self, bodies: &BodySet, step: u64) {
        let sample = step.is_multiple_of(self.every);
        // Bodies are never added during a run, so the dynamic bodies keep their order.
        let mut paths = self.paths.iter_mut().peekable();
        for (h, b) in bodies.iter() {
            while paths.peek().is_some_and(|p| p.slot < h.index) {
                paths.next();
            }
            if let Some(path) = paths.next_if(|p| p.slot == h.index) {
                let c = b.center_of_mass();
                if sample && c.x.is_finite() && c.y.is_finite() {
                    path.points.push(c);
                }
                path.end = (b.shape().clone(), *b.pose());
            }
        }
    }

    /// The picture. It frames the static geometry and the bodies' starting points (a body
    /// that flies off leaves the frame rather than shrink the scene to a dot); `flagged`
    /// lists the slots of bodies that passed through static geometry, drawn in red.
    pub fn to_svg(&self, title: &str, flagged: &[u32]) -> String {
        let mut lo = Point::new(Real::INFINITY, Real::INFINITY);
        let mut hi = Point::new(Real::NEG_INFINITY, Real::NEG_INFINITY);
        let mut grow = |p: Point| {
            if p.x.is_finite() && p.y.is_finite() {
                lo = lo.inf(&p);
                hi = hi.sup(&p);
            }
        };
        for (shape, pose) in &self.statics {
            let aabb = shape.aabb(pose);
            grow(aabb.mins);
            grow(aabb.maxs);
        }
        for path in &self.paths {
            let aabb = path.end.0.aabb(&path.end.1);
            let r = 0.5 * (aabb.maxs - aabb.mins).amax();
            let p0 = path.points[0];
            grow(p0 - impact_geometry::Vector::repeat(r));
            grow(p0 + impact_geometry::Vector::repeat(r));
        }
        if lo.x > hi.x {
            lo = Point::new(-1.0, -1.0);
            hi = Point::new(1.0, 1.0);
        }
        // A frame of zero width (one segment) still needs a scale.
        let extent = (hi - lo).amax().max(1e-9);
        let scale = (SIZE - 2.0 * MARGIN) / extent;
        let width = (hi.x - lo.x) * scale + 2.0 * MARGIN;
        let height = (hi.y - lo.y) * scale + 2.0 * MARGIN;
        let px = |p: &Point| ((p.x - lo.x) * scale + MARGIN, (hi.y - p.y) * scale + MARGIN);

        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(title));
        let _ = writeln!(
            svg,
            r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<clipPath id="frame"><rect width="{width:.1}" height="{height:.1}"/></clipPath><g clip-path="url(#frame)" fill="none" stroke-linejoin="round">"#
        );
        for (shape, pose) in &self.statics {
            outline(&mut svg, shape, pose, &px, scale, "#555555", 2.0);
        }
        for path in &self.paths {
            let colour = if flagged.contains(&path.slot) {
                "#d62728"
            } else if path.ccd {
                "#1f77b4"
            } else {
                "#ff7f0e"
            };
            if path.points.len() > 1 {
                let mut d = String::new();
                for (i, p) in path.points.iter().enumerate() {
                    let (x, y) = px(p);
                    let _ = write!(d, "{}{x:.2},{y:.2}", if i == 0 { "M" } else { " L" });
                }
                let _ = writeln!(
                    svg,
                    r#"<path d="{d}" stroke="{colour}" stroke-width="1" stroke-opacity="0.6"/>"#
                );
            }
            outline(&mut svg, &path.end.0, &path.end.1, &px, scale, colour, 1.5);
        }
        svg.push_str("</g>\n</svg>\n");
        svg
    }
}

/// Draws the outline of `shape` at `pose`.
fn outline(
    svg: &mut String,
    shape: &Shape,
    pose: &Isometry,
    px: &dyn Fn(&Point) -> (Real, Real),
    scale: Real,
    colour: &str,
    width: Real,
) {
    let style = format!(r#"stroke="{colour}" stroke-width="{width}""#);
    match shape {
        Shape::Circle(c) => {
            let (x, y) = px(&(pose * c.center()));
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" {style}/>"#,
                (c.radius() * scale).max(0.5)
            );
        }
        Shape::Segment(s) => {
            let ((x0, y0), (x1, y1)) = (px(&(pose * s.a())), px(&(pose * s.b())));
            let _ = writeln!(
                svg,
                r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" {style}/>"#
            );
        }
        Shape::Capsule(c) => {
            let ((x0, y0), (x1, y1)) = (px(&(pose * c.axis().a())), px(&(pose * c.axis().b())));
            // A capsule is its axis drawn with a round pen as wide as the capsule.
            let _ = writeln!(
                svg,
                r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" stroke="{colour}" stroke-opacity="0.5" stroke-linecap="round" stroke-width="{:.2}"/>"#,
                (2.0 * c.radius() * scale).max(width)
            );
        }
        Shape::Polygon(p) => {
            let points = p
                .vertices()
                .iter()
                .map(|v| {
                    let (x, y) = px(&(pose * v));
                    format!("{x:.2},{y:.2}")
                })
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(svg, r#"<polygon points="{points}" {style}/>"#);
        }
    }
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
