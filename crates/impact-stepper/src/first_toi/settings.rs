//! The settings of [`FirstTimeOfImpact`](crate::FirstTimeOfImpact).

use crate::error::{WorldError, non_negative};
use impact_geometry::Real;
use impact_narrowphase::ToiOptions;
use impact_solver::ImpactSettings;

/// The settings of [`FirstTimeOfImpact`](crate::FirstTimeOfImpact), validated by
/// [`FirstTimeOfImpactSettings::validate`] (and by the stepper's constructor, its setter and
/// deserialization).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "FirstTimeOfImpactSettingsDef",
        into = "FirstTimeOfImpactSettingsDef"
    )
)]
pub struct FirstTimeOfImpactSettings {
    /// How far a CCD body must move over one step, in bounding radii, before its pairs are
    /// taken out of the contact solver and planned as impacts (dimensionless, finite, zero
    /// or more; default `0.5`). The motion counted is an upper bound from the start
    /// velocities, `(|v| + |g| dt) dt + |w| dt r`, with `r` the body's bounding radius about
    /// its centre of mass. `0` plans every moving CCD body. Bodies without the `ccd` flag,
    /// and slower ones, are left to the contact solver unless an impact inside the step
    /// changes their motion: then they are planned whatever their speed. A body the solver
    /// moves past the threshold over the step is planned from then on; for a body a joint's
    /// motor or spring drives, `r` is at most `sqrt(2)` times the half width of its thinnest
    /// shape (a thin flipper is judged by its thickness).
    pub threshold_radii_per_step: Real,
    /// The options of every time-of-impact query (default [`ToiOptions::default`]): impacts
    /// are resolved at the target separation, so bodies never touch inside a step and the
    /// next step's contacts see them. [`ToiOptions::exact`] resolves them at contact, for
    /// event-driven simulation where the gap would bias the results.
    pub toi: ToiOptions,
    /// The single-impact resolver's settings (default: restitution below 1 world unit per
    /// second is dropped, as the contact solver does, so a bouncing ball comes to rest;
    /// friction on). Set `restitution_threshold` to 0 to honour every bounce.
    pub impact: ImpactSettings,
    /// The most impacts resolved in one step (at least 1; default 100,000). When it is
    /// reached the stepper stops resolving and falls back to motion clamping for the rest of
    /// the step: every body still heading for an impact is stopped at it, and the time it
    /// loses is reported. The cap bounds the work of one step whatever the scene.
    pub max_events: usize,
    /// The most impacts one pair may have in one step (at least 1; default 8). The pair's
    /// impact that reaches it, or one that comes within `min_advance` of the pair's previous
    /// impact, is a Zeno sequence (inelastic collapse, a body wedged between two others): it
    /// is resolved inelastically and the pair is handed to the contact solver, ignored by
    /// the event loop for the rest of the step.
    pub max_pair_events: u32,
    /// The least time, as a fraction of the step, between two impacts of the same pair
    /// before the second counts as a Zeno sequence (finite, zero or more; default `1e-9`).
    /// `0` turns the rule off: a pair may then meet again at the same instant (a line of
    /// touching bodies of mixed masses struck at one end), up to `max_pair_events`.
    pub min_advance: Real,
    /// How far a moving body's *reach* (the box its neighbour list is made for) extends
    /// past its bounding disc, in bounding radii (finite, zero or more; default `0`).
    /// `0` makes the reach cover the body's whole course over the step, with room to spare:
    /// the fewest neighbour searches when courses are short against the gaps between
    /// bodies. A positive skin makes it the bounding disc at the start of the course grown
    /// by `reach_skin` radii, and the body searches for new neighbours when its centre
    /// leaves that box (an escape, planned like an impact): neighbour lists stay short
    /// however long the step, which is what a dense event-driven gas with long steps
    /// needs. The impacts found are the same either way.
    pub reach_skin: Real,
}

impl Default for FirstTimeOfImpactSettings {
    fn default() -> Self {
        Self {
            threshold_radii_per_step: 0.5,
            toi: ToiOptions::default(),
            impact: ImpactSettings {
                restitution_threshold: 1.0,
                friction: true,
            },
            max_events: 100_000,
            max_pair_events: 8,
            min_advance: 1e-9,
            reach_skin: 0.0,
        }
    }
}

