//! Shards of a study, and merging their results: `--shard i/N` plays a contiguous block of the
//! game indices, and [`merge`] adds the statistics of results that played disjoint blocks of
//! the same study, into exactly what one run of them all gives.

use super::report::Study;
use serde_json::Value;
use std::ops::Range;

/// A shard's result: a study's (`simulate --shard`) or a comparison's columns (`compare
/// --shard`), as `(column name, study)`.
pub enum Shard {
    Study(Box<Study>),
    Comparison(Vec<(String, Study)>),
}

/// Reads the JSON of a shard's result; `name` names it in errors (a file's name).
pub fn read_shard(v: &Value, name: &str) -> Result<Shard, String> {
    let Some(columns) = v.get("columns") else {
        return Study::from_json(v, name).map(|s| Shard::Study(Box::new(s)));
    };
    let bad = || {
        format!(
            "`{name}`: its `columns` are not those of a comparison (`ludic compare --format json` writes them)"
        )
    };
    let columns = columns
        .as_array()
        .filter(|c| !c.is_empty())
        .ok_or_else(bad)?;
    let mut out = vec![];
    for c in columns {
        let column = c.get("column").and_then(Value::as_str).ok_or_else(bad)?;
        let study = Study::from_json(c, &format!("{name}, column {column}"))?;
        out.push((column.to_string(), study));
    }
    Ok(Shard::Comparison(out))
}

/// Reads `i/N` (shards are numbered from 1).
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`--shard {s}`: write i/N, the shard i of N (1 ≤ i ≤ N), e.g. 3/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The game indices shard `i` of `n` plays among `games`: the block [⌊(i−1)·games/n⌋,
/// ⌊i·games/n⌋).
pub fn shard_range(games: u64, i: u64, n: u64) -> Range<u64> {
    let at = |k: u64| (k as u128 * games as u128 / n as u128) as u64;
    at(i - 1)..at(i)
}

/// Ranges sorted and joined where they touch; empty ones dropped.
fn coalesce(mut r: Vec<[u64; 2]>) -> Vec<[u64; 2]> {
    r.retain(|x| x[0] < x[1]);
    r.sort();
    let mut out: Vec<[u64; 2]> = vec![];
    for x in r {
        match out.last_mut() {
            Some(last) if last[1] == x[0] => last[1] = x[1],
            _ => out.push(x),
        }
    }
    out
}

/// Merges the results of shards of one study (`(file name, study)`): the same game, options,
/// seed, agents, metrics and number of games, none partial, no game played twice.
pub fn merge(parts: &[(String, Study)]) -> Result<Study, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    let mut all: Vec<([u64; 2], &str)> = vec![];
    for (name, s) in parts {
        if s.partial && s.ranges.is_none() {
            return Err(format!(
                "`{name}` is a partial result (the run was stopped): run its shard again"
            ));
        }
        let differs = |what: &str, a: String, b: String| {
            Err(format!(
                "`{name}` and `{first_name}` are not results of one study: their {what} differ ({b} and {a})"
            ))
        };
        if s.game != first.game || s.source_hash != first.source_hash {
            return differs(
                "games",
                format!("{} {}", first.game, first.source_hash),
                format!("{} {}", s.game, s.source_hash),
            );
        }
        if s.options != first.options {
            return differs(
                "options",
                format!("{:?}", first.options),
                format!("{:?}", s.options),
            );
        }
        if s.seed != first.seed {
            return differs("seeds", first.seed.to_string(), s.seed.to_string());
        }
        if s.agents != first.agents {
            return differs(
                "agents",
                format!("{:?}", first.agents),
                format!("{:?}", s.agents),
            );
        }
        if s.full != first.full {
            return differs(
                "metrics (--quick)",
                first.full.to_string(),
                s.full.to_string(),
            );
        }
        if s.requested != first.requested {
            return differs(
                "numbers of games (-n)",
                first.requested.to_string(),
                s.requested.to_string(),
            );
        }
        if s.sides != first.sides || s.rounds_game != first.rounds_game {
            return differs(
                "sides",
                format!("{:?}", first.sides),
                format!("{:?}", s.sides),
            );
        }
        let Some(ranges) = &s.ranges else {
            return Err(format!("`{name}` does not say which games it played"));
        };
        // its statistics must be those of the games its ranges say, within the study's -n
        let mut played = 0u64;
        for r in ranges {
            if r[0] > r[1] || r[1] > s.requested {
                return Err(format!(
                    "`{name}` says it played games {}..{}, outside the study's {} games",
                    r[0], r[1], s.requested
                ));
            }
            played = played.saturating_add(r[1] - r[0]);
        }
        if played != s.stats.games {
            return Err(format!(
                "`{name}` holds {} games but its ranges say {played}: an edited or damaged result",
                s.stats.games
            ));
        }
        if let Some(what) = s.stats.inconsistency() {
            return Err(format!(
                "`{name}`: its statistics do not agree with one another ({what}): an edited or damaged result"
            ));
        }
        all.extend(ranges.iter().map(|r| (*r, name.as_str())));
    }
    all.retain(|(r, _)| r[0] < r[1]);
    all.sort();
    for w in all.windows(2) {
        let ((a, na), (b, nb)) = (w[0], w[1]);
        if b[0] < a[1] {
            return Err(format!(
                "`{na}` and `{nb}` both played games {}..{}: a shard given twice?",
                b[0],
                a[1].min(b[1])
            ));
        }
    }
    let mut out = first.clone();
    out.ranges = Some(coalesce(all.iter().map(|(r, _)| *r).collect()));
    out.threads = None;
    for (name, s) in &parts[1..] {
        out.stats.checked_merge(&s.stats).map_err(|what| {
            format!(
                "`{name}`: its {what} do not fit the sum of the shards: an edited or damaged result"
            )
        })?;
        out.seconds += s.seconds;
    }
    // shards missing: the merged result is partial (its ranges say which games it holds)
    out.partial = out.stats.games < out.requested;
    Ok(out)
}

