//! Sufficient statistics that merge exactly (integer counts, sums and sums of squares, exact
//! histograms), the intervals drawn from them, and the tests that compare two of them.
//!
//! Every sum is an integer, so that adding the statistics of two sets of games gives the same
//! bits in any order: threads and shards merge into exactly what one run would have counted.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Scale of the fixed-point numbers that hold fractions in [0, 1] (units of 2^-32), so that
/// their sums are integers.
pub const FIXED_ONE: u64 = 1 << 32;

/// A fraction in [0, 1] as a fixed-point integer (rounded to the nearest unit of 2^-32).
pub fn to_fixed(num: u64, den: u64) -> u64 {
    if den == 0 {
        return 0;
    }
    ((num as u128 * FIXED_ONE as u128 + den as u128 / 2) / den as u128) as u64
}

/// The count, sum and sum of squares of integer values. In JSON a sum beyond 64 bits is
/// written as a string of its digits (JSON readers lose the digits of larger numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    #[serde(with = "wide")]
    pub sum: u128,
    #[serde(with = "wide")]
    pub sum_sq: u128,
}

/// A u128 in JSON: a number when it fits 64 bits, else a string of digits.
mod wide {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(x: &u128, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(*x) {
            Ok(v) => s.serialize_u64(v),
            Err(_) => s.serialize_str(&x.to_string()),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Wide {
        Number(u64),
        Digits(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        match Wide::deserialize(d)? {
            Wide::Number(v) => Ok(v as u128),
            Wide::Digits(t) => t.parse().map_err(D::Error::custom),
        }
    }
}

impl Moments {
    #[inline]
    pub fn add(&mut self, x: u64) {
        self.n += 1;
        self.sum += x as u128;
        self.sum_sq += x as u128 * x as u128;
    }

    pub fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// The mean (NaN with no value).
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.n as f64
    }

    /// The sample variance (n - 1 in the denominator; NaN with fewer than two values), from
    /// the exact integer n·Σx² − (Σx)².
    pub fn var(&self) -> f64 {
        var_of(self.n, self.sum, self.sum_sq)
    }
}

fn var_of(n: u64, sum: u128, sum_sq: u128) -> f64 {
    if n < 2 {
        return f64::NAN;
    }
    // n·Σx² ≥ (Σx)² always; computed in floating point only when the integers would overflow
    let num = match (n as u128).checked_mul(sum_sq).zip(sum.checked_mul(sum)) {
        Some((a, b)) => a.saturating_sub(b) as f64,
        None => (n as f64 * sum_sq as f64 - (sum as f64).powi(2)).max(0.0),
    };
    num / (n as f64 * (n - 1) as f64)
}

/// An exact histogram of non-negative integer values (game lengths, rounds): small values in a
/// dense table, larger ones in an ordered map. Percentiles read from it merge exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl Histogram {
    /// Values below this go to the dense table.
    const DENSE: u64 = 1 << 16;

    #[inline]
    pub fn add(&mut self, v: u64) {
        self.add_n(v, 1);
    }

    pub fn add_n(&mut self, v: u64, c: u64) {
        if c == 0 {
            return;
        }
        if v < Self::DENSE {
            let i = v as usize;
            if i >= self.dense.len() {
                // by powers of two: a longer game than all before rarely allocates
                self.dense.resize((i + 1).next_power_of_two().max(64), 0);
            }
            self.dense[i] += c;
        } else {
            *self.sparse.entry(v).or_default() += c;
        }
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (v, c) in o.iter() {
            self.add_n(v, c);
        }
    }

    /// (value, count) in increasing value, counts above zero.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(v, c)| (v as u64, *c))
            .chain(self.sparse.iter().map(|(v, c)| (*v, *c)))
    }

    pub fn count(&self) -> u64 {
        self.iter().map(|(_, c)| c).sum()
    }

    pub fn moments(&self) -> Moments {
        let mut m = Moments::default();
        for (v, c) in self.iter() {
            m.n += c;
            m.sum += v as u128 * c as u128;
            m.sum_sq += (v as u128 * v as u128) * c as u128;
        }
        m
    }

    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(v, _)| v)
    }

    pub fn max(&self) -> Option<u64> {
        self.sparse
            .keys()
            .next_back()
            .copied()
            .or_else(|| self.dense.iter().rposition(|&c| c > 0).map(|v| v as u64))
    }

    /// The `p`-th percentile (0 < p ≤ 100) by nearest rank: the smallest value v such that at
    /// least ⌈p·n/100⌉ of the n values are ≤ v. None with no value.
    pub fn percentile(&self, p: u32) -> Option<u64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = (p as u128 * n as u128).div_ceil(100).max(1) as u64;
        let mut seen = 0;
        for (v, c) in self.iter() {
            seen += c;
            if seen >= rank {
                return Some(v);
            }
        }
        self.max()
    }
}

impl Serialize for Histogram {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(|(v, c)| [v, c]))
    }
}

impl<'de> Deserialize<'de> for Histogram {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let pairs: Vec<[u64; 2]> = Vec::deserialize(d)?;
        let mut h = Histogram::default();
        for [v, c] in pairs {
            h.add_n(v, c);
        }
        Ok(h)
    }
}

