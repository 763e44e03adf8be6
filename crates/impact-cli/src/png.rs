//! A [`Picture`] rasterised to a PNG image.
//!
//! The rasteriser is ours (a few primitives: thick segments, rings, filled capsules, the
//! outlines of rounded polygons, each antialiased by its distance to the pixel centre); the `png` crate only encodes. A vector
//! renderer (tiny-skia, resvg) would draw the same few marks at several times the build
//! cost.

use crate::picture::{Colour, DASH, GAP, Item, Layout, Mark, Picture, chain_tick};
use impact_geometry::{Isometry, Point, Real, Shape};

/// A canvas of linear coverage accumulated per mark, then blended over the image, so the
/// joints of a half-transparent path are not darker than its segments.
struct Canvas {
    width: usize,
    height: usize,
    rgb: Vec<[Real; 3]>,
    /// The current mark's coverage of each pixel, in `[0, 1]`.
    cover: Vec<Real>,
    /// The pixels the current mark covers, to blend and clear only those.
    touched: Vec<usize>,
}

/// A pixel position (x right, y down).
type Px = (Real, Real);

impl Canvas {
    fn new(width: usize, height: usize) -> Self {
        let [r, g, b] = Colour::BACKGROUND.0.map(Real::from);
        Self {
            width,
            height,
            rgb: vec![[r, g, b]; width * height],
            cover: vec![0.0; width * height],
            touched: Vec::new(),
        }
    }

    /// Covers the pixels whose centre is within `reach` of the box `lo..hi`, with the
    /// coverage `coverage(centre)` gives.
    fn cover_box(&mut self, lo: Px, hi: Px, reach: Real, coverage: impl Fn(Px) -> Real) {
        if ![lo.0, lo.1, hi.0, hi.1, reach]
            .iter()
            .all(|v| v.is_finite())
        {
            return;
        }
        let clamp = |v: Real, n: usize| v.clamp(0.0, n as Real) as usize;
        let (x0, x1) = (
            clamp((lo.0 - reach).floor(), self.width),
            clamp((hi.0 + reach).ceil(), self.width),
        );
        let (y0, y1) = (
            clamp((lo.1 - reach).floor(), self.height),
            clamp((hi.1 + reach).ceil(), self.height),
        );
        for y in y0..y1 {
            for x in x0..x1 {
                let c = coverage((x as Real + 0.5, y as Real + 0.5)).clamp(0.0, 1.0);
                if c > 0.0 {
                    let i = y * self.width + x;
                    if self.cover[i] == 0.0 {
                        self.touched.push(i);
                    }
                    self.cover[i] = self.cover[i].max(c);
                }
            }
        }
    }

    /// A segment drawn with a pen of `width` pixels (round ends): the capsule of half the
    /// pen's width around it.
    fn segment(&mut self, a: Px, b: Px, width: Real) {
        self.capsule(a, b, 0.5 * width.max(1.0));
    }

    /// A filled capsule: the points within `radius` pixels of the segment `a`-`b`.
    fn capsule(&mut self, a: Px, b: Px, radius: Real) {
        let lo = (a.0.min(b.0), a.1.min(b.1));
        let hi = (a.0.max(b.0), a.1.max(b.1));
        self.cover_box(lo, hi, radius + 1.0, |p| {
            radius + 0.5 - distance_to_segment(p, a, b)
        });
    }

    /// A circle of `radius` pixels drawn with a pen of `width`.
    fn ring(&mut self, c: Px, radius: Real, width: Real) {
        let half = 0.5 * width.max(1.0);
        self.cover_box(c, c, radius + half + 1.0, |p| {
            let d = ((p.0 - c.0).powi(2) + (p.1 - c.1).powi(2)).sqrt();
            half + 0.5 - (d - radius).abs()
        });
    }

    /// The outline of the convex polygon `vertices` (pixels, either winding) rounded by
    /// `radius` pixels, drawn with a pen of `width`: the pixels whose centre lies within half
    /// the pen of the points at `radius` from the polygon, by the signed distance to it.
    fn rounded_polygon(&mut self, vertices: &[Px], radius: Real, width: Real) {
        let half = 0.5 * width.max(1.0);
        let fold = |f: fn(Real, Real) -> Real, start: Real| {
            vertices
                .iter()
                .fold((start, start), |(x, y), v| (f(x, v.0), f(y, v.1)))
        };
        let (lo, hi) = (
            fold(Real::min, Real::INFINITY),
            fold(Real::max, -Real::INFINITY),
        );
        self.cover_box(lo, hi, radius + half + 1.0, |p| {
            half + 0.5 - (signed_distance_to_polygon(p, vertices) - radius).abs()
        });
    }