impl FirstTimeOfImpactSettings {
    /// [`threshold_radii_per_step`](Self::threshold_radii_per_step) under its former name,
    /// which read as a speed: the threshold is a distance per step in bounding radii.
    #[deprecated(
        since = "0.2.0",
        note = "renamed to the field `threshold_radii_per_step`"
    )]
    pub fn velocity_threshold(&self) -> Real {
        self.threshold_radii_per_step
    }

    /// The settings for event-driven simulation: every moving CCD body planned
    /// (`threshold_radii_per_step` 0), impacts resolved at contact ([`ToiOptions::exact`]), every
    /// bounce honoured (`restitution_threshold` 0); the rest as [`Default`].
    pub fn event_driven() -> Self {
        Self {
            threshold_radii_per_step: 0.0,
            toi: ToiOptions::exact(),
            impact: ImpactSettings {
                restitution_threshold: 0.0,
                friction: true,
            },
            ..Self::default()
        }
    }

    /// The settings for event-driven simulation of perfectly elastic bodies (restitution 1,
    /// no friction), such as a hard-disk gas: [`event_driven`](Self::event_driven) (every
    /// moving CCD body planned, impacts resolved exactly at contact, every bounce honoured)
    /// with friction off, and neither an event cap (`max_events`, `max_pair_events`) nor
    /// Zeno detection (`min_advance`) that could resolve an impact inelastically or stop a
    /// body: an elastic gas has no Zeno sequences, and a cap would make a long step lose
    /// time. Reaches of 1.5 radii of skin ([`reach_skin`](Self::reach_skin)) keep the work
    /// per collision the same however long the step, so steps of several collisions per
    /// body are cheap; the collisions are those of the default reach, bit for bit.
    ///
    /// In a periodic world without gravity whose bodies are all dynamic CCD discs, a step
    /// with these settings and no hook takes the stepper's disc path (see
    /// [`FirstTimeOfImpact`](crate::FirstTimeOfImpact)).
    pub fn elastic() -> Self {
        let mut settings = Self::event_driven();
        settings.impact.friction = false;
        settings.max_events = usize::MAX;
        settings.max_pair_events = u32::MAX;
        settings.min_advance = 0.0;
        // Measured on the gas at eta 0.3 and 0.5: 1 to 2 radii cost within 10% of each other
        // per collision, 1.5 the least cache traffic at N = 65,536.
        settings.reach_skin = 1.5;
        settings
    }

    /// Checks every field ([`ToiOptions`] is valid by construction).
    ///
    /// # Errors
    /// [`WorldError`] naming `first_toi.threshold_radii_per_step` or `first_toi.min_advance`
    /// (negative or not finite), `first_toi.reach_skin` (negative or not finite),
    /// `first_toi.max_events` or `first_toi.max_pair_events`
    /// (zero), or `first_toi.impact.restitution_threshold` (negative or not finite).
    pub fn validate(&self) -> Result<(), WorldError> {
        non_negative(
            "first_toi.threshold_radii_per_step",
            self.threshold_radii_per_step,
        )?;
        non_negative("first_toi.min_advance", self.min_advance)?;
        non_negative("first_toi.reach_skin", self.reach_skin)?;
        non_negative(
            "first_toi.impact.restitution_threshold",
            self.impact.restitution_threshold,
        )?;
        if self.max_events == 0 {
            return Err(at_least_one("first_toi.max_events"));
        }
        if self.max_pair_events == 0 {
            return Err(at_least_one("first_toi.max_pair_events"));
        }
        Ok(())
    }
}

fn at_least_one(field: &str) -> WorldError {
    WorldError::OutOfRange {
        field: field.to_owned(),
        value: 0.0,
        expected: "at least 1",
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct FirstTimeOfImpactSettingsDef {
    /// Its former name, `velocity_threshold`, still loads (see CHANGELOG.md).
    #[serde(alias = "velocity_threshold")]
    threshold_radii_per_step: Real,
    toi: ToiOptions,
    impact: ImpactSettings,
    max_events: usize,
    max_pair_events: u32,
    min_advance: Real,
    /// Absent from settings written before it existed: the whole-course reach.
    #[serde(default)]
    reach_skin: Real,
}

#[cfg(feature = "serde")]
impl TryFrom<FirstTimeOfImpactSettingsDef> for FirstTimeOfImpactSettings {
    type Error = WorldError;
    fn try_from(d: FirstTimeOfImpactSettingsDef) -> Result<Self, WorldError> {
        let s = Self {
            threshold_radii_per_step: d.threshold_radii_per_step,
            toi: d.toi,
            impact: d.impact,
            max_events: d.max_events,
            max_pair_events: d.max_pair_events,
            min_advance: d.min_advance,
            reach_skin: d.reach_skin,
        };
        s.validate()?;
        Ok(s)
    }
}

#[cfg(feature = "serde")]
impl From<FirstTimeOfImpactSettings> for FirstTimeOfImpactSettingsDef {
    fn from(s: FirstTimeOfImpactSettings) -> Self {
        Self {
            threshold_radii_per_step: s.threshold_radii_per_step,
            toi: s.toi,
            impact: s.impact,
            max_events: s.max_events,
            max_pair_events: s.max_pair_events,
            min_advance: s.min_advance,
            reach_skin: s.reach_skin,
        }
    }
}