/// The Wilson score interval at 95% for a proportion `p` of `n` trials (draws counted as half a
/// win are allowed: the score is treated as a proportion). (0, 1) with no trial.
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let n = n as f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    let lo = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The normal-approximation 95% interval of a mean: mean ± 1.96·sd/√n (NaN with fewer than
/// two values).
pub fn mean_interval(mean: f64, var: f64, n: u64) -> (f64, f64) {
    let half = Z95 * (var / n as f64).sqrt();
    (mean - half, mean + half)
}

/// The complementary error function (W. J. Cody's rational approximations as in Numerical
/// Recipes' `erfcc`, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The two-sided p-value of a standard normal statistic z.
pub fn p_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// Two-proportion z-test (pooled): the two-sided p-value of x1/n1 against x2/n2 (NaN when it
/// cannot be computed: no trial, or both proportions 0 or both 1).
pub fn two_proportion_p(x1: f64, n1: u64, x2: f64, n2: u64) -> f64 {
    if n1 == 0 || n2 == 0 {
        return f64::NAN;
    }
    let (a, b) = (n1 as f64, n2 as f64);
    let pooled = (x1 + x2) / (a + b);
    let se = (pooled * (1.0 - pooled) * (1.0 / a + 1.0 / b)).sqrt();
    if se == 0.0 {
        return if x1 / a == x2 / b { 1.0 } else { 0.0 };
    }
    p_two_sided((x1 / a - x2 / b) / se)
}

/// Welch's test of two means with the normal approximation of its statistic (the samples of a
/// study are large): the two-sided p-value.
pub fn welch_p(m1: f64, v1: f64, n1: u64, m2: f64, v2: f64, n2: u64) -> f64 {
    if n1 < 2 || n2 < 2 {
        return f64::NAN;
    }
    let se = (v1 / n1 as f64 + v2 / n2 as f64).sqrt();
    if se == 0.0 {
        return if m1 == m2 { 1.0 } else { 0.0 };
    }
    p_two_sided((m1 - m2) / se)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut h = Histogram::default();
        for v in 1..=10 {
            h.add(v);
        }
        assert_eq!(h.percentile(10), Some(1));
        assert_eq!(h.percentile(50), Some(5));
        assert_eq!(h.percentile(90), Some(9));
        assert_eq!(h.percentile(100), Some(10));
        assert_eq!((h.min(), h.max()), (Some(1), Some(10)));
        h.add(1 << 20);
        assert_eq!(h.max(), Some(1 << 20));
        assert_eq!(h.percentile(100), Some(1 << 20));
        assert_eq!(Histogram::default().percentile(50), None);
    }

    #[test]
    fn histograms_and_moments_merge_exactly() {
        let (mut a, mut b, mut all) = (
            Histogram::default(),
            Histogram::default(),
            Histogram::default(),
        );
        for v in [3u64, 5, 5, 70_000, 9] {
            a.add(v);
            all.add(v);
        }
        for v in [1u64, 5, 100_000] {
            b.add(v);
            all.add(v);
        }
        a.merge(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), all.iter().collect::<Vec<_>>());
        let m = all.moments();
        assert_eq!((m.n, m.sum), (8, 170_028));
        let json = serde_json::to_string(&all).unwrap();
        assert_eq!(json, "[[1,1],[3,1],[5,3],[9,1],[70000,1],[100000,1]]");
        let back: Histogram = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            all.iter().collect::<Vec<_>>()
        );
    }

    #[test]
    fn variance_is_exact() {
        let mut m = Moments::default();
        for x in [2u64, 4, 4, 4, 5, 5, 7, 9] {
            m.add(x);
        }
        assert_eq!(m.mean(), 5.0);
        assert!((m.var() - 32.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn intervals_and_tests() {
        let (l, h) = wilson(0.5, 100);
        assert!((l - 0.4038).abs() < 1e-3 && (h - 0.5962).abs() < 1e-3);
        assert!((p_two_sided(1.959_963_984_540_054) - 0.05).abs() < 1e-6);
        assert!((p_two_sided(0.0) - 1.0).abs() < 1e-6);
        // 60/100 against 40/100: z = 2.828, p = 0.00468
        assert!((two_proportion_p(60.0, 100, 40.0, 100) - 0.004_678).abs() < 1e-5);
        assert!(two_proportion_p(50.0, 100, 52.0, 100) > 0.05);
        assert_eq!(to_fixed(1, 4), FIXED_ONE / 4);
        assert_eq!(to_fixed(3, 3), FIXED_ONE);
    }

    #[test]
    fn wide_sums_survive_json() {
        let m = Moments {
            n: 2,
            sum: 5,
            sum_sq: (1u128 << 70) + 3,
        };
        let v = serde_json::to_value(&m).unwrap();
        assert_eq!(v["sum"], 5);
        assert_eq!(v["sum_sq"], "1180591620717411303427");
        assert_eq!(serde_json::from_value::<Moments>(v).unwrap(), m);
    }
}
