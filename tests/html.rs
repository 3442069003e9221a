//! `tsume html`: the page as the binary writes it, bad input, and the page played in
//! headless Chromium.
//!
//! `page_plays_in_headless_chromium` generates the page for [`E2E_PACK`] and runs
//! `tests/html_e2e.mjs` (playwright-core driving Debian's `chromium`): open a problem, check
//! that selecting a piece highlights its legal destinations and that a click making no
//! legal move does nothing, play its first move by clicking, check the board changed and
//! the move was accepted, play a wrong move and check it is refused, play a forced
//! promotion without a 成/不成 question, and more; screenshots go to
//! `target/html-e2e/screenshots/`. It needs `node`, `chromium` and playwright-core in
//! `target/html-e2e/node` (or `TSUME_E2E_NODE_DIR`), which `.ci/run` installs:
//! `npm install --prefix target/html-e2e/node --no-save playwright-core@1.65.1`. So it is
//! `#[ignore]`d: a plain `cargo test` lists it as ignored with the reason, and `.ci/run`
//! runs it explicitly (`cargo test --test html -- --ignored`), where missing tools fail it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{stderr, stdout, tsume};
use tsume_solver::Position;

const EXIT_BAD_INPUT: i32 = 2;

/// The pack the end-to-end test plays (switch it to the starter pack in `problems/` once
/// there is one).
const E2E_PACK: &str = "problems/starter";

/// The pack of the other tests: seven sound problems, one with a final alternative, one
/// where White attacks.
const PACK: &str = "tests/data/html/pack";

