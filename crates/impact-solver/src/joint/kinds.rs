//! The settings of the seven kinds of joint, each with Box2D v3's defaults, builders and a
//! validation that names the field (under `joint.<kind>.`), and what each kind's rows do.

use crate::error::{SolverError, finite, finite_point, finite_vector, non_negative, positive};
use impact_geometry::{Point, Real, Vector};

/// The largest magnitude any number of a joint definition may have: its anchors and
/// lengths (world units), angles (radians), speeds, spring frequencies (Hz) and damping
/// ratios. The break thresholds are only compared, and may be infinite; so may a distance
/// joint's `max_length` (no maximum). The most force or torque a motor, a motor joint or a
/// mouse joint may apply only bounds an accumulated impulse, and may be any finite value
/// (`Real::MAX` for no bound, as Box2D's scenes give `FLT_MAX`).
///
/// Creation refuses a larger value ([`SolverError::OutOfRange`] naming the field and the
/// value) rather than take it to the first step: the rows square their levers and multiply
/// them by the bodies' inverse masses and inertias, and a spring's frequency by the
/// substep, so an anchor of 1e200 or a frequency of 1e308 overflows there, and the step
/// then fails naming a body. Bodies have no such bound (the world reports a scene flung
/// beyond the range of `f64` after the step that did it); 1e12 leaves the joint's own
/// products (a lever squared: 1e24) that range's whole width for the bodies' values, and
/// is far past any joint of a simulation in units of the order of metres.
pub const MAX_JOINT_MAGNITUDE: Real = 1e12;

/// Checks that each of `values`, named under `field.`, is at most [`MAX_JOINT_MAGNITUDE`]
/// in magnitude (a NaN passes here: the finiteness checks name it).
pub(crate) fn bounded(field: &str, values: &[(&str, Real)]) -> Result<(), SolverError> {
    for &(name, value) in values {
        if value.abs() > MAX_JOINT_MAGNITUDE {
            return Err(SolverError::OutOfRange {
                field: format!("{field}.{name}"),
                value,
                expected: "at most 1e12 in magnitude (MAX_JOINT_MAGNITUDE)",
            });
        }
    }
    Ok(())
}

/// Checks `lower <= upper` (both finite).
fn ordered(field: &str, lower: Real, upper: Real) -> Result<(), SolverError> {
    finite(&format!("{field}.lower"), lower)?;
    finite(&format!("{field}.upper"), upper)?;
    if lower <= upper {
        Ok(())
    } else {
        Err(SolverError::OutOfRange {
            field: format!("{field}.lower"),
            value: lower,
            expected: "at most the upper limit",
        })
    }
}

/// A spring's frequency (Hz, zero or more: zero is no spring force) and damping ratio (zero
/// or more).
fn spring(field: &str, hertz: Real, damping_ratio: Real) -> Result<(), SolverError> {
    non_negative(&format!("{field}.spring_hertz"), hertz)?;
    non_negative(&format!("{field}.spring_damping_ratio"), damping_ratio)?;
    Ok(())
}

/// A motor's target speed (finite) and the most it may apply (zero or more).
fn motor(field: &str, speed: Real, max: Real, max_name: &str) -> Result<(), SolverError> {
    finite(&format!("{field}.motor_speed"), speed)?;
    non_negative(&format!("{field}.{max_name}"), max)?;
    Ok(())
}

/// A unit axis, given as any finite non-zero vector (normalised on creation).
fn axis(field: &str, v: &Vector) -> Result<(), SolverError> {
    finite_vector(field, v)?;
    positive(&format!("{field}.length"), v.norm()).map(|_| ())
}

/// A hinge (Box2D's `b2RevoluteJointDef`): the anchors coincide; the joint angle is B's angle
/// minus A's minus the reference angle, read in `(-pi, pi]` at the start of each step and
/// followed continuously through its substeps (as Box2D v3's), so a limit past a half turn
/// either way is never reached.
///
/// Its rows, in the order solved: the angular spring toward angle 0 (a soft row of its own
/// frequency, in the solve and the relax alike; none at 0 Hz), the motor (a row on the
/// relative angular speed whose accumulated impulse stays within `max_motor_torque` times
/// the substep), the lower and upper limits (one-sided rows: a limit still ahead lets the
/// angle reach it within the substep and no further, a violated one is pushed back by the
/// joints' softness), then the point row that holds the anchors together, last, so that
/// it has the final say. The spring, motor and limits act only when a body can turn.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct RevoluteJoint {
    /// Whether the angle is kept within `[lower_angle, upper_angle]` (default `false`).
    pub enable_limit: bool,
    /// The lowest joint angle (radians, at most `upper_angle`).
    pub lower_angle: Real,
    /// The highest joint angle (radians).
    pub upper_angle: Real,
    /// Whether the motor drives the relative angular speed (default `false`).
    pub enable_motor: bool,
    /// The motor's target for B's angular speed minus A's (radians per second).
    pub motor_speed: Real,
    /// The most torque the motor applies (newton metres, zero or more).
    pub max_motor_torque: Real,
    /// Whether an angular spring pulls the joint angle toward 0 (default `false`).
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
}

