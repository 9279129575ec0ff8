use super::*;

#[test]
fn rates_use_decimal_prefixes_like_ns2() {
    assert_eq!(parse_rate("10Mb").unwrap(), BitsPerSec(10_000_000));
    assert_eq!(parse_rate("1.536Mbps").unwrap(), BitsPerSec(1_536_000));
    assert_eq!(parse_rate("100kb").unwrap(), BitsPerSec(100_000));
    assert_eq!(parse_rate("1Gbps").unwrap(), BitsPerSec(1_000_000_000));
    assert_eq!(parse_rate("64000").unwrap(), BitsPerSec(64_000));
    assert_eq!(parse_rate("1MB/s").unwrap(), BitsPerSec(8_000_000));
    assert_eq!(parse_rate("1e6").unwrap(), BitsPerSec(1_000_000));
}

#[test]
fn bad_rates_are_explained() {
    assert!(parse_rate("-5Mb").unwrap_err().contains("negative"));
    assert!(parse_rate("10Mx").unwrap_err().contains("unknown rate unit 'Mx'"));
    assert!(parse_rate("fast").unwrap_err().contains("does not start with a number"));
    assert!(parse_rate("0Mb").unwrap_err().contains("at least 1 bit/s"));
    assert!(parse_rate("1e30Mb").unwrap_err().contains("above the 10 Tb/s"));
}

#[test]
fn times_are_exact_picoseconds() {
    assert_eq!(parse_time("450ms").unwrap(), Dur::from_millis(450));
    assert_eq!(parse_time("1.5").unwrap(), Dur::from_millis(1500));
    assert_eq!(parse_time("8ms").unwrap().0, 8_000_000_000);
    assert_eq!(parse_time("3us").unwrap(), Dur::from_micros(3));
    assert_eq!(parse_time("2min").unwrap(), Dur::from_secs(120));
    assert_eq!(parse_time("0").unwrap(), Dur::ZERO);
    assert!(parse_time("-1s").is_err());
    assert!(parse_time("5 parsecs").unwrap_err().contains("unknown time unit"));
}

#[test]
fn sizes_and_limits() {
    assert_eq!(parse_size("64KB").unwrap(), Bytes(64_000));
    assert_eq!(parse_size("64KiB").unwrap(), Bytes(65_536));
    assert_eq!(parse_size("1040").unwrap(), Bytes(1040));
    assert!(parse_size("1.5B").is_err());
    assert_eq!(parse_limit("100p").unwrap(), Limit::Packets(100));
    assert_eq!(parse_limit("100").unwrap(), Limit::Packets(100));
    assert_eq!(parse_limit("64KB").unwrap(), Limit::Bytes(64_000));
    assert!(parse_limit("2.5p").is_err());
}

#[test]
fn serialization_time_rounds_up() {
    // 1000 B at 8 Mb/s = 1 ms exactly.
    assert_eq!(BitsPerSec(8_000_000).tx_time(1000), Dur::from_millis(1));
    // 92 B at 1.536 Mb/s = 479.1666.. us -> rounded up to the next picosecond.
    assert_eq!(BitsPerSec(1_536_000).tx_time(92), Dur(479_166_667));
    // 1040 B at 0.8 Mb/s = 10.4 ms.
    assert_eq!(BitsPerSec(800_000).tx_time(1040), Dur::from_micros(10_400));
}

#[test]
fn seconds_format_exactly() {
    assert_eq!(crate::time::fmt_secs(1_500_000_000_000), "1.5");
    assert_eq!(crate::time::fmt_secs(1), "0.000000000001");
    assert_eq!(crate::time::fmt_secs(3 * PS_PER_SEC), "3");
}