const GOOD_LINE: &str = r#"{"id":"a","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1","length":1,"solution":["G*5b"]}"#;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty scratch directory under the system temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The ids of a pack's problems, in order.
fn pack_ids(dir: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(dir).join("pack.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect()
}

/// Runs `tsume html DIR --out FILE` and returns the page.
fn generate(dir: &str, out: &Path) -> String {
    let o = tsume(&["html", dir, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "tsume html {dir}: {}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

/// The JSON data the page's script reads.
fn page_data(page: &str) -> serde_json::Value {
    let start = r#"<script type="application/json" id="pack-data">"#;
    let from = page.find(start).expect("a data script") + start.len();
    let len = page[from..].find("</script>").unwrap();
    serde_json::from_str(&page[from..from + len]).expect("the page data is JSON")
}

#[test]
fn the_page_is_one_offline_file_with_every_problem() {
    let dir = scratch("page");
    let page = generate(PACK, &dir.join("pack.html"));
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Nothing from the network: no URL, no linked style sheet, script, image or font.
    for needle in [
        "http://",
        "https://",
        "<link",
        " src=",
        "@import",
        "url(",
        "@font-face",
    ] {
        assert!(!page.contains(needle), "the page contains {needle:?}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "one file");
    let ids = pack_ids(PACK);
    assert_eq!(ids.len(), 7);
    for id in &ids {
        assert!(
            page.contains(&format!(r#"<li class="card" data-id="{id}""#)),
            "no card for {id}"
        );
    }
    // A thumbnail per problem, inline.
    assert_eq!(page.matches("<svg ").count(), ids.len());
    // Filters: every length and grade of the pack.
    for option in [
        r#"<option value="1">"#,
        r#"<option value="3">"#,
        r#"<option value="2">grade 2</option>"#,
        r#"<option value="3">grade 3</option>"#,
    ] {
        assert!(page.contains(option), "no {option}");
    }
    // The data: the problems in order, every position along each solution.
    let data = page_data(&page);
    let problems = data["problems"].as_array().unwrap();
    let data_ids: Vec<&str> = problems.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(data_ids, ids);
    for p in problems {
        let length = p["length"].as_u64().unwrap() as usize;
        assert_eq!(p["moves"].as_array().unwrap().len(), length);
        assert_eq!(p["positions"].as_array().unwrap().len(), length + 1);
    }
    // The legal moves the page looks clicks up in: the rules core's, at each of the
    // attacker's turns.
    for p in problems {
        let length = p["length"].as_u64().unwrap() as usize;
        let legal = p["legal"].as_array().unwrap();
        assert_eq!(legal.len(), length.div_ceil(2), "{}", p["id"]);
        for (i, moves) in legal.iter().enumerate() {
            let sfen = p["positions"][2 * i].as_str().unwrap();
            let mut want: Vec<String> = Position::from_sfen(sfen)
                .unwrap()
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect();
            want.sort();
            let got: Vec<&str> = moves.as_str().unwrap().split(' ').collect();
            assert_eq!(got, want, "{} before ply {}", p["id"], 2 * i + 1);
        }
    }
    let mate3 = &problems[1];
    assert_eq!(
        mate3["positions"][1],
        "6S2/7+Pk/9/8n/9/9/9/9/9 w Rr2b4g3s3n4l17p 2"
    );
    assert_eq!(mate3["moves"][2]["ja"], "▲２三飛打");
    let alternative = &problems[5]["alternatives"][0];
    assert_eq!(alternative["usi"], "5e2b+");
    assert_eq!(alternative["ja"], "▲２二角成");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn default_output_is_index_html_in_the_pack_and_dash_is_stdout() {
    let dir = scratch("default");
    std::fs::write(dir.join("pack.jsonl"), format!("{GOOD_LINE}\n")).unwrap();
    let o = tsume(&["html", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("(1 problem)"), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains(r#"data-id="a""#));
    let o = tsume(&["html", dir.to_str().unwrap(), "--out", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), page);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_white_attacker_is_accepted() {
    let dir = scratch("white");
    let line =
        r#"{"id":"w","sfen":"9/9/9/9/9/9/4p4/9/4K4 w 2r2b4g4s4n4l17p 1","solution":["G*5h"]}"#;
    std::fs::write(dir.join("pack.jsonl"), format!("{line}\n")).unwrap();
    let page = generate(dir.to_str().unwrap(), &dir.join("p.html"));
    let data = page_data(&page);
    assert_eq!(data["problems"][0]["attacker"], "w");
    assert_eq!(data["problems"][0]["moves"][0]["ja"], "△５八金打");
    std::fs::remove_dir_all(dir).unwrap();
}

fn assert_bad_input(args: &[&str], needles: &[&str]) {
    let o = tsume(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(err.starts_with("tsume: "), "{args:?}: {err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: no {needle:?} in:\n{err}");
    }
}

#[test]
fn bad_input_is_exit_2_with_a_message_naming_the_problem() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    let out = dir.join("out.html");
    let out = out.to_str().unwrap();
    let missing = dir.join("missing");
    assert_bad_input(
        &["html", missing.to_str().unwrap(), "--out", out],
        &["pack directory", "does not exist"],
    );
    // A directory without pack.jsonl, and a file given instead of a directory.
    assert_bad_input(&["html", d, "--out", out], &["no pack.jsonl in"]);
    let pack = dir.join("pack.jsonl");
    std::fs::write(&pack, format!("{GOOD_LINE}\n")).unwrap();
    assert_bad_input(
        &["html", pack.to_str().unwrap(), "--out", out],
        &["not a directory"],
    );
    assert_bad_input(&["html", d, "--out", d], &["is a directory"]);
    let bad_sfen = r#"{"id":"badsfen01","sfen":"4k4/9/9 b G 1","solution":["G*5b"]}"#;
    let nifu = r#"{"id":"nifu","sfen":"4k4/9/4P4/9/4P4/9/9/9/9 b G 1","solution":["G*5b"]}"#;
    let illegal =
        r#"{"id":"ill","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b","5a4a","5c5b"]}"#;
    for (text, needles) in [
        (
            format!("{GOOD_LINE}\n{{\"id\": \"b\", \"sfen\": \n"),
            vec!["pack.jsonl:2: not JSON"],
        ),
        (
            format!("{GOOD_LINE}\n\n{bad_sfen}\n"),
            vec!["pack.jsonl:3: problem badsfen01: malformed SFEN"],
        ),
        (
            format!("{nifu}\n"),
            vec![":1: problem nifu: illegal position", "nifu"],
        ),
        (
            format!("{illegal}\n"),
            vec![":1: problem ill: solution move 2 (5a4a)"],
        ),
        (
            format!("{GOOD_LINE}\n{GOOD_LINE}\n"),
            vec![":2: duplicate id \"a\""],
        ),
        (
            r#"{"sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b"]}"#.to_string(),
            vec![":1: missing \"id\""],
        ),
        (
            GOOD_LINE.replace(r#""length":1"#, r#""length":3"#),
            vec!["problem a: \"length\" is 3 but the solution has 1 moves"],
        ),
        (
            GOOD_LINE.replace(r#"]}"#, r#"],"final_alternatives":["G*5c"]}"#),
            vec!["problem a: final alternative G*5c"],
        ),
        ("\n\n".to_string(), vec!["has no problems"]),
        // One id rule with `tsume render`, which cannot name a file `.hidden.svg`: a
        // leading dot used to pass here.
        (
            GOOD_LINE.replace(r#""id":"a""#, r#""id":".hidden""#),
            vec![":1: id \".hidden\"", "not starting with '.'"],
        ),
    ] {
        std::fs::write(&pack, text).unwrap();
        assert_bad_input(&["html", d, "--out", out], &needles);
    }
    // A line that is not UTF-8 is named (it used to fail the whole file without a line).
    std::fs::write(&pack, [GOOD_LINE.as_bytes(), b"\n\xff\n"].concat()).unwrap();
    assert_bad_input(
        &["html", d, "--out", out],
        &["pack.jsonl:2: not UTF-8 text"],
    );
    assert!(!Path::new(out).exists(), "no page for a bad pack");
    std::fs::remove_dir_all(dir).unwrap();
}

// ----- the page in headless Chromium -----

/// The npm prefix that holds playwright-core (`.ci/run` installs it there).
fn playwright_dir() -> PathBuf {
    std::env::var_os("TSUME_E2E_NODE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/html-e2e/node"))
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// What the end-to-end test needs: chromium, node and playwright-core; or why it is
/// missing.
fn e2e_tools() -> Result<(PathBuf, PathBuf), String> {
    let chromium = std::env::var_os("TSUME_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromium", "chromium-browser"]))
        .ok_or("no chromium on PATH (Debian: apt-get install chromium)")?;
    let node = on_path(&["node"]).ok_or("no node on PATH")?;
    let playwright = playwright_dir().join("node_modules/playwright-core/package.json");
    if !playwright.is_file() {
        return Err(format!(
            "no {} (npm install --prefix {} --no-save playwright-core@1.65.1)",
            playwright.display(),
            playwright_dir().display()
        ));
    }
    Ok((chromium, node))
}

/// Run only when asked for (`-- --ignored`, as `.ci/run` does): then the tools are
/// required, and their absence fails the test with what to install.
#[test]
#[ignore = "needs chromium, node and playwright-core: cargo test --test html -- --ignored"]
fn page_plays_in_headless_chromium() {
    let (chromium, node) = e2e_tools()
        .unwrap_or_else(|why| panic!("the headless Chromium test of the html page: {why}"));
    let work = root().join("target/html-e2e");
    let shots = work.join("screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let page = work.join("pack.html");
    generate(E2E_PACK, &page);
    let o = Command::new(node)
        .arg(root().join("tests/html_e2e.mjs"))
        .arg(&page)
        .arg(&shots)
        .env("TSUME_E2E_NODE_DIR", playwright_dir())
        .env("TSUME_CHROMIUM", chromium)
        .output()
        .expect("running node");
    eprintln!("{}{}", stdout(&o), stderr(&o));
    assert!(
        o.status.success(),
        "the end-to-end test failed (screenshots in {}):\n{}{}",
        shots.display(),
        stdout(&o),
        stderr(&o)
    );
    assert!(shots.join("first-move.png").is_file());
    assert!(shots.join("wrong-move.png").is_file());
}
