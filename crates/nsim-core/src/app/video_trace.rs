//! Frame-size trace files for the video source Noureddine 2002 (§2.6 and §6 item 11: MPEG-2 frame
//! traces, Open-Loop VBR, Data Partitioning into 3 layers).
//!
//! Two text layouts, one frame per line, whitespace-separated; blank lines and lines starting
//! with `#` are skipped:
//!
//! * `frame_type_size`: `<frame_no> <type> <bytes> [<base> <middle> <enh>]`, the layout of
//!   the ASU / TKN MPEG trace libraries ("Frame# Type Size"). Frames are played in file
//!   order, one every 1/`frame_rate` seconds; `frame_no` must be a whole number and `type`
//!   one of I, P, B (other letters, e.g. D, are rejected so a column mix-up is caught).
//! * `time_size`: `<time_s> <bytes> [<base> <middle> <enh>]`: each frame starts at its time
//!   (offsets from the first line); times never decrease; the last frame lasts 1/`frame_rate`.
//!
//! The three optional columns are the bytes of the base, middle and enhancement layers; when
//! given they must add up to `bytes` (the frame is then "layered"). Either every line has
//! them or none does.

use crate::time::Dur;

/// A trace layout (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TraceFormat {
    FrameTypeSize,
    TimeSize,
}

/// MPEG frame types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameType {
    I,
    P,
    B,
}

/// One frame: when it starts (from the start of the sequence) and its bytes per layer (all in
/// the base layer when the trace is not layered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceFrame {
    pub start: Dur,
    pub layers: [u32; 3],
    pub kind: Option<FrameType>,
}

/// A parsed trace: its frames, its length (start of the last frame plus one frame interval)
/// and whether it gives per-layer sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub frames: Vec<TraceFrame>,
    pub length: Dur,
    pub layered: bool,
}

