//! The `video` app's checks and generator (reads trace files; see `app/video.rs`).

use super::flow_spec::VideoSequenceSpec;
use crate::app::video::{Pacing, Sequence, Video};
use crate::app::video_synthetic::Synthetic;
use crate::app::video_trace::{Trace, TraceFormat};
use crate::error::{CResult, ConfigError};
use crate::time::Dur;
use crate::units::{SizeSpec, TimeSpec};

/// The fields of `AppSpec::Video`.
pub(crate) struct VideoFields<'a> {
    pub sequences: &'a [VideoSequenceSpec],
    pub frame_rate: Option<f64>,
    pub packet_size: Option<SizeSpec>,
    pub pacing: Option<Pacing>,
    pub gap: Option<TimeSpec>,
    pub layer_prios: Option<[u8; 3]>,
}

/// Builds the video generator, reading its trace files; errors name the field under `path`.
pub(crate) fn video(v: VideoFields, path: &str) -> CResult<Video> {
    let fps = v.frame_rate.unwrap_or(30.0);
    if !(fps.is_finite() && fps > 0.0) {
        return Err(ConfigError::new(
            format!("{path}.frame_rate"),
            format!("{fps} must be a positive number of frames per second"),
        ));
    }
    let size = v.packet_size.map_or(1000, |s| s.0 .0);
    if size == 0 || size > u32::MAX as u64 {
        return Err(ConfigError::new(
            format!("{path}.packet_size"),
            "must be between 1 B and 4 GB",
        ));
    }
    if v.sequences.is_empty() {
        return Err(ConfigError::new(
            format!("{path}.sequences"),
            "needs at least one sequence (a trace or a synthetic name)",
        ));
    }
    let interval = Dur::from_secs_f64(1.0 / fps);
    if interval == Dur::ZERO {
        return Err(ConfigError::new(
            format!("{path}.frame_rate"),
            "is too high: the frame interval rounds to 0",
        ));
    }
    let sequences = v
        .sequences
        .iter()
        .enumerate()
        .map(|(i, s)| sequence(s, fps, interval, &format!("{path}.sequences[{i}]")))
        .collect::<CResult<_>>()?;
    let gap = v.gap.map_or(1.0, |g| g.0.as_secs_f64());
    Ok(Video::new(
        sequences,
        size as u32,
        v.pacing.unwrap_or(Pacing::Spread),
        gap,
        v.layer_prios.unwrap_or([0, 1, 2]),
    ))
}

fn sequence(s: &VideoSequenceSpec, fps: f64, interval: Dur, path: &str) -> CResult<Sequence> {
    let err = |field: &str, why: &str| Err(ConfigError::new(format!("{path}.{field}"), why));
    match (&s.trace, s.synthetic) {
        (Some(file), None) => {
            if s.layered.is_some() || s.cv.is_some() {
                return err("trace", "`layered` and `cv` are for synthetic sequences (a trace says its layers itself)");
            }
            let t = Trace::read(file, s.format.unwrap_or(TraceFormat::FrameTypeSize), interval)
                .map_err(|e| ConfigError::new(format!("{path}.trace"), e))?;
            Ok(Sequence::Trace(t))
        }
        (None, Some(name)) => {
            if s.format.is_some() {
                return err("format", "is for trace files");
            }
            let cv = s.cv.unwrap_or(0.5);
            if !(cv.is_finite() && cv > 0.0) {
                return err("cv", "must be a positive number");
            }
            let layered = s.layered.unwrap_or(true);
            Ok(Sequence::Synthetic { model: Synthetic::new(name, fps, cv, layered), layered })
        }
        _ => err(
            "trace",
            "give exactly one of `trace` (a file) or `synthetic` (barca, flower, baseball, basket)",
        ),
    }
}