impl Default for RevoluteJoint {
    fn default() -> Self {
        Self {
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
        }
    }
}

impl RevoluteJoint {
    /// Limits the joint angle to `[lower, upper]` (radians).
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (self.enable_limit, self.lower_angle, self.upper_angle) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (radians per second) with at most `max_torque` (N m).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_torque) = (true, speed, max_torque);
        self
    }

    /// An angular spring toward angle 0 of `hertz` and `damping_ratio`.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        ordered("joint.revolute.angle", self.lower_angle, self.upper_angle)?;
        motor(
            "joint.revolute",
            self.motor_speed,
            self.max_motor_torque,
            "max_motor_torque",
        )?;
        spring(
            "joint.revolute",
            self.spring_hertz,
            self.spring_damping_ratio,
        )?;
        bounded(
            "joint.revolute",
            &[
                ("lower_angle", self.lower_angle),
                ("upper_angle", self.upper_angle),
                ("motor_speed", self.motor_speed),
                ("spring_hertz", self.spring_hertz),
                ("spring_damping_ratio", self.spring_damping_ratio),
            ],
        )
    }
}

/// A slider (Box2D's `b2PrismaticJointDef`): B's anchor stays on the line through A's anchor
/// along `local_axis_a`, and the relative angle stays the reference angle. The translation
/// is B's anchor minus A's along the axis (the axis fixed in A, turning with it).
///
/// Its rows, in the order solved: along the axis, the spring toward translation 0 (none at
/// 0 Hz), the motor (its accumulated impulse within `max_motor_force` times the substep)
/// and the lower and upper limits (one-sided, speculative while ahead); then across the
/// axis and on the angle, one 2x2 block row, last, that keeps B's anchor on the axis and
/// the bodies from turning relative to each other.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct PrismaticJoint {
    /// The axis in A's frame (any finite non-zero vector; normalised; default x).
    pub local_axis_a: Vector,
    /// Whether the translation is kept within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// The lowest translation (world units, at most `upper_translation`).
    pub lower_translation: Real,
    /// The highest translation (world units).
    pub upper_translation: Real,
    /// Whether the motor drives the speed along the axis.
    pub enable_motor: bool,
    /// The motor's target speed along the axis (units per second).
    pub motor_speed: Real,
    /// The most force the motor applies (newtons, zero or more).
    pub max_motor_force: Real,
    /// Whether a spring pulls the translation toward 0.
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
}

impl Default for PrismaticJoint {
    fn default() -> Self {
        Self {
            local_axis_a: Vector::x(),
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
        }
    }
}

impl PrismaticJoint {
    /// A slider along `axis` (in A's frame, or the world's through
    /// [`JointDef::at_world_anchor`](crate::JointDef::at_world_anchor)).
    pub fn along(axis: Vector) -> Self {
        Self {
            local_axis_a: axis,
            ..Self::default()
        }
    }

    /// Limits the translation to `[lower, upper]` (world units).
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (
            self.enable_limit,
            self.lower_translation,
            self.upper_translation,
        ) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (units per second) with at most `max_force` (N).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_force: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_force) = (true, speed, max_force);
        self
    }

    /// A spring toward translation 0 of `hertz` and `damping_ratio`.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        axis("joint.prismatic.local_axis_a", &self.local_axis_a)?;
        ordered(
            "joint.prismatic.translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        motor(
            "joint.prismatic",
            self.motor_speed,
            self.max_motor_force,
            "max_motor_force",
        )?;
        spring(
            "joint.prismatic",
            self.spring_hertz,
            self.spring_damping_ratio,
        )?;
        bounded(
            "joint.prismatic",
            &[
                ("lower_translation", self.lower_translation),
                ("upper_translation", self.upper_translation),
                ("motor_speed", self.motor_speed),
                ("spring_hertz", self.spring_hertz),
                ("spring_damping_ratio", self.spring_damping_ratio),
            ],
        )
    }
}

