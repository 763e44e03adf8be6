//! What a picture holds, independent of the file format: marks (shape outlines and paths)
//! in world coordinates with their style, and the frame that maps them to pixels. The SVG
//! writer ([`crate::svg`]) and the PNG rasteriser ([`crate::png`]) both draw a [`Picture`],
//! so the two formats show the same thing.

use impact_geometry::{ChainSegment, Isometry, Point, Real, Shape, Vector};

/// The picture's longer side (pixels).
pub(crate) const SIZE: Real = 900.0;
/// The margin around the scene (pixels).
pub(crate) const MARGIN: Real = 20.0;
/// The length of the tick on the back of a chain segment (pixels).
pub(crate) const CHAIN_TICK: Real = 5.0;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Colour(pub [u8; 3]);

impl Colour {
    /// Static geometry.
    pub const STATIC: Self = Self([0x55, 0x55, 0x55]);
    /// A static sensor.
    pub const SENSOR: Self = Self([0x2c, 0xa0, 0x2c]);
    /// A dynamic body with the ccd flag.
    pub const CCD: Self = Self([0x1f, 0x77, 0xb4]);
    /// A dynamic body without it.
    pub const PLAIN: Self = Self([0xff, 0x7f, 0x0e]);
    /// A body that passed through static geometry.
    pub const FLAGGED: Self = Self([0xd6, 0x27, 0x28]);
    /// A joint.
    pub const JOINT: Self = Self([0x94, 0x67, 0xbd]);
    /// The background.
    pub const BACKGROUND: Self = Self([0xff, 0xff, 0xff]);

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// What is drawn.
#[derive(Debug, Clone)]
pub(crate) enum Mark {
    /// A shape's outline at a pose (a body of several shapes is one outline per shape, at
    /// the body's pose). A capsule is drawn filled, half transparent: its axis drawn with a
    /// round pen as wide as the capsule. A chain segment is drawn as its segment with a tick
    /// from its middle into its back ([`chain_tick`]).
    Outline(Shape, Isometry),
    /// A polyline through points (world).
    Path(Vec<Point>),
    /// A dashed polyline through points (world): dashes of [`DASH`] pixels, gaps of
    /// [`GAP`], starting with a dash at the first point.
    Dashed(Vec<Point>),
}

/// The length of a dash of a [`Mark::Dashed`] line (pixels).
pub(crate) const DASH: Real = 6.0;
/// The gap between two dashes (pixels).
pub(crate) const GAP: Real = 4.0;

/// One mark with its style.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub mark: Mark,
    pub colour: Colour,
    /// Pen width (pixels).
    pub width: Real,
    /// Opacity in `[0, 1]`.
    pub opacity: Real,
}

/// A picture: a title, the part of the world it frames, and its marks in drawing order.
#[derive(Debug, Clone)]
pub(crate) struct Picture {
    pub title: String,
    /// The framed part of the world (its lower-left and upper-right corners).
    pub lo: Point,
    pub hi: Point,
    pub items: Vec<Item>,
}

/// The map from the world to pixels: y up in the world, down in the picture.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    lo: Point,
    hi: Point,
    /// Pixels per world unit.
    pub scale: Real,
    pub width: Real,
    pub height: Real,
}

impl Layout {
    /// Where `p` lands (pixels from the top-left corner).
    pub fn px(&self, p: &Point) -> (Real, Real) {
        (
            (p.x - self.lo.x) * self.scale + MARGIN,
            (self.hi.y - p.y) * self.scale + MARGIN,
        )
    }
}

/// The tick that shows which side of a chain segment is which: from the middle of
/// `segment` at `pose`, [`CHAIN_TICK`] pixels (at most a third of the segment's drawn
/// length) straight into its back, the side behind its front normal, which bodies pass
/// through (the inside of ground drawn right to left, of a counter-clockwise island). The
/// ticks hatch the solid side as a drawing of ground does; bodies rest on the bare side.
/// Both ends in world coordinates.
pub(crate) fn chain_tick(
    segment: &ChainSegment,
    pose: &Isometry,
    layout: &Layout,
) -> (Point, Point) {
    let middle = pose * (segment.a() + 0.5 * segment.direction());
    let length = (CHAIN_TICK / layout.scale).min(segment.direction().norm() / 3.0);
    let back = -(pose.rotation * segment.normal());
    (middle, middle + length * back)
}

/// Grows a frame to hold points, ignoring non-finite ones (a body flung to infinity leaves
/// the frame rather than blow it up).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    lo: Point,
    hi: Point,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            lo: Point::new(Real::INFINITY, Real::INFINITY),
            hi: Point::new(Real::NEG_INFINITY, Real::NEG_INFINITY),
        }
    }
}

impl Bounds {
    /// Takes in `p`.
    pub fn grow(&mut self, p: Point) {
        if p.x.is_finite() && p.y.is_finite() {
            self.lo = self.lo.inf(&p);
            self.hi = self.hi.sup(&p);
        }
    }

    /// Takes in a shape's box at `pose`.
    pub fn grow_shape(&mut self, shape: &Shape, pose: &Isometry) {
        let aabb = shape.aabb(pose);
        self.grow(aabb.mins);
        self.grow(aabb.maxs);
    }

    /// Takes in a square of half-side `r` around `p`.
    pub fn grow_around(&mut self, p: Point, r: Real) {
        self.grow(p - Vector::repeat(r));
        self.grow(p + Vector::repeat(r));
    }

    /// The frame, or `[-1, 1]^2` if nothing was taken in. Its shorter side is widened,
    /// about the middle, to at least a third of the longer one: a scene of one long wall
    /// would otherwise be a sliver with no room for what moves beside it.
    pub fn frame(&self) -> (Point, Point) {
        if self.lo.x > self.hi.x {
            return (Point::new(-1.0, -1.0), Point::new(1.0, 1.0));
        }
        let size = self.hi - self.lo;
        let least = size.amax() / 3.0;
        let pad = Vector::new(
            0.5 * (least - size.x).max(0.0),
            0.5 * (least - size.y).max(0.0),
        );
        (self.lo - pad, self.hi + pad)
    }
}

impl Picture {
    /// The map to pixels: the frame scaled so its longer side is [`SIZE`] less the margins.
    pub fn layout(&self) -> Layout {
        // A frame of zero width (one segment) still needs a scale.
        let extent = (self.hi - self.lo).amax().max(1e-9);
        let scale = (SIZE - 2.0 * MARGIN) / extent;
        Layout {
            lo: self.lo,
            hi: self.hi,
            scale,
            width: (self.hi.x - self.lo.x) * scale + 2.0 * MARGIN,
            height: (self.hi.y - self.lo.y) * scale + 2.0 * MARGIN,
        }
    }
}
