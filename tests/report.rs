//! `ludic report` and `ludic::study::html`: the HTML report of a study, a comparison and a
//! sweep (a sweep file of 3 x 2 points assembled here from `simulate --format json`, in the
//! `ludic-sweep-1` format). The page reads as XML; it holds its charts (by id and class), each
//! with a title and a description; every metric cell carries the JSON's exact number; the same
//! input gives the same bytes; nothing is fetched from outside; bad inputs are refused.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ludic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .output()
        .expect("run ludic")
}

fn ok_stdout(args: &[&str]) -> String {
    let out = ludic(args);
    assert!(
        out.status.success(),
        "ludic {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A study of the game with these options, as `simulate --format json` writes it.
fn study(options: &[&str]) -> Value {
    let mut args = vec!["simulate", "pallankuzhi", "-n", "150", "--seed", "3"];
    for o in options {
        args.extend(["-o", o]);
    }
    args.extend(["--format", "json"]);
    serde_json::from_str(&ok_stdout(&args)).expect("a study's JSON")
}

/// A sweep over seeds 4, 6, 8 × muthu on, off: 3 x 2 points, each a study.
fn sweep() -> Value {
    let mut points = vec![];
    for s in ["4", "6", "8"] {
        for m in ["on", "off"] {
            points.push(json!({
                "index": points.len(),
                "point": {"seeds": s, "muthu": m},
                "variant": null,
                "label": format!("seeds={s} muthu={m}"),
                "study": study(&[&format!("seeds={s}"), &format!("muthu={m}")]),
            }));
        }
    }
    json!({
        "format": "ludic-sweep-1",
        "game": "Pallankuzhi",
        "source": "pallankuzhi",
        "source_hash": points[0]["study"]["source_hash"],
        "axes": [
            {"name": "seeds", "values": ["4", "6", "8"]},
            {"name": "muthu", "values": ["on", "off"]}
        ],
        "fixed": {},
        "games": 150,
        "seed": 3,
        "agents": [],
        "quick": false,
        "points": points,
        "partial": false
    })
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ludic-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write_json(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).expect("json")).expect("write");
    p.to_string_lossy().into_owned()
}

/// The report of a file through the command line, with its checks common to every kind:
/// well-formed, deterministic, the library's same bytes, nothing from outside.
fn report_of(dir: &Path, name: &str, v: &Value) -> String {
    let path = write_json(dir, name, v);
    let html = ok_stdout(&["report", &path]);
    assert_eq!(html, ok_stdout(&["report", &path]), "two runs differ");
    assert_eq!(
        Ok(html.clone()),
        ludic::study::html::report(v, &path),
        "the command and the library differ"
    );
    let outside = html
        .replace("http://www.w3.org/2000/svg", "")
        .to_lowercase();
    for bad in [
        "http://", "https://", "<script", " src=", "url(", "<link", "@import",
    ] {
        assert!(!outside.contains(bad), "the report has `{bad}`");
    }
    parse(&html);
    html
}

/// The page read as XML (its `<!DOCTYPE html>` allowed).
fn parse(html: &str) -> roxmltree::Document<'_> {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, opt).expect("the report reads as XML")
}

/// The charts of a page: (id, class) of each `<svg>`, checked to scale and to be described.
fn charts(doc: &roxmltree::Document) -> Vec<(String, String)> {
    let mut out = vec![];
    for svg in doc.descendants().filter(|n| n.has_tag_name("svg")) {
        let id = svg.attribute("id").expect("a chart's id").to_string();
        assert!(svg.attribute("viewBox").is_some(), "{id}: no viewBox");
        assert_eq!(svg.attribute("width"), Some("100%"), "{id}");
        assert_eq!(svg.attribute("role"), Some("img"), "{id}");
        for tag in ["title", "desc"] {
            let t = svg
                .children()
                .find(|c| c.has_tag_name(tag))
                .and_then(|c| c.text())
                .unwrap_or("");
            assert!(!t.trim().is_empty(), "{id}: no {tag}");
        }
        assert!(
            svg.descendants().any(|n| n.has_tag_name("text")),
            "{id}: no text (axes)"
        );
        let class = svg.attribute("class").unwrap_or("").to_string();
        out.push((id, class));
    }
    out
}

/// The JSON number `key` of metric `m` in a study, as Rust writes it shortest (none: null).
fn json_num(study: &Value, m: &str, key: &str) -> Option<String> {
    study["metrics"][m][key].as_f64().map(|x| format!("{x}"))
}

