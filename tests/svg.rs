//! Pictures: the SVG of every built-in game at its start and in the middle of a random game is
//! well-formed XML (read back with `roxmltree`), has one shape per site, one disc per token on
//! the board and per token off it, shows the count of every site and the height of every stack,
//! and stays on its canvas; `ludic draw` and `play --svg` through the binary.

mod common;

use common::{Lcg, game_with, random_step};
use ludic::render::svg::{changed_sites, svg};
use ludic::{Game, State};
use ludic::{PieceKind, Player, SiteId, SiteKind};
use roxmltree::{Document, Node};
use std::process::Command;

/// The built-in games, with the team version of the game that has teams.
fn games() -> Vec<(String, Game)> {
    let mut out: Vec<(String, Game)> = ludic::builtin::GAMES
        .iter()
        .map(|(name, _)| (name.to_string(), game_with(name, &[], None)))
        .collect();
    for (name, src) in ludic::builtin::GAMES {
        if src.contains("option team_size") {
            out.push((
                format!("{name} (teams)"),
                game_with(name, &["team_size=2"], None),
            ));
        }
    }
    out
}

/// The position halfway through a random game (fixed seed).
fn middle(g: &Game, seed: u64) -> State {
    let mut st = g.start();
    let mut rng = Lcg(seed);
    let mut steps = 0;
    while !st.is_over() && steps < 4000 {
        random_step(g, &mut st, &mut rng);
        steps += 1;
    }
    let mut st = g.start();
    let mut rng = Lcg(seed);
    for _ in 0..steps / 2 {
        random_step(g, &mut st, &mut rng);
    }
    st
}

fn class_is(n: &Node, class: &str) -> bool {
    n.attribute("class") == Some(class)
}

fn with_class<'a>(doc: &'a Document, class: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants().filter(|n| class_is(n, class)).collect()
}

fn num(n: &Node, a: &str) -> f64 {
    n.attribute(a)
        .unwrap_or_else(|| panic!("<{}> without {a}", n.tag_name().name()))
        .parse()
        .unwrap()
}