    /// Blends the current mark over the image and clears its coverage.
    fn commit(&mut self, colour: Colour, opacity: Real) {
        let colour = colour.0.map(Real::from);
        for &i in &self.touched {
            let alpha = self.cover[i] * opacity;
            for (channel, target) in self.rgb[i].iter_mut().zip(colour) {
                *channel += (target - *channel) * alpha;
            }
            self.cover[i] = 0.0;
        }
        self.touched.clear();
    }

    fn bytes(&self) -> Vec<u8> {
        self.rgb
            .iter()
            .flat_map(|p| p.map(|c| c.round().clamp(0.0, 255.0) as u8))
            .collect()
    }
}

fn distance_to_segment(p: Px, a: Px, b: Px) -> Real {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length2 = dx * dx + dy * dy;
    let t = if length2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// The signed distance from `p` to the convex polygon `vertices` (either winding): the
/// distance to its nearest edge, negative inside.
fn signed_distance_to_polygon(p: Px, vertices: &[Px]) -> Real {
    let n = vertices.len();
    let (mut nearest, mut left, mut right) = (Real::INFINITY, false, false);
    for (i, &a) in vertices.iter().enumerate() {
        let b = vertices[(i + 1) % n];
        nearest = nearest.min(distance_to_segment(p, a, b));
        let turn = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        left |= turn > 0.0;
        right |= turn < 0.0;
    }
    if left && right { nearest } else { -nearest }
}

fn outline(canvas: &mut Canvas, shape: &Shape, pose: &Isometry, layout: &Layout, width: Real) {
    let px = |p: Point| layout.px(&(pose * p));
    match shape {
        Shape::Circle(c) => {
            canvas.ring(px(c.center()), (c.radius() * layout.scale).max(0.5), width)
        }
        Shape::Segment(s) => canvas.segment(px(s.a()), px(s.b()), width),
        // Its plain segment, and a tick into its back.
        Shape::ChainSegment(s) => {
            canvas.segment(px(s.a()), px(s.b()), width);
            let (from, to) = chain_tick(s, pose, layout);
            canvas.segment(layout.px(&from), layout.px(&to), width);
        }
        Shape::Capsule(c) => canvas.capsule(
            px(c.axis().a()),
            px(c.axis().b()),
            (c.radius() * layout.scale).max(0.5 * width),
        ),
        Shape::Polygon(p) if p.radius() > 0.0 => {
            let corners: Vec<Px> = p.vertices().iter().map(|&v| px(v)).collect();
            canvas.rounded_polygon(&corners, p.radius() * layout.scale, width);
        }
        Shape::Polygon(p) => {
            let v = p.vertices();
            for (i, &a) in v.iter().enumerate() {
                canvas.segment(px(a), px(v[(i + 1) % v.len()]), width);
            }
        }
    }
}

/// The polyline through `points` (pixels) in dashes of [`DASH`] pixels and gaps of [`GAP`],
/// as SVG's `stroke-dasharray` draws it: the pattern runs on along the line through its
/// corners, from a dash at the first point. Only the part of each segment near the canvas
/// is walked, so a line to a body flung far away costs no more than one across the picture.
fn dashed(canvas: &mut Canvas, points: &[Px], width: Real) {
    const PERIOD: Real = DASH + GAP;
    // How far into the current period of dash and gap the pen is.
    let mut phase: Real = 0.0;
    let reach = width + 2.0;
    let (lo, hi) = (
        (-reach, -reach),
        (canvas.width as Real + reach, canvas.height as Real + reach),
    );
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        if !(length.is_finite() && length > 0.0) {
            continue;
        }
        let at = |s: Real| {
            let t = s / length;
            (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
        };
        let (first, last) = match clip(a, b, lo, hi) {
            Some((t0, t1)) => (t0 * length, t1 * length),
            None => (length, length),
        };
        phase = (phase + first) % PERIOD;
        let mut s = first;
        while s < last {
            let (on, left) = if phase < DASH {
                (true, DASH - phase)
            } else {
                (false, PERIOD - phase)
            };
            let end = (s + left).min(last);
            if on {
                canvas.segment(at(s), at(end), width);
            }
            phase = (phase + end - s) % PERIOD;
            s = end;
        }
        phase = (phase + (length - last)) % PERIOD;
    }
}

/// The part of the segment `a`-`b` inside the box `lo`..`hi`, as the fractions of the
/// segment where it enters and leaves (Liang and Barsky's clipping), or `None` if it misses.
fn clip(a: Px, b: Px, lo: Px, hi: Px) -> Option<(Real, Real)> {
    let (mut t0, mut t1): (Real, Real) = (0.0, 1.0);
    let d = (b.0 - a.0, b.1 - a.1);
    for (p, q) in [
        (-d.0, a.0 - lo.0),
        (d.0, hi.0 - a.0),
        (-d.1, a.1 - lo.1),
        (d.1, hi.1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 < t1).then_some((t0, t1))
}

fn draw(canvas: &mut Canvas, item: &Item, layout: &Layout) {
    let mut opacity = item.opacity;
    match &item.mark {
        Mark::Path(points) => {
            for pair in points.windows(2) {
                canvas.segment(layout.px(&pair[0]), layout.px(&pair[1]), item.width);
            }
        }
        Mark::Dashed(points) => {
            let pixels: Vec<Px> = points.iter().map(|p| layout.px(p)).collect();
            dashed(canvas, &pixels, item.width);
        }
        Mark::Outline(shape, pose) => {
            if matches!(shape, Shape::Capsule(_)) {
                // As the SVG draws it: filled, half transparent.
                opacity *= 0.5;
            }
            outline(canvas, shape, pose, layout, item.width);
        }
    }
    canvas.commit(item.colour, opacity);
}

/// The PNG file of `picture` (8-bit RGB).
///
/// # Errors
/// The encoder's message (it fails only on a writer error, and this one writes to memory).
pub(crate) fn write(picture: &Picture) -> Result<Vec<u8>, String> {
    let layout = picture.layout();
    let (width, height) = (
        layout.width.round().max(1.0) as usize,
        layout.height.round().max(1.0) as usize,
    );
    let mut canvas = Canvas::new(width, height);
    for item in &picture.items {
        draw(&mut canvas, item, &layout);
    }
    let mut file = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut file, width as u32, height as u32);
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&canvas.bytes())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Circle, Segment};

    fn pixel(canvas: &Canvas, x: usize, y: usize) -> [u8; 3] {
        canvas.rgb[y * canvas.width + x].map(|c| c.round() as u8)
    }

    #[test]
    fn a_segment_covers_the_pixels_on_it_and_not_those_away_from_it() {
        let mut canvas = Canvas::new(20, 20);
        canvas.segment((2.0, 10.5), (18.0, 10.5), 1.0);
        canvas.commit(Colour([0, 0, 0]), 1.0);
        assert_eq!(pixel(&canvas, 10, 10), [0, 0, 0]);
        assert_eq!(pixel(&canvas, 10, 5), [255, 255, 255]);
        assert_eq!(pixel(&canvas, 19, 10), [255, 255, 255], "past the end");
    }

    #[test]
    fn overlapping_segments_of_one_mark_blend_once() {
        let mut canvas = Canvas::new(10, 10);
        canvas.segment((0.0, 5.5), (5.5, 5.5), 1.0);
        canvas.segment((5.5, 5.5), (10.0, 5.5), 1.0);
        canvas.commit(Colour([0, 0, 0]), 0.5);
        assert_eq!(pixel(&canvas, 5, 5), pixel(&canvas, 2, 5));
        assert_eq!(pixel(&canvas, 2, 5), [128, 128, 128]);
    }

    #[test]
    fn a_ring_is_hollow() {
        let mut canvas = Canvas::new(40, 40);
        canvas.ring((20.0, 20.0), 10.0, 1.0);
        canvas.commit(Colour([0, 0, 0]), 1.0);
        assert_eq!(pixel(&canvas, 20, 20), [255, 255, 255]);
        assert_eq!(pixel(&canvas, 29, 20)[0], pixel(&canvas, 10, 20)[0]);
        assert!(pixel(&canvas, 29, 20)[0] < 128 || pixel(&canvas, 30, 20)[0] < 128);
    }

    #[test]
    fn a_rounded_polygon_is_drawn_along_its_rounded_outline() {
        // A 20 x 20 pixel square on pixel centres rounded by 4 sqrt 2: its outline that far
        // out along each side, and on a circle about each corner through the pixel centres 4
        // away along both axes.
        let mut canvas = Canvas::new(60, 60);
        let square = [(20.5, 20.5), (40.5, 20.5), (40.5, 40.5), (20.5, 40.5)];
        canvas.rounded_polygon(&square, 4.0 * core::f64::consts::SQRT_2, 1.0);
        canvas.commit(Colour([0, 0, 0]), 1.0);
        // On the moved side (y = 46.16), and on the round.
        assert!(pixel(&canvas, 30, 46)[0] < 128);
        assert_eq!(pixel(&canvas, 44, 44), [0, 0, 0]);
        // Inside, on the core's edge, and where the moved sides would meet without the round:
        // nothing.
        assert_eq!(pixel(&canvas, 30, 30), [255, 255, 255]);
        assert_eq!(pixel(&canvas, 30, 40), [255, 255, 255]);
        assert_eq!(pixel(&canvas, 46, 46), [255, 255, 255]);
    }

    #[test]
    fn a_chain_segment_is_drawn_with_its_tick_below_ground() {
        // Ground from right to left, front up: the tick's pixels are under its middle, and
        // nothing is drawn over it.
        let ground = impact_geometry::Chain::open(&[Point::new(1.0, 0.0), Point::new(-1.0, 0.0)])
            .unwrap()
            .segment(0)
            .unwrap();
        let picture = Picture {
            title: String::new(),
            lo: Point::new(-1.0, -1.0),
            hi: Point::new(1.0, 1.0),
            items: Vec::new(),
        };
        let layout = picture.layout();
        let mut canvas = Canvas::new(900, 900);
        outline(
            &mut canvas,
            &ground.into(),
            &Isometry::identity(),
            &layout,
            1.0,
        );
        canvas.commit(Colour([0, 0, 0]), 1.0);
        let (x, y) = layout.px(&Point::origin());
        let (x, y) = (x as usize, y as usize);
        // The tick runs along a pixel boundary: it half covers the columns either side.
        let below = pixel(&canvas, x - 1, y + 3)[0].min(pixel(&canvas, x, y + 3)[0]);
        assert!(below < 200, "the tick below: {below}");
        for column in [x - 1, x] {
            assert_eq!(
                pixel(&canvas, column, y - 3),
                [255, 255, 255],
                "nothing above"
            );
        }
    }

    #[test]
    fn a_dashed_line_is_drawn_in_dashes_and_gaps_and_only_near_the_canvas() {
        let mut canvas = Canvas::new(40, 10);
        dashed(&mut canvas, &[(0.0, 5.5), (40.0, 5.5)], 1.0);
        canvas.commit(Colour([0, 0, 0]), 1.0);
        // Dashes over [0, 6], [10, 16], ...; gaps over [6, 10], [16, 20], ...
        for x in [2, 3, 12, 13, 22] {
            assert_eq!(pixel(&canvas, x, 5), [0, 0, 0], "dash at {x}");
        }
        for x in [8, 18, 28] {
            assert_eq!(pixel(&canvas, x, 5), [255, 255, 255], "gap at {x}");
        }
        // A line to a point far away is clipped to the canvas, not walked to its end.
        let mut canvas = Canvas::new(40, 10);
        dashed(&mut canvas, &[(0.0, 5.5), (1e300, 5.5)], 1.0);
        canvas.commit(Colour([0, 0, 0]), 1.0);
        assert_eq!(pixel(&canvas, 2, 5), [0, 0, 0]);
        assert_eq!(pixel(&canvas, 8, 5), [255, 255, 255]);
    }

    #[test]
    fn a_picture_encodes_as_a_png_of_its_layout() {
        let picture = Picture {
            title: "t".to_owned(),
            lo: Point::new(-1.0, -1.0),
            hi: Point::new(1.0, 1.0),
            items: vec![
                Item {
                    mark: Mark::Outline(
                        Segment::new(Point::new(-1.0, 0.0), Point::new(1.0, 0.0))
                            .unwrap()
                            .into(),
                        Isometry::identity(),
                    ),
                    colour: Colour::STATIC,
                    width: 2.0,
                    opacity: 1.0,
                },
                Item {
                    mark: Mark::Outline(Circle::new(0.5).unwrap().into(), Isometry::identity()),
                    colour: Colour::CCD,
                    width: 1.5,
                    opacity: 1.0,
                },
            ],
        };
        let bytes = write(&picture).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), (900, 900));
    }
}
