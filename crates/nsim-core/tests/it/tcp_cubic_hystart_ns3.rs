//! CUBIC's slow start beside ns-3.37's TcpCubic with its HyStart on (reference/ns3/cubic_hystart:
//! our ns-3 program and its reduced output; nsim's twin is scenarios/tcp_cubic_hystart.toml, one
//! flow with HyStart++ and one without on two copies of the same 10 Mb/s, 100 ms path with a
//! 500-packet buffer). ns-3's HyStart is the older Ha & Rhee algorithm of Linux's tcp_cubic.c
//! (an ACK-train and a delay detector, exit straight to congestion avoidance), not RFC 9406's
//! HyStart++, so three things are compared:
//!
//! 1. Standard slow start (nsim without HyStart++; ns-3 with only its delay detector, which
//!    never fires here): the first loss's reduction and the window it cut, ±2 %.
//! 2. Where each HyStart first reacts: the first round in which the bottleneck stays busy. ns-3's
//!    ACK train ends slow start at that round's end, once ACKs have come back to back for longer
//!    than the minimum RTT; nsim's HyStart++ enters Conservative Slow Start on the 8th ACK of the
//!    next round, whose minimum RTT the queue left over lifts by RttThresh (RFC 9406 §4.2). So
//!    nsim reacts 0-60 ms later, at a window larger by the ACKs in between (one per packet the
//!    10 Mb/s link delivers, 1202 per second, each adding one in slow start), ±3 packets.
//! 3. What follows differs by design: ns-3 is in congestion avoidance without a loss, nsim
//!    grows a quarter as fast for CSS_ROUNDS rounds, which queueing stretches here, and fills
//!    the buffer at a window well below standard slow start's.

use crate::common;

use std::collections::HashMap;

/// reference/ns3/cubic_hystart/summary.csv, by case; empty fields are NaN.
fn reference() -> HashMap<String, HashMap<String, f64>> {
    let path =
        format!("{}/../../reference/ns3/cubic_hystart/summary.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("summary.csv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let row = head
                .iter()
                .zip(&f)
                .skip(1)
                .map(|(h, v)| (h.to_string(), v.parse().unwrap_or(f64::NAN)))
                .collect();
            (f[0].to_string(), row)
        })
        .collect()
}

#[test]
fn slow_start_and_hystart_beside_ns3_tcpcubic() {
    let path = format!("{}/../../scenarios/tcp_cubic_hystart.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let c = &r.series.cwnd;
    let flow = |f: u32| (0..c.time_s.len()).filter(move |&i| c.flow[i] == f);
    // The first reduction: ssthresh set below the largest window so far (a loss or ECN).
    let first_loss = |f: u32| {
        let mut peak = 0.0f64;
        for i in flow(f) {
            if c.ssthresh_pkts[i] < 0.95 * peak {
                return (c.time_s[i], peak);
            }
            peak = peak.max(c.cwnd_pkts[i]);
        }
        panic!("flow {f} lost nothing");
    };
    let ns3 = reference();
    // 1. Flow 1 is standard slow start; ns-3's delay-only HyStart did not fire.
    let (t, w) = first_loss(1);
    let ss = &ns3["delay_16ms"];
    assert!(ss["hystart_exit_s"].is_nan(), "ns-3's delay detector fired: rerun the comparison");
    println!(
        "standard: first loss {t:.4} s at cwnd {w}; ns-3 {:.3} s at {}",
        ss["first_loss_s"], ss["max_cwnd_3s_pkts"]
    );
    assert!(
        (t / ss["first_loss_s"] - 1.0).abs() <= 0.02,
        "first loss {t:.4} vs {}",
        ss["first_loss_s"]
    );
    assert!(
        (w / ss["max_cwnd_3s_pkts"] - 1.0).abs() <= 0.02,
        "window {w} vs {}",
        ss["max_cwnd_3s_pkts"]
    );
    // 2. Flow 0 (HyStart++): slow start's window grows by whole packets (no byte counting), CSS's
    // by quarters, so its first fractional window marks CSS's start.
    let css = flow(0).find(|&i| c.cwnd_pkts[i].fract() != 0.0).expect("CSS starts");
    let (t_css, w_css) = (c.time_s[css], c.cwnd_pkts[css]);
    let hy = &ns3["both"];
    println!(
        "HyStart++ enters CSS at {t_css:.4} s, cwnd {w_css}; ns-3 HyStart exits at {} s, {}",
        hy["hystart_exit_s"], hy["hystart_exit_cwnd_pkts"]
    );
    let lag = t_css - hy["hystart_exit_s"];
    assert!(
        (0.0..=0.06).contains(&lag),
        "CSS at {t_css:.4} vs ns-3's exit at {}",
        hy["hystart_exit_s"]
    );
    let acks_per_s = 10e6 / 8.0 / 1040.0;
    let expect = hy["hystart_exit_cwnd_pkts"] + acks_per_s * lag;
    assert!(
        (w_css - expect).abs() <= 3.0,
        "cwnd {w_css} vs ns-3's {} + {:.1} ACKs",
        hy["hystart_exit_cwnd_pkts"],
        acks_per_s * lag
    );
    // 3. ns-3 loses nothing in its first 3 s; HyStart++ overflows during CSS, at a window well
    // below standard slow start's.
    assert!(hy["first_loss_s"] > 3.0);
    let (t0, w0) = first_loss(0);
    println!("HyStart++: first loss {t0:.4} s at cwnd {w0}");
    assert!(t0 > t_css && w0 < 0.75 * w, "HyStart++'s first loss at {w0} against standard's {w}");
}