/// Every metric cell: its number attributes equal the JSON's, and every metric of every study
/// (but the rounds of a game without rounds) has its cell. Returns the number of cells.
fn check_cells(doc: &roxmltree::Document, studies: &[(usize, &Value)]) -> usize {
    let mut cells = 0;
    for td in doc.descendants().filter(|n| n.has_tag_name("td")) {
        let Some(m) = td.attribute("data-metric") else {
            continue;
        };
        let entry: usize = td
            .attribute("data-entry")
            .expect("data-entry")
            .parse()
            .unwrap();
        let (_, s) = studies
            .iter()
            .find(|(i, _)| *i == entry)
            .unwrap_or_else(|| panic!("a cell of entry {entry}, which has no study"));
        for (attr, key) in [
            ("data-value", "value"),
            ("data-low", "low"),
            ("data-high", "high"),
        ] {
            let want = json_num(s, m, key);
            assert_eq!(
                td.attribute(attr).map(str::to_string),
                want,
                "{m} of {entry}: {attr}"
            );
            if let Some(x) = td.attribute(attr) {
                let parsed: f64 = x.parse().unwrap();
                assert_eq!(Some(parsed), s["metrics"][m][key].as_f64(), "{m} {attr}");
            }
        }
        assert!(!td.text().unwrap_or("").trim().is_empty(), "{m}: shown");
        cells += 1;
    }
    let expected: usize = studies
        .iter()
        .map(|(_, s)| {
            s["metrics"]
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| !k.starts_with("rounds."))
                .count()
        })
        .sum();
    assert_eq!(cells, expected, "a cell per metric and study");
    cells
}