impl Trace {
    /// Parses `text` in `format`, with frames `interval` apart (`frame_type_size`) or lasting
    /// `interval` at the end (`time_size`). Errors name the line.
    pub fn parse(text: &str, format: TraceFormat, interval: Dur) -> Result<Trace, String> {
        let mut frames: Vec<TraceFrame> = Vec::new();
        let mut layered = None;
        let (mut first_time, mut last_time) = (None, None::<f64>);
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |what: &str| format!("line {}: {what} (\"{line}\")", n + 1);
            let cols: Vec<&str> = line.split_whitespace().collect();
            let fixed = match format {
                TraceFormat::FrameTypeSize => 3,
                TraceFormat::TimeSize => 2,
            };
            if cols.len() != fixed && cols.len() != fixed + 3 {
                return Err(at(&format!(
                    "expected {fixed} columns, or {} with per-layer sizes, found {}",
                    fixed + 3,
                    cols.len()
                )));
            }
            let has_layers = cols.len() == fixed + 3;
            if *layered.get_or_insert(has_layers) != has_layers {
                return Err(at("per-layer sizes must be given on every line or on none"));
            }
            let bytes = |s: &str, what: &str| {
                s.parse::<u32>()
                    .map_err(|_| at(&format!("{what} '{s}' is not a whole number of bytes")))
            };
            let (start, kind) = match format {
                TraceFormat::FrameTypeSize => {
                    cols[0].parse::<u64>().map_err(|_| {
                        at(&format!("frame number '{}' is not a whole number", cols[0]))
                    })?;
                    let kind = match cols[1] {
                        "I" | "i" => FrameType::I,
                        "P" | "p" => FrameType::P,
                        "B" | "b" => FrameType::B,
                        t => return Err(at(&format!("frame type '{t}' is not I, P or B"))),
                    };
                    (Dur(interval.0 * frames.len() as u64), Some(kind))
                }
                TraceFormat::TimeSize => {
                    let t: f64 = cols[0]
                        .parse()
                        .ok()
                        .filter(|t: &f64| t.is_finite() && *t >= 0.0)
                        .ok_or_else(|| {
                            at(&format!("time '{}' is not a number of seconds >= 0", cols[0]))
                        })?;
                    if last_time.is_some_and(|last| t < last) {
                        return Err(at("frame times must not decrease"));
                    }
                    last_time = Some(t);
                    (Dur::from_secs_f64(t - *first_time.get_or_insert(t)), None)
                }
            };
            let size = bytes(cols[fixed - 1], "size")?;
            let layers = if has_layers {
                let l = [
                    bytes(cols[fixed], "base")?,
                    bytes(cols[fixed + 1], "middle")?,
                    bytes(cols[fixed + 2], "enhancement")?,
                ];
                if l.iter().map(|&b| b as u64).sum::<u64>() != size as u64 {
                    return Err(at(&format!(
                        "layer sizes add up to {}, not the frame size {size}",
                        l.iter().map(|&b| b as u64).sum::<u64>()
                    )));
                }
                l
            } else {
                [size, 0, 0]
            };
            frames.push(TraceFrame { start, layers, kind });
        }
        let Some(last) = frames.last() else { return Err("the trace has no frames".into()) };
        if frames.iter().all(|f| f.layers == [0; 3]) {
            return Err("every frame of the trace is empty (0 bytes)".into());
        }
        let length = last.start + interval;
        Ok(Trace { frames, length, layered: layered.unwrap_or(false) })
    }

    /// Reads and parses the trace file at `path`.
    pub fn read(path: &str, format: TraceFormat, interval: Dur) -> Result<Trace, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read trace file '{path}': {e}"))?;
        Trace::parse(&text, format, interval).map_err(|e| format!("trace file '{path}': {e}"))
    }

    /// The start of frame `i` to the start of the next (the end of the sequence for the last).
    pub fn frame_len(&self, i: usize) -> Dur {
        let end = self.frames.get(i + 1).map_or(self.length, |f| f.start);
        Dur(end.0 - self.frames[i].start.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS40: Dur = Dur::from_millis(40);

    #[test]
    fn frame_type_size_with_layers() {
        let t = Trace::parse(
            "# toy\n0 I 3000 1000 1000 1000\n\n1 B 10 10 0 0\n",
            TraceFormat::FrameTypeSize,
            MS40,
        )
        .unwrap();
        assert!(t.layered);
        assert_eq!(
            t.frames[1],
            TraceFrame { start: MS40, layers: [10, 0, 0], kind: Some(FrameType::B) }
        );
        assert_eq!(t.length, Dur::from_millis(80));
    }

    #[test]
    fn time_size_offsets_from_the_first_time() {
        let t = Trace::parse("10.0 500\n10.05 700\n", TraceFormat::TimeSize, MS40).unwrap();
        assert!(!t.layered);
        assert_eq!(t.frames[1].start, Dur::from_millis(50));
        assert_eq!(t.frames[1].layers, [700, 0, 0]);
        assert_eq!((t.frame_len(0), t.frame_len(1)), (Dur::from_millis(50), MS40));
    }

    #[test]
    fn errors_name_the_line_and_the_reason() {
        let e = |s: &str, f| Trace::parse(s, f, MS40).unwrap_err();
        assert!(e("0 I 100\n1 X 100\n", TraceFormat::FrameTypeSize)
            .starts_with("line 2: frame type 'X'"));
        assert!(e("0 I 100 1 2 3\n", TraceFormat::FrameTypeSize)
            .contains("add up to 6, not the frame size 100"));
        assert!(e("0 I 100 50 50 0\n1 P 10\n", TraceFormat::FrameTypeSize)
            .contains("every line or on none"));
        assert!(e("1.0 10\n0.5 10\n", TraceFormat::TimeSize).contains("must not decrease"));
        assert!(e("0 I 100\n", TraceFormat::TimeSize).contains("expected 2 columns"));
        assert!(e("# nothing\n", TraceFormat::TimeSize).contains("no frames"));
        assert!(e("0 0\n", TraceFormat::TimeSize).contains("empty"));
    }
}
