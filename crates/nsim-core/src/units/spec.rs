//! Serde wrappers that read units from strings ("10Mb", "450ms") or SI numbers.

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::{
    check_written, parse_limit, parse_rate, parse_size, parse_time, BitsPerSec, Bytes, Limit,
};
use crate::time::Dur;

macro_rules! unit_spec {
    ($(#[$m:meta])* $name:ident, $inner:ty, $parse:ident, $what:literal, $example:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "{} such as \"{}\" or a number in SI units", $what, $example)
                    }
                    // Strings must carry their unit; numbers are SI (see `check_written`).
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        check_written(s, $example).and_then(|()| $parse(s)).map($name).map_err(E::custom)
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$name, E> {
                        $parse(&format!("{v}")).map($name).map_err(E::custom)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        $parse(&v.to_string()).map($name).map_err(E::custom)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        $parse(&v.to_string()).map($name).map_err(E::custom)
                    }
                }
                d.deserialize_any(V)
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "description": concat!($what, ", e.g. \"", $example, "\", or a number in SI units"),
                    "type": ["string", "number"]
                })
            }
        }
    };
}

unit_spec!(/// A rate: "10Mb", "1.536Mbps", "64kb", or bit/s.
    RateSpec, BitsPerSec, parse_rate, "a rate", "10Mb");
unit_spec!(/// A time or duration: "450ms", "1.5s", or seconds.
    TimeSpec, Dur, parse_time, "a time", "450ms");
unit_spec!(/// A size: "1000B", "64KB", "1MiB", or bytes.
    SizeSpec, Bytes, parse_size, "a size", "1000B");
unit_spec!(/// A queue limit: packets ("100p") or bytes ("64KB"); a bare number is packets.
    LimitSpec, Limit, parse_limit, "a queue limit", "100p");

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct T {
        r: RateSpec,
        t: TimeSpec,
        l: LimitSpec,
    }

    #[test]
    fn reads_strings_and_si_numbers() {
        let v: T = toml::from_str("r = \"10Mb\"\nt = 0.45\nl = 20").unwrap();
        assert_eq!(v.r.0, BitsPerSec(10_000_000));
        assert_eq!(v.t.0, Dur::from_millis(450));
        assert_eq!(v.l.0, Limit::Packets(20));
        let v: T = toml::from_str("r = 1e6\nt = \"2ms\"\nl = \"64KB\"").unwrap();
        assert_eq!(v.r.0, BitsPerSec(1_000_000));
        assert_eq!(v.l.0, Limit::Bytes(64_000));
    }

    #[test]
    fn errors_say_why() {
        let e = toml::from_str::<T>("r = \"10Mx\"\nt = 1\nl = 1").err().unwrap().to_string();
        assert!(e.contains("unknown rate unit 'Mx'"), "{e}");
        let e = toml::from_str::<T>("r = -3\nt = 1\nl = 1").err().unwrap().to_string();
        assert!(e.contains("negative"), "{e}");
    }

    #[test]
    fn strings_need_a_unit_and_no_space() {
        for (doc, want) in [
            ("r = 1\nt = \"20\"\nl = 1", "has no unit"),
            ("r = 1\nt = 1\nl = \"25 p\"", "contains a space"),
            ("r = 1\nt = 1\nl = \"25pkts\"", "unknown queue limit unit 'pkts'"),
            ("r = \"10\"\nt = 1\nl = 1", "has no unit"),
        ] {
            let e = toml::from_str::<T>(doc).err().unwrap().to_string();
            assert!(e.contains(want), "{doc}: {e}");
        }
    }
}