/// Glued together (Box2D's `b2WeldJointDef`): rigid where a frequency is 0 (the default),
/// else a spring of that frequency on the anchors' offset or on the angle.
///
/// Its rows: the angle row, then the point row; each is rigid (corrected by the joints'
/// softness in the solve, exact on velocities in the relax) or, with a frequency, a spring
/// acting in the solve and the relax alike, so a soft weld bends under load.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct WeldJoint {
    /// Frequency of the linear spring (Hz, zero or more; 0: rigid).
    pub linear_hertz: Real,
    /// Damping ratio of the linear spring (zero or more).
    pub linear_damping_ratio: Real,
    /// Frequency of the angular spring (Hz, zero or more; 0: rigid).
    pub angular_hertz: Real,
    /// Damping ratio of the angular spring (zero or more).
    pub angular_damping_ratio: Real,
}

impl WeldJoint {
    /// A soft weld: linear and angular springs.
    pub fn soft(linear: (Real, Real), angular: (Real, Real)) -> Self {
        Self {
            linear_hertz: linear.0,
            linear_damping_ratio: linear.1,
            angular_hertz: angular.0,
            angular_damping_ratio: angular.1,
        }
    }

    /// Whether both parts are rigid.
    pub fn is_rigid(&self) -> bool {
        self.linear_hertz == 0.0 && self.angular_hertz == 0.0
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        non_negative("joint.weld.linear_hertz", self.linear_hertz)?;
        non_negative("joint.weld.linear_damping_ratio", self.linear_damping_ratio)?;
        non_negative("joint.weld.angular_hertz", self.angular_hertz)?;
        non_negative(
            "joint.weld.angular_damping_ratio",
            self.angular_damping_ratio,
        )?;
        bounded(
            "joint.weld",
            &[
                ("linear_hertz", self.linear_hertz),
                ("linear_damping_ratio", self.linear_damping_ratio),
                ("angular_hertz", self.angular_hertz),
                ("angular_damping_ratio", self.angular_damping_ratio),
            ],
        )
    }
}

/// The anchors a length apart (Box2D's `b2DistanceJointDef`): rigid at `length`, or with
/// `enable_spring` a spring toward it (frequency 0: no force at all), and with
/// `enable_limit` never shorter than `min_length` nor longer than `max_length`. A rope is a
/// spring of frequency 0 with only a maximum ([`DistanceJoint::rope`]).
///
/// Its rows all act along the line between the anchors. Without a spring (or with limits
/// that pin the length, `min_length == max_length`), one rigid row holds `length`, and the
/// limits and motor are not solved. With a spring: the spring row (none at 0 Hz), the lower
/// and upper limits as one-sided rows (a slack rope applies no force at all; taut, it holds
/// like a contact), then the motor on the rate of lengthening (its accumulated impulse
/// within `max_motor_force` times the substep). A distance joint leaves the bodies free to
/// turn.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DistanceJoint {
    /// The rest length (world units, positive; default 1).
    pub length: Real,
    /// Whether the length is a spring instead of rigid.
    pub enable_spring: bool,
    /// The spring's frequency (Hz, zero or more).
    pub spring_hertz: Real,
    /// The spring's damping ratio (zero or more).
    pub spring_damping_ratio: Real,
    /// Whether `[min_length, max_length]` holds (one-sided rows).
    pub enable_limit: bool,
    /// The shortest length (world units, zero or more, at most `max_length`).
    pub min_length: Real,
    /// The longest length (world units; infinite for no maximum, the default, serialized
    /// as none).
    #[cfg_attr(feature = "serde", serde(with = "crate::joint::def::infinite_as_none"))]
    pub max_length: Real,
    /// Whether the motor drives the rate the length changes.
    pub enable_motor: bool,
    /// The motor's target rate of lengthening (units per second).
    pub motor_speed: Real,
    /// The most force the motor applies (newtons, zero or more).
    pub max_motor_force: Real,
}