/// Everything the picture must show of the position.
fn check(what: &str, g: &Game, st: &State, text: &str) {
    let doc = Document::parse(text).unwrap_or_else(|e| panic!("{what}: not XML: {e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    let (w, h) = (num(&root, "width"), num(&root, "height"));

    // One shape per site, in each site's group.
    assert_eq!(
        with_class(&doc, "site-shape").len(),
        g.num_sites(),
        "{what}"
    );
    let sites = with_class(&doc, "site");
    assert_eq!(sites.len(), g.num_sites(), "{what}");
    let counter_kinds: Vec<PieceKind> = g
        .piece_kinds()
        .map(|p| p.kind)
        .filter(|k| !(0..g.num_tokens()).any(|t| g.token(t).unwrap().kind == *k))
        .collect();
    for node in &sites {
        let name = node.attribute("data-site").expect("data-site");
        let s = g.site_named(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(
            node.children()
                .filter(|c| class_is(c, "site-shape"))
                .count(),
            1,
            "{what}: {name}"
        );
        assert_eq!(
            node.attribute("data-kind"),
            Some(st.site_kind(s).name()),
            "{what}: {name}"
        );
        if st.site_kind(s) == SiteKind::Void {
            assert!(
                node.children().any(|c| class_is(&c, "void")),
                "{what}: void {name} is struck out"
            );
        }
        // The count of each counter kind: the first always, the others when present.
        let counts: Vec<(String, String)> = node
            .descendants()
            .filter(|c| class_is(c, "count"))
            .map(|c| {
                (
                    c.attribute("data-kind").unwrap_or("").to_string(),
                    c.text().unwrap_or("").to_string(),
                )
            })
            .collect();
        if st.site_kind(s) == SiteKind::Point {
            // On a point, counters are stones: one for each kind held, with its number.
            for k in &counter_kinds {
                let c = st.count(g, s, *k);
                let kind = g.piece_kind(*k).unwrap().name;
                let shown: Vec<String> = node
                    .descendants()
                    .filter(|x| class_is(x, "count") && x.attribute("data-kind") == Some(kind))
                    .map(|x| x.attribute("data-count").unwrap_or("").to_string())
                    .collect();
                let want = if c > 0 { vec![c.to_string()] } else { vec![] };
                assert_eq!(shown, want, "{what}: {name} holds {c} {kind}");
            }
            continue;
        }
        for (i, k) in counter_kinds.iter().enumerate() {
            let c = st.count(g, s, *k);
            let kind = g.piece_kind(*k).unwrap().name;
            let shown: Vec<&String> = counts
                .iter()
                .filter(|(n, _)| n == kind)
                .map(|(_, t)| t)
                .collect();
            if i == 0 {
                assert!(
                    shown
                        .iter()
                        .any(|t| t.split(['+', ' ']).next() == Some(&c.to_string())),
                    "{what}: {name} holds {c} {kind}, shows {counts:?}"
                );
            } else if c > 1 {
                assert!(
                    shown.iter().any(|t| *t == &format!("{c} {kind}")),
                    "{what}: {name} holds {c} {kind}, shows {counts:?}"
                );
            } else if c == 1 {
                assert!(
                    shown.iter().any(|n| n.as_str() == kind),
                    "{what}: {name} {kind}"
                );
            } else {
                assert!(shown.is_empty(), "{what}: {name} has no {kind}");
            }
        }
    }

    // One disc per token on the board, in its site's stack, bottom first; one per token off it.
    let on_board = (0..g.num_tokens())
        .filter(|&t| st.tokens().site_of(t).is_some())
        .count();
    assert_eq!(with_class(&doc, "token").len(), on_board, "{what}");
    for stack in with_class(&doc, "stack") {
        let name = stack.attribute("data-site").unwrap();
        let s = g.site_named(name).unwrap();
        let expected: Vec<String> = st.tokens().stack(s).iter().map(|t| t.to_string()).collect();
        let drawn: Vec<String> = stack
            .children()
            .filter(|c| class_is(c, "token"))
            .map(|c| c.attribute("data-token").unwrap().to_string())
            .collect();
        assert_eq!(drawn, expected, "{what}: the stack at {name}");
        if expected.len() > 1 {
            let height = stack.descendants().find(|c| class_is(c, "height")).unwrap();
            assert_eq!(height.text(), Some(expected.len().to_string().as_str()));
        }
    }
    let off = (0..g.num_tokens())
        .filter(|&t| st.tokens().area_of(t).is_some())
        .count();
    assert_eq!(with_class(&doc, "token-off").len(), off, "{what}");
    // Each token's disc says whose it is.
    for t in with_class(&doc, "token")
        .into_iter()
        .chain(with_class(&doc, "token-off"))
    {
        let i: usize = t.attribute("data-token").unwrap().parse().unwrap();
        assert_eq!(
            t.attribute("data-player"),
            Some(g.player_name(g.token(i).unwrap().owner)),
            "{what}"
        );
    }

    // A mark for every player, with his number in a team.
    let marks = with_class(&doc, "player-mark");
    assert_eq!(marks.len(), g.players().len(), "{what}");
    if g.players().len() > g.sides().len() {
        for (p, m) in marks.iter().enumerate() {
            let label = m.descendants().find_map(|c| c.text()).unwrap_or("");
            let number = (p / g.sides().len() + 1).to_string();
            assert_eq!(label, number, "{what}: {}", g.players()[p]);
        }
    }

    // Nothing off the canvas.
    for n in doc.descendants().filter(|n| n.is_element()) {
        let (x0, y0, x1, y1) = match n.tag_name().name() {
            "circle" => {
                let (x, y, r) = (num(&n, "cx"), num(&n, "cy"), num(&n, "r"));
                (x - r, y - r, x + r, y + r)
            }
            "rect" => {
                let (x, y) = (num(&n, "x"), num(&n, "y"));
                (x, y, x + num(&n, "width"), y + num(&n, "height"))
            }
            "text" => {
                let (x, y) = (num(&n, "x"), num(&n, "y"));
                (x, y - 10.0, x, y)
            }
            "line" => (
                num(&n, "x1").min(num(&n, "x2")),
                num(&n, "y1").min(num(&n, "y2")),
                num(&n, "x1").max(num(&n, "x2")),
                num(&n, "y1").max(num(&n, "y2")),
            ),
            _ => continue,
        };
        assert!(
            x0 >= 0.0 && y0 >= 0.0 && x1 <= w && y1 <= h,
            "{what}: <{} {:?}> is off the canvas {w} x {h}",
            n.tag_name().name(),
            n.attributes()
                .map(|a| (a.name(), a.value()))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn every_game_at_its_start_and_in_the_middle_of_a_game() {
    for (name, g) in games() {
        let st = g.start();
        check(&format!("{name} at the start"), &g, &st, &svg(&g, &st, &[]));
        for seed in [1, 2, 3] {
            let st = middle(&g, seed);
            let last = vec![SiteId(0)];
            check(
                &format!("{name} in the middle (seed {seed})"),
                &g,
                &st,
                &svg(&g, &st, &last),
            );
        }
    }
}

#[test]
fn a_hole_of_twelve_shows_twelve_seeds_and_the_number() {
    let g = game_with("pallankuzhi", &[], None);
    let st = g.start();
    let text = svg(&g, &st, &[]);
    let doc = Document::parse(&text).unwrap();
    let hole = with_class(&doc, "site")
        .into_iter()
        .find(|n| n.attribute("data-site") == Some("s1"))
        .unwrap();
    let count = hole.descendants().find(|c| class_is(c, "count")).unwrap();
    assert_eq!(count.text(), Some("12"));
    assert_eq!(
        hole.descendants().filter(|c| class_is(c, "seed")).count(),
        12
    );
}

#[test]
fn void_sites_are_struck_out_and_the_last_move_marked() {
    // Play a line-board game until some point is void.
    let g = game_with("tuknanavuhpi", &[], None);
    let mut st = g.start();
    let mut rng = Lcg(7);
    while !st.is_over()
        && !(0..g.num_sites()).any(|i| st.site_kind(SiteId(i as u16)) == SiteKind::Void)
    {
        random_step(&g, &mut st, &mut rng);
    }
    let voids = (0..g.num_sites())
        .filter(|&i| st.site_kind(SiteId(i as u16)) == SiteKind::Void)
        .count();
    assert!(voids > 0, "the board shrank");
    let text = svg(&g, &st, &[SiteId(3), SiteId(5)]);
    let doc = Document::parse(&text).unwrap();
    assert_eq!(with_class(&doc, "void").len(), voids);
    assert_eq!(with_class(&doc, "last-move").len(), 2);
}

#[test]
fn changed_sites_are_those_a_move_touched() {
    let g = game_with("pallankuzhi", &[], None);
    let before = g.start();
    let mut after = before.clone();
    common::play(&g, &mut after, &["sow s1"]);
    let changed = changed_sites(&g, &before, &after);
    assert!(changed.contains(&common::site(&g, "s1")));
    assert!(changed_sites(&g, &after, &after).is_empty());
    // Owners and holdings appear in the rows under the board.
    let text = svg(&g, &after, &changed);
    assert!(text.contains(&format!(
        "holds {}",
        ludic::render::holdings(&g, &after, Player(0))
    )));
}

// ------------------------------------------------------------------ the binary

fn ludic(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ludic");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludic-svg-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn draw_through_the_binary() {
    let dir = tmp_dir("draw");
    let out = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();

    // The start position, to standard output and to a file.
    let o = ludic(&["draw", "pallankuzhi", "-o", "seeds=6"], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let g = game_with("pallankuzhi", &["seeds=6"], None);
    check("draw pallankuzhi", &g, &g.start(), &out(&o));
    let file = dir.join("start.svg");
    let o = ludic(&["draw", "puluc", "--out", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let g = game_with("puluc", &[], None);
    check(
        "draw puluc --out",
        &g,
        &g.start(),
        &std::fs::read_to_string(&file).unwrap(),
    );

    // A position of a record.
    let rec = dir.join("game.json");
    let o = ludic(
        &[
            "play",
            "puluc",
            "--agent",
            "South=random",
            "--agent",
            "North=random",
            "--seed",
            "4",
            "--record",
            rec.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let record: ludic::record::Record =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let n = record.steps.len() / 2;
    let o = ludic(
        &[
            "draw",
            "--record",
            rec.to_str().unwrap(),
            "--at",
            &n.to_string(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let st = ludic::record::replay(&g, &record.steps[..n]).unwrap();
    check("draw --record --at", &g, &st, &out(&o));
    assert!(
        out(&o).contains("class=\"last-move\""),
        "the last decision is marked"
    );
    let o = ludic(
        &["draw", "--record", rec.to_str().unwrap(), "--at", "0"],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    check("draw --record --at 0", &g, &g.start(), &out(&o));

    // Failures (1) and usage errors (2).
    for (args, code) in [
        (vec!["draw"], 2),
        (vec!["draw", "puluc", "--at", "3"], 2),
        (vec!["draw", "no-such-game"], 1),
        (vec!["draw", "pallankuzhi", "-o", "seeds=7"], 2),
        (vec!["draw", "pallankuzhi", "-o", "bogus=1"], 2),
        (vec!["draw", "--record", "/nonexistent/game.json"], 1),
        (
            vec!["draw", "--record", rec.to_str().unwrap(), "--at", "100000"],
            2,
        ),
        (
            vec![
                "draw",
                "--record",
                rec.to_str().unwrap(),
                "-o",
                "max_turns=5",
            ],
            2,
        ),
        (vec!["draw", "puluc", "--out", "/nonexistent/dir/x.svg"], 1),
    ] {
        let o = ludic(&args, "");
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", err(&o));
        assert!(out(&o).is_empty() || code == 0, "{args:?}");
    }
    let o = ludic(&["draw", "--help"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("ludic draw --record game.json --at 12"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_keeps_a_picture_of_the_position() {
    let dir = tmp_dir("play");
    let file = dir.join("board.svg");
    let o = ludic(
        &[
            "play",
            "pallankuzhi",
            "--agent",
            "North=random",
            "--seed",
            "2",
            "--svg",
            file.to_str().unwrap(),
        ],
        "sow s1\n",
    );
    // (Input ends in the middle of the game: whatever the exit code says of that, the picture
    // shows the position where the game stopped.)
    assert!(o.status.code().is_some(), "{o:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = Document::parse(&text).unwrap();
    // South sowed s1 and North answered: it is South's turn 3, with the last change marked.
    let status = with_class(&doc, "status")[0].text().unwrap().to_string();
    assert!(status.starts_with("turn 3: South"), "{status}");
    assert!(!with_class(&doc, "last-move").is_empty());
    // Only the picture is left in its folder: no temporary file.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["board.svg".to_string()]);
    let o = ludic(
        &["play", "puluc", "--svg", "/nonexistent/dir/board.svg"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The centre of each site's shape, by site name.
fn site_centres(doc: &Document) -> Vec<(String, f64, f64)> {
    with_class(doc, "site")
        .into_iter()
        .filter_map(|s| {
            let name = s.attribute("data-site")?.to_string();
            let shape = s.descendants().find(|n| class_is(n, "site-shape"))?;
            Some(match shape.tag_name().name() {
                "circle" => (name, num(&shape, "cx"), num(&shape, "cy")),
                _ => (
                    name,
                    num(&shape, "x") + num(&shape, "width") / 2.0,
                    num(&shape, "y") + num(&shape, "height") / 2.0,
                ),
            })
        })
        .collect()
}

fn nearest(centres: &[(String, f64, f64)], x: f64, y: f64) -> String {
    centres
        .iter()
        .min_by(|a, b| {
            let d = |c: &(String, f64, f64)| (c.1 - x).powi(2) + (c.2 - y).powi(2);
            d(a).total_cmp(&d(b))
        })
        .map(|c| c.0.clone())
        .unwrap_or_default()
}

#[test]
fn the_rings_arrows_go_the_way_the_game_sows() {
    // Pallankuzhi sows `toward cw` (the ring's backward direction): every arrow goes from a
    // site to the next one clockwise, none the other way, and the legend says so.
    // Ceelkoqyuqkoqiji lets the sower choose (`choose d in ccw cw`): arrows with two heads.
    for (name, dir, both) in [
        ("pallankuzhi", 1usize, false),
        ("ceelkoqyuqkoqiji", 0, true),
    ] {
        let g = game_with(name, &[], None);
        assert_eq!(
            ludic::render::svg::sowing_directions(&g),
            Some(if both {
                [true, true]
            } else {
                [dir == 0, dir == 1]
            }),
            "{name}"
        );
        let text = svg(&g, &g.start(), &[]);
        let doc = Document::parse(&text).unwrap();
        let centres = site_centres(&doc);
        let ring = with_class(&doc, "ring");
        assert_eq!(ring.len(), 1, "{name}");
        let lines: Vec<Node> = ring[0]
            .children()
            .filter(|n| n.tag_name().name() == "line")
            .collect();
        assert!(
            lines.len() >= g.num_sites() - 2,
            "{name}: {} arrows",
            lines.len()
        );
        for l in &lines {
            let from = nearest(&centres, num(l, "x1"), num(l, "y1"));
            let to = nearest(&centres, num(l, "x2"), num(l, "y2"));
            let s = common::site(&g, &from);
            assert_eq!(
                g.site_name(g.next_site(dir, s).unwrap()),
                to,
                "{name}: an arrow {from} -> {to}"
            );
            assert_eq!(l.attribute("marker-start").is_some(), both, "{name}");
        }
        let [fwd, back] = g.direction_names().unwrap();
        let legend = if both {
            format!("sowing: {fwd} or {back}, as the sower chooses")
        } else {
            format!("sowing: {}", if dir == 0 { fwd } else { back })
        };
        assert!(text.contains(&legend), "{name}: no `{legend}`");
    }
    // A game that does not sow has no ring arrows.
    let g = game_with("puluc", &[], None);
    assert_eq!(ludic::render::svg::sowing_directions(&g), None);
    assert!(!svg(&g, &g.start(), &[]).contains("class=\"ring\""));
}

/// A box: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

fn overlap(a: Box4, b: Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The boxes of the sites' names (their text's size estimated at 0.62 of the font size a
/// character) and of every piece drawn: discs, the heights of stacks, the badges of named
/// pieces.
fn labels_and_pieces(doc: &Document) -> (Vec<(String, Box4)>, Vec<Box4>) {
    let labels = with_class(doc, "name")
        .into_iter()
        .map(|t| {
            let text = t.text().unwrap_or("").to_string();
            let size = num(&t, "font-size");
            let w = text.chars().count() as f64 * size * 0.62;
            let (x, y) = (num(&t, "x"), num(&t, "y"));
            let left = match t.attribute("text-anchor") {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            (text, (left, y - size * 0.75, left + w, y))
        })
        .collect();
    let mut pieces = vec![];
    for n in doc.descendants() {
        let piece = n.ancestors().any(|a| {
            matches!(
                a.attribute("class"),
                Some("token" | "stack" | "piece-badge")
            )
        });
        if !piece {
            continue;
        }
        match n.tag_name().name() {
            "circle" => {
                let (x, y, r) = (num(&n, "cx"), num(&n, "cy"), num(&n, "r"));
                pieces.push((x - r, y - r, x + r, y + r));
            }
            "rect" => {
                let (x, y) = (num(&n, "x"), num(&n, "y"));
                pieces.push((x, y, x + num(&n, "width"), y + num(&n, "height")));
            }
            _ => {}
        }
    }
    (labels, pieces)
}

#[test]
fn no_sites_name_is_hidden_by_a_piece() {
    // Every game at its start and in the middle of random games (a stack of 5 in a cell of
    // Puluc at the start), and K'uilichi Chanakua with teams of eight.
    let mut all = games();
    all.push((
        "kuilichi-chanakua (team_size=8)".into(),
        game_with("kuilichi-chanakua", &["team_size=8"], None),
    ));
    for (name, g) in all {
        let mut positions = vec![g.start()];
        positions.extend([1, 2, 3, 4].map(|seed| middle(&g, seed)));
        for st in positions {
            let text = svg(&g, &st, &[]);
            let doc = Document::parse(&text).unwrap();
            let (labels, pieces) = labels_and_pieces(&doc);
            if name == "puluc" {
                assert!(
                    labels.len() == 11 && pieces.len() >= 10,
                    "{name}: {labels:?} {pieces:?}"
                );
            }
            for (label, b) in &labels {
                for p in &pieces {
                    assert!(
                        !overlap(*b, *p),
                        "{name}: the name {label} {b:?} under a piece {p:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn sixteen_players_are_told_apart_on_their_discs() {
    let g = game_with("kuilichi-chanakua", &["team_size=8"], None);
    assert_eq!(g.players().len(), 16);
    let st = middle(&g, 5);
    let text = svg(&g, &st, &[]);
    let doc = Document::parse(&text).unwrap();
    // every disc of a token says its player's number in the team, in its side's colour
    let discs: Vec<Node> = with_class(&doc, "token");
    assert!(discs.len() > 16, "{} discs", discs.len());
    let mut numbers = std::collections::BTreeSet::new();
    for d in discs {
        let player = d.attribute("data-player").unwrap();
        let number = player.trim_start_matches(|c: char| c.is_alphabetic());
        let label = d
            .descendants()
            .find(|n| n.tag_name().name() == "text")
            .and_then(|t| t.text())
            .unwrap_or_else(|| panic!("a disc of {player} without its number"));
        assert_eq!(label, number, "{player}");
        numbers.insert(player.to_string());
    }
    assert!(numbers.len() > 8, "{numbers:?}");
}
