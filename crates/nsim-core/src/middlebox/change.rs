//! Middlebox parameter changes while the run goes on (issue 27): a `set` event naming a
//! `middlebox`, or steering (Python's `Simulation.set_middlebox`).
//!
//! What each hook does with a change is in its own file ([`super::Hook::change`]); the rules
//! (docs/models/middlebox.md "Changes during a run") are those of setting the variable in a
//! running proxy: the new value applies to the packets that reach the hook from then on;
//! packets a delay hook already holds keep their release time.

use super::Hook;

/// A new value for one parameter of a hook, in the units of the `[[middlebox]]` tables.
#[derive(Clone, Debug, PartialEq)]
pub enum HookChange {
    /// `delay`: the hold time.
    Delay(crate::time::Dur),
    /// `drop_every`: the period `n` (counting starts again from the change).
    N(u64),
    /// `rwnd_clamp`: the largest window written, in bytes.
    Rwnd(u64),
    /// `window_cap`: the cap in segments.
    Segments(u64),
    /// `ip_abr`: the per-flow share, in bits per second.
    Share(u64),
    /// `ip_abr`: the EWMA gain of its averages.
    Gain(f64),
    /// `ip_abr`: the smallest window written, in bytes.
    MinRwnd(u64),
}

impl HookChange {
    /// The field name, in an `[[event]]` table as in the `[[middlebox]]` hook table.
    pub fn field(&self) -> &'static str {
        match self {
            HookChange::Delay(_) => "delay",
            HookChange::N(_) => "n",
            HookChange::Rwnd(_) => "rwnd",
            HookChange::Segments(_) => "segments",
            HookChange::Share(_) => "share",
            HookChange::Gain(_) => "gain",
            HookChange::MinRwnd(_) => "min_rwnd",
        }
    }

    /// Whether the value is possible at all (the checks of the `[[middlebox]]` table).
    pub fn check(&self) -> Result<(), String> {
        match *self {
            HookChange::Delay(d) if d == crate::time::Dur::ZERO => {
                Err("must be greater than zero".into())
            }
            HookChange::N(0) | HookChange::Segments(0) => Err("must be at least 1".into()),
            HookChange::Gain(g) if !(g > 0.0 && g <= 1.0) => Err(format!("{g} is not in (0, 1]")),
            _ => Ok(()),
        }
    }
}

/// The refusal of a hook without the parameter: which ones it has.
pub(crate) fn no_such_parameter(hook: &dyn Hook, c: &HookChange) -> String {
    let has = hook.parameters();
    if has.is_empty() {
        return format!(
            "a '{}' middlebox has no `{}` (nothing of it can change during a run)",
            hook.kind(),
            c.field()
        );
    }
    format!(
        "a '{}' middlebox has no `{}` (it can change: {})",
        hook.kind(),
        c.field(),
        has.join(", ")
    )
}