impl Default for DistanceJoint {
    fn default() -> Self {
        Self {
            length: 1.0,
            enable_spring: false,
            spring_hertz: 0.0,
            spring_damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: Real::INFINITY,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl DistanceJoint {
    /// A rigid rod of `length`.
    pub fn rod(length: Real) -> Self {
        Self {
            length,
            ..Self::default()
        }
    }

    /// A rope: slack up to `max_length`, taut there.
    pub fn rope(max_length: Real) -> Self {
        Self {
            length: max_length,
            enable_spring: true,
            enable_limit: true,
            max_length,
            ..Self::default()
        }
    }

    /// A spring of `hertz` and `damping_ratio` toward `length`.
    pub fn spring(length: Real, hertz: Real, damping_ratio: Real) -> Self {
        Self {
            length,
            enable_spring: true,
            spring_hertz: hertz,
            spring_damping_ratio: damping_ratio,
            ..Self::default()
        }
    }

    /// Limits the length to `[min, max]`.
    #[must_use]
    pub fn limits(mut self, min: Real, max: Real) -> Self {
        (self.enable_limit, self.min_length, self.max_length) = (true, min, max);
        self
    }

    /// A motor toward lengthening at `speed` with at most `max_force` (N).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_force: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_force) = (true, speed, max_force);
        self
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        positive("joint.distance.length", self.length)?;
        non_negative("joint.distance.min_length", self.min_length)?;
        if self.max_length.is_nan() || self.max_length < self.min_length {
            return Err(SolverError::OutOfRange {
                field: "joint.distance.max_length".to_owned(),
                value: self.max_length,
                expected: "at least min_length",
            });
        }
        spring(
            "joint.distance",
            self.spring_hertz,
            self.spring_damping_ratio,
        )?;
        motor(
            "joint.distance",
            self.motor_speed,
            self.max_motor_force,
            "max_motor_force",
        )?;
        bounded(
            "joint.distance",
            &[
                ("length", self.length),
                ("min_length", self.min_length),
                ("spring_hertz", self.spring_hertz),
                ("spring_damping_ratio", self.spring_damping_ratio),
                ("motor_speed", self.motor_speed),
            ],
        )
    }
}

/// A wheel on a suspension (Box2D's `b2WheelJointDef`): B's anchor stays on the line through
/// A's anchor along `local_axis_a`, held along it by a spring; B turns freely, driven by an
/// optional motor.
///
/// Its rows, in the order solved: the motor on B's angular speed relative to A (its
/// accumulated impulse within `max_motor_torque` times the substep), the suspension spring
/// along the axis toward translation 0 (in the solve and the relax alike; none at 0 Hz, and
/// the wheel then slides freely along the axis), the lower and upper limits of the travel
/// (one-sided), then the row across the axis, last, that keeps B's anchor on the line.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct WheelJoint {
    /// The suspension axis in A's frame (any finite non-zero vector; default y).
    pub local_axis_a: Vector,
    /// Whether the suspension is a spring (default `true`; else it slides freely).
    pub enable_spring: bool,
    /// The suspension's frequency (Hz, zero or more; default 1).
    pub spring_hertz: Real,
    /// The suspension's damping ratio (zero or more; default 0.7).
    pub spring_damping_ratio: Real,
    /// Whether the translation is kept within `[lower_translation, upper_translation]`.
    pub enable_limit: bool,
    /// The lowest translation along the axis (world units).
    pub lower_translation: Real,
    /// The highest translation along the axis (world units).
    pub upper_translation: Real,
    /// Whether the motor drives B's angular speed relative to A.
    pub enable_motor: bool,
    /// The motor's target angular speed (radians per second).
    pub motor_speed: Real,
    /// The most torque the motor applies (newton metres, zero or more).
    pub max_motor_torque: Real,
}

impl Default for WheelJoint {
    fn default() -> Self {
        Self {
            local_axis_a: Vector::y(),
            enable_spring: true,
            spring_hertz: 1.0,
            spring_damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

impl WheelJoint {
    /// A wheel whose suspension runs along `axis`.
    pub fn along(axis: Vector) -> Self {
        Self {
            local_axis_a: axis,
            ..Self::default()
        }
    }

    /// The suspension spring.
    #[must_use]
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        (
            self.enable_spring,
            self.spring_hertz,
            self.spring_damping_ratio,
        ) = (true, hertz, damping_ratio);
        self
    }

    /// Limits the suspension's travel to `[lower, upper]`.
    #[must_use]
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        (
            self.enable_limit,
            self.lower_translation,
            self.upper_translation,
        ) = (true, lower, upper);
        self
    }

    /// A motor toward `speed` (radians per second) with at most `max_torque` (N m).
    #[must_use]
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        (self.enable_motor, self.motor_speed, self.max_motor_torque) = (true, speed, max_torque);
        self
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        axis("joint.wheel.local_axis_a", &self.local_axis_a)?;
        ordered(
            "joint.wheel.translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        spring("joint.wheel", self.spring_hertz, self.spring_damping_ratio)?;
        motor(
            "joint.wheel",
            self.motor_speed,
            self.max_motor_torque,
            "max_motor_torque",
        )?;
        bounded(
            "joint.wheel",
            &[
                ("lower_translation", self.lower_translation),
                ("upper_translation", self.upper_translation),
                ("spring_hertz", self.spring_hertz),
                ("spring_damping_ratio", self.spring_damping_ratio),
                ("motor_speed", self.motor_speed),
            ],
        )
    }
}

/// Drives B's pose relative to A toward a target (Box2D v3.0's `b2MotorJointDef`): B's
/// anchor toward A's anchor plus `linear_offset` (in A's frame, turning with A), the joint
/// angle toward `angular_offset`, with at most `max_force` and `max_torque`.
///
/// Its rows: the angle row, then the point row, each driving its error toward zero at
/// `correction_factor` of the error per substep, with its accumulated impulse clamped (the
/// angle row's to `max_torque` times the substep, the point row's length to `max_force`
/// times the substep), in the solve and the relax alike. With bounds too small for the
/// load, B lags behind its target rather than being forced.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MotorJoint {
    /// B's anchor's target position relative to A's anchor, in A's frame (world units).
    pub linear_offset: Vector,
    /// The target of B's angle minus A's minus the reference angle (radians; the error is
    /// taken the short way round, within half a turn).
    pub angular_offset: Real,
    /// The most force applied (newtons, zero or more; default 1).
    pub max_force: Real,
    /// The most torque applied (newton metres, zero or more; default 1).
    pub max_torque: Real,
    /// How much of the position error is corrected per substep (in `[0, 1]`; default 0.3).
    pub correction_factor: Real,
}

impl Default for MotorJoint {
    fn default() -> Self {
        Self {
            linear_offset: Vector::zeros(),
            angular_offset: 0.0,
            max_force: 1.0,
            max_torque: 1.0,
            correction_factor: 0.3,
        }
    }
}

impl MotorJoint {
    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        finite_vector("joint.motor.linear_offset", &self.linear_offset)?;
        finite("joint.motor.angular_offset", self.angular_offset)?;
        non_negative("joint.motor.max_force", self.max_force)?;
        non_negative("joint.motor.max_torque", self.max_torque)?;
        crate::error::in_range(
            "joint.motor.correction_factor",
            self.correction_factor,
            0.0,
            1.0,
            "in [0, 1]",
        )?;
        bounded(
            "joint.motor",
            &[
                ("linear_offset.x", self.linear_offset.x),
                ("linear_offset.y", self.linear_offset.y),
                ("angular_offset", self.angular_offset),
            ],
        )
    }
}