#[test]
fn a_sweep_report_draws_each_metric_against_each_axis_and_shows_the_json_numbers() {
    let dir = temp_dir("sweep");
    let v = sweep();
    let html = report_of(&dir, "sweep.json", &v);
    let doc = parse(&html);
    let found = charts(&doc);
    let has = |id: &str, class: &str| found.iter().any(|(i, c)| i == id && c.contains(class));
    for m in [
        "first-player-score",
        "draw",
        "turns-mean",
        "decisiveness",
        "branching",
    ] {
        // seeds is a number: points with error bars; muthu is not: bars side by side
        assert!(
            has(&format!("chart-seeds-{m}"), "metric-line"),
            "{m}: {found:?}"
        );
        assert!(
            has(&format!("chart-muthu-{m}"), "metric-bars"),
            "{m}: {found:?}"
        );
    }
    assert!(has("chart-lengths", "lengths"), "{found:?}");
    assert!(has("chart-wins", "wins"), "{found:?}");
    // the error bars: one per point and metric against seeds (3 vertical lines each)
    let seeds_chart = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("chart-seeds-draw"))
        .unwrap();
    assert!(
        seeds_chart
            .descendants()
            .filter(|n| n.has_tag_name("polyline") || n.has_tag_name("line"))
            .count()
            >= 6
    );
    // the legends name the other axes' values, and the header the run
    for text in ["muthu=on", "muthu=off", "seeds=4", "seeds=8"] {
        assert!(
            html.contains(&format!("</span>{text}</li>")),
            "legend {text}"
        );
    }
    for text in [
        "games per point</dt><dd>150",
        "seed</dt><dd>3",
        "random playouts",
        "4, 6, 8",
    ] {
        assert!(html.contains(text), "header: {text}");
    }
    let points = v["points"].as_array().unwrap();
    let studies: Vec<(usize, &Value)> = points.iter().map(|p| &p["study"]).enumerate().collect();
    let cells = check_cells(&doc, &studies);
    assert!(cells > 6 * 30, "{cells} cells");
    // shown readably: the first point's draws as a percentage of three digits
    let draw = v["points"][0]["study"]["metrics"]["draw"]["value"]
        .as_f64()
        .unwrap();
    let td = doc
        .descendants()
        .find(|n| {
            n.attribute("data-metric") == Some("draw") && n.attribute("data-entry") == Some("0")
        })
        .unwrap();
    let shown = td.first_child().and_then(|c| c.text()).unwrap_or("");
    let pct: f64 = shown.trim_end_matches('%').parse().unwrap();
    assert!(
        (pct - 100.0 * draw).abs() <= 0.01 * (100.0 * draw).max(0.01),
        "{shown} vs {draw}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_lists_its_failed_points_and_draws_the_others() {
    let dir = temp_dir("failed");
    let mut v = sweep();
    let error = "option `seeds` = 3 breaks a requirement of the game: `seeds` must be even";
    v["points"].as_array_mut().unwrap().push(json!({
        "index": 6, "point": {"seeds": "3", "muthu": "on"}, "variant": null,
        "label": "seeds=3 muthu=on", "error": error
    }));
    v["axes"][0]["values"] = json!(["3", "4", "6", "8"]);
    let html = report_of(&dir, "sweep.json", &v);
    let doc = parse(&html);
    let errors = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("errors"))
        .expect("a section of the failed points");
    let text: String = errors.descendants().filter_map(|n| n.text()).collect();
    assert!(
        text.contains("seeds=3 muthu=on") && text.contains(error),
        "{text}"
    );
    let studies: Vec<(usize, &Value)> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .take(6)
        .map(|p| &p["study"])
        .enumerate()
        .collect();
    check_cells(&doc, &studies);
    assert!(html.contains("7 (6 with a study, 1 failed)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_study_report_has_lengths_wins_and_every_metric() {
    let dir = temp_dir("study");
    let s = study(&[]);
    let html = report_of(&dir, "study.json", &s);
    let doc = parse(&html);
    let found = charts(&doc);
    let ids: Vec<&str> = found.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(ids, ["chart-lengths", "chart-wins"]);
    check_cells(&doc, &[(0, &s)]);
    // the lengths chart's line has a point per length from the histogram's first to its last
    let turns = s["stats"]["turns"].as_array().unwrap();
    let (lo, hi) = (
        turns[0][0].as_u64().unwrap(),
        turns[turns.len() - 1][0].as_u64().unwrap(),
    );
    let line = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("chart-lengths"))
        .unwrap()
        .descendants()
        .find(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#0072B2"))
        .expect("a line of the first colour");
    let n = line.attribute("points").unwrap().split_whitespace().count() as u64;
    assert_eq!(
        n,
        hi - lo + 3,
        "a point per length, and one of 0 at each end"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_comparison_report_puts_its_columns_side_by_side() {
    let dir = temp_dir("compare");
    let text = ok_stdout(&[
        "compare",
        "pallankuzhi",
        "--variant",
        "default",
        "--variant",
        "muthu=off,seeds=6",
        "-n",
        "150",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let html = report_of(&dir, "cmp.json", &v);
    let doc = parse(&html);
    let found = charts(&doc);
    for m in ["first-player-score", "draw", "turns-mean", "branching"] {
        assert!(
            found
                .iter()
                .any(|(i, c)| *i == format!("chart-column-{m}") && c.contains("metric-bars")),
            "{m}: {found:?}"
        );
    }
    let cols: Vec<(usize, &Value)> = v["columns"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .collect();
    check_cells(&doc, &cols);
    // a significant difference is marked, with its p-value
    let significant = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["significant"] == json!(true))
        .count();
    assert_eq!(
        html.matches("<span class=\"sig\" title=\"p = ").count(),
        significant
    );
    assert!(significant > 0, "seeds=6 changes the first player's score");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_writes_the_same_report_and_never_over_its_input() {
    let dir = temp_dir("out");
    let s = study(&[]);
    let input = write_json(&dir, "study.json", &s);
    let out = dir.join("r.html").to_string_lossy().into_owned();
    let said = ok_stdout(&["report", &input, "--out", &out]);
    assert!(said.contains(&out), "{said}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        ok_stdout(&["report", &input])
    );
    let before = std::fs::read(&input).unwrap();
    let o = ludic(&["report", &input, "--out", &input]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("would destroy it"));
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_exit_1_with_a_message_naming_what_is_wrong() {
    let dir = temp_dir("bad");
    let s = study(&[]);
    let mut no_stats = s.clone();
    no_stats.as_object_mut().unwrap().remove("stats");
    let mut no_point_study = sweep_skeleton();
    no_point_study["points"] = json!([{"index": 0, "point": {"seeds": "4"}, "label": "seeds=4"}]);
    let mut no_axis_value = sweep_skeleton();
    no_axis_value["points"] = json!([{"index": 0, "point": {}, "label": "p", "study": s}]);
    let mut bad_point_study = sweep_skeleton();
    bad_point_study["points"] = json!([{"index": 0, "point": {"seeds": "4"}, "label": "seeds=4", "study": {"format": "ludic-study-1"}}]);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("text.json", b"this is not JSON".to_vec(), "is not JSON"),
        ("bin.json", vec![0xff, 0xfe, 0x00], "not UTF-8"),
        (
            "other.json",
            br#"{"format": "something-9"}"#.to_vec(),
            "something-9",
        ),
        ("none.json", b"[1, 2]".to_vec(), "neither a study"),
        ("nostats.json", no_stats.to_string().into_bytes(), "stats"),
        ("cols.json", br#"{"columns": []}"#.to_vec(), "columns"),
        (
            "nostudy.json",
            no_point_study.to_string().into_bytes(),
            "neither a `study` nor an `error`",
        ),
        (
            "noaxis.json",
            no_axis_value.to_string().into_bytes(),
            "no value of the axis `seeds`",
        ),
        (
            "badstudy.json",
            bad_point_study.to_string().into_bytes(),
            "point `seeds=4`",
        ),
        (
            "noaxes.json",
            br#"{"format": "ludic-sweep-1", "points": []}"#.to_vec(),
            "axes",
        ),
    ];
    for (name, bytes, words) in cases {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        let p = p.to_string_lossy().into_owned();
        let o = ludic(&["report", &p]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(words) && err.contains(&p), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}: nothing on standard output");
    }
    let missing = dir.join("missing.json").to_string_lossy().into_owned();
    let o = ludic(&["report", &missing]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    // usage
    assert_eq!(ludic(&["report"]).status.code(), Some(2));
    assert_eq!(
        ludic(&["report", "a.json", "--nope"]).status.code(),
        Some(2)
    );
    let help = ok_stdout(&["report", "--help"]);
    assert!(
        help.contains("Examples:") && help.contains("--out"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn sweep_skeleton() -> Value {
    json!({
        "format": "ludic-sweep-1", "game": "G", "source": "g", "source_hash": "0",
        "axes": [{"name": "seeds", "values": ["4"]}], "fixed": {}, "games": 10, "seed": 1,
        "agents": [], "quick": false, "points": [], "partial": false
    })
}