/// Merges the results of shards of one comparison (`compare --shard i/N`): each is `(file
/// name, its columns as (name, study))`, and every column is merged with [`merge`], with its
/// checks. The shards must have the same columns, in the same order.
pub fn merge_columns(
    parts: &[(String, Vec<(String, Study)>)],
) -> Result<Vec<(String, Study)>, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    let names = |cols: &[(String, Study)]| -> Vec<String> {
        cols.iter().map(|(n, _)| format!("`{n}`")).collect()
    };
    let columns = |n: usize| format!("{n} column{}", if n == 1 { "" } else { "s" });
    for (name, cols) in parts {
        if cols.len() != first.len() {
            return Err(format!(
                "`{name}` has {} and `{first_name}` {}: not shards of one comparison (or one was stopped before its last column: run its shard again)",
                columns(cols.len()),
                columns(first.len())
            ));
        }
        if cols.iter().zip(first).any(|((a, _), (b, _))| a != b) {
            return Err(format!(
                "`{name}` and `{first_name}` are not shards of one comparison: their columns differ ({} and {})",
                names(cols).join(", "),
                names(first).join(", ")
            ));
        }
    }
    let mut out = vec![];
    for (k, (column, _)) in first.iter().enumerate() {
        let shards: Vec<(String, Study)> = parts
            .iter()
            .map(|(name, cols)| (format!("{name}, column {column}"), cols[k].1.clone()))
            .collect();
        out.push((column.clone(), merge(&shards)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_games_once() {
        assert_eq!(parse_shard("3/8"), Ok((3, 8)));
        for bad in ["0/8", "9/8", "1/0", "3", "a/b", "-1/2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let mut next = 0;
        for i in 1..=7 {
            let r = shard_range(100, i, 7);
            assert_eq!(r.start, next);
            next = r.end;
        }
        assert_eq!(next, 100);
        assert_eq!(shard_range(2, 1, 4), 0..0);
        assert_eq!(coalesce(vec![[5, 9], [0, 5], [3, 3]]), vec![[0, 9]]);
    }
}