/// Pulls B's anchor toward a point of the world (Box2D's `b2MouseJointDef`): a soft spring of
/// `hertz` and `damping_ratio` with at most `max_force`; what a pointer dragging a body uses.
/// Body A only names the joint (usually a fixed body) and gets no impulse.
///
/// Its rows, on B alone: a soft row without bias that damps B's turning (Box2D's 0.5 Hz,
/// damping ratio 0.1), then the point row pulling B's anchor toward `target`, a spring of
/// `hertz` and `damping_ratio` whose accumulated impulse is clamped in length to
/// `max_force` times the substep, so that its reaction force never exceeds `max_force`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MouseJoint {
    /// Where B's anchor is pulled (world frame, world units).
    pub target: Point,
    /// The spring's frequency (Hz, positive; default 5).
    pub hertz: Real,
    /// The spring's damping ratio (zero or more; default 0.7).
    pub damping_ratio: Real,
    /// The most force applied (newtons, zero or more; default 1,000).
    pub max_force: Real,
}

impl Default for MouseJoint {
    fn default() -> Self {
        Self {
            target: Point::origin(),
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: 1000.0,
        }
    }
}

impl MouseJoint {
    /// Pulls toward `target` with the default spring and at most `max_force`.
    pub fn toward(target: Point, max_force: Real) -> Self {
        Self {
            target,
            max_force,
            ..Self::default()
        }
    }

    pub(crate) fn validate(&self) -> Result<(), SolverError> {
        finite_point("joint.mouse.target", &self.target)?;
        positive("joint.mouse.hertz", self.hertz)?;
        non_negative("joint.mouse.damping_ratio", self.damping_ratio)?;
        non_negative("joint.mouse.max_force", self.max_force)?;
        bounded(
            "joint.mouse",
            &[
                ("target.x", self.target.x),
                ("target.y", self.target.y),
                ("hertz", self.hertz),
                ("damping_ratio", self.damping_ratio),
            ],
        )
    }
}
