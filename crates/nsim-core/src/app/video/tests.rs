//! Video source: trace arithmetic by hand on the toy traces of tests/data/video, synthetic
//! mean rates against Noureddine 2002 Tables 5.2 / 5.3, and the inter-sequence gaps against Exp(1 s).

use super::*;
use crate::app::video_synthetic::SequenceName;
use crate::app::video_trace::TraceFormat;
use crate::rng::stream;

fn toy(name: &str, format: TraceFormat) -> Sequence {
    let path = format!("{}/../../tests/data/video/{name}", env!("CARGO_MANIFEST_DIR"));
    Sequence::Trace(Trace::read(&path, format, Dur::from_millis(40)).unwrap())
}

/// (size, gap in µs, prio) of the first `n` emissions.
fn emissions(v: &mut Video, n: usize) -> Vec<(u32, u64, Option<u8>)> {
    let mut rng = stream(1, "video");
    (0..n)
        .map(|_| {
            let e = v.next(&mut rng);
            (e.size, e.gap.0 / 1_000_000, v.prio())
        })
        .collect()
}

#[test]
fn layered_trace_is_cut_per_layer_and_spread_over_each_frame() {
    // Frame 0 (40 ms): base 1200 B = 1000 + 200, middle 800, enhancement 500: 4 packets
    // 10 ms apart. Frame 1 is empty; frame 2 (at 80 ms) one base packet; frame 3 (at 120 ms)
    // one 999 B enhancement packet; the sequence ends at 160 ms and starts again (no gap).
    let mut v = Video::new(
        vec![toy("toy_layered.trace", TraceFormat::FrameTypeSize)],
        1000,
        Pacing::Spread,
        0.0,
        [0, 1, 2],
    );
    let e = emissions(&mut v, 7);
    let p = |x| Some(x);
    assert_eq!(
        e,
        vec![
            (1000, 10_000, p(0)),
            (200, 10_000, p(0)),
            (800, 10_000, p(1)),
            (500, 50_000, p(2)),
            (1000, 40_000, p(0)),
            (999, 40_000, p(2)),
            (1000, 10_000, p(0)),
        ]
    );
    // Bytes and packets per play: exactly the trace's 4499 B in 6 packets.
    assert_eq!(e[..6].iter().map(|x| x.0).sum::<u32>(), 2500 + 1000 + 999);
}

#[test]
fn time_trace_frames_last_until_the_next_time_and_burst_sends_back_to_back() {
    // 1500 B at 0 (frame 50 ms: 1000 + 500), nothing at 50 ms, 2001 B at 100 ms (last frame:
    // 40 ms at 25 frames/s: 1000 + 1000 + 1); the sequence lasts 140 ms.
    let seq = || toy("toy_time.trace", TraceFormat::TimeSize);
    let mut spread = Video::new(vec![seq()], 1000, Pacing::Spread, 0.0, [0, 1, 2]);
    // 2001 B over 40 ms in 3 packets: offsets 0, 13.333, 26.666 ms (floors to the picosecond).
    let gaps: Vec<u64> = (0..6).map(|_| spread.next(&mut stream(1, "v")).gap.0).collect();
    assert_eq!(
        gaps,
        vec![
            25_000_000_000,
            75_000_000_000,
            13_333_333_333,
            13_333_333_333,
            13_333_333_334,
            25_000_000_000
        ]
    );
    assert_eq!(spread.prio(), None, "an unlayered trace leaves the flow's prio");
    let mut burst = Video::new(vec![seq()], 1000, Pacing::Burst, 0.0, [0, 1, 2]);
    let e = emissions(&mut burst, 5);
    assert_eq!(
        e.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(),
        vec![(1000, 0), (500, 100_000), (1000, 0), (1000, 0), (1, 40_000)]
    );
}

#[test]
fn synthetic_layer_rates_match_table_5_3() {
    // Each sequence played back to back (no gaps) for at least 7200 frames at 30 frames/s:
    // mean rate per layer within 2 % of Table 5.3 (the lognormal factor's CV 0.5 gives a
    // standard error of about 0.6 %). Packets larger than any frame: one per layer and frame.
    for (seed, name) in
        [SequenceName::Barca, SequenceName::Flower, SequenceName::Baseball, SequenceName::Basket]
            .into_iter()
            .enumerate()
    {
        let model = Synthetic::new(name, 30.0, 0.5, true);
        let (frames, interval) = (model.frames, model.interval);
        let plays = 7200_usize.div_ceil(frames);
        let mut v = Video::new(
            vec![Sequence::Synthetic { model, layered: true }],
            1_000_000,
            Pacing::Burst,
            0.0,
            [0, 1, 2],
        );
        let mut rng = stream(seed as u64, "video");
        let (mut bytes, mut t) = ([0u64; 3], 0u64);
        while t < (plays * frames) as u64 * interval.0 {
            let e = v.next(&mut rng);
            bytes[v.prio().unwrap() as usize] += e.size as u64;
            t += e.gap.0;
        }
        let secs = t as f64 / crate::time::PS_PER_SEC as f64;
        for (l, want) in name.table().2.into_iter().enumerate() {
            let got = bytes[l] as f64 * 8.0 / secs;
            assert!((got / want - 1.0).abs() < 0.02, "{name:?} layer {l}: {got} bit/s vs {want}");
        }
    }
}

#[test]
fn unlayered_synthetic_rate_matches_table_5_2() {
    let model = Synthetic::new(SequenceName::Flower, 30.0, 0.5, false);
    let mut v = Video::new(
        vec![Sequence::Synthetic { model, layered: false }],
        1500,
        Pacing::Burst,
        0.0,
        [0, 1, 2],
    );
    let mut rng = stream(4, "video");
    let (mut bytes, mut t) = (0u64, 0u64);
    while t < 250 * crate::time::PS_PER_SEC - 1_000_000 {
        let e = v.next(&mut rng);
        assert_eq!(v.prio(), None);
        bytes += e.size as u64;
        t += e.gap.0;
    }
    let got = bytes as f64 * 8.0 / 250.0;
    assert!((got / 5.95e6 - 1.0).abs() < 0.02, "{got} bit/s vs 5.95 Mbps");
}

#[test]
fn gaps_between_sequences_are_exponential_with_mean_1s() {
    // Burst pacing with packets larger than any layer: each frame sends back to back and its
    // last packet waits one frame interval, plus the gap T after every 120th frame of barca.
    // Kolmogorov-Smirnov against Exp(1) over 1000 gaps: D below the 1 % critical value
    // 1.628/sqrt(n) (asymptotic Kolmogorov distribution).
    let model = Synthetic::new(SequenceName::Barca, 30.0, 0.5, true);
    let interval = model.interval;
    let mut v = Video::new(
        vec![Sequence::Synthetic { model, layered: true }],
        1_000_000,
        Pacing::Burst,
        1.0,
        [0, 1, 2],
    );
    let mut rng = stream(5, "video");
    let (mut frames, mut gaps) = (0, Vec::new());
    while gaps.len() < 1000 {
        let g = v.next(&mut rng).gap;
        if g > Dur::ZERO {
            frames += 1;
            if frames % 120 == 0 {
                gaps.push(Dur(g.0 - interval.0).as_secs_f64());
            } else {
                assert_eq!(g, interval);
            }
        }
    }
    gaps.sort_by(f64::total_cmp);
    let n = gaps.len() as f64;
    let d = gaps.iter().enumerate().map(|(i, &x)| {
        let f = 1.0 - (-x).exp();
        (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
    });
    let d = d.fold(0.0, f64::max);
    assert!(d < 1.628 / n.sqrt(), "KS D = {d}");
}
