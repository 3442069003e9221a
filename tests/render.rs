//! `tsume render`: the command as a user runs it, and the diagrams as Chromium draws them.
//!
//! `chromium_screenshots_match_the_references` renders the cases of
//! `tests/data/render/cases.txt`, screenshots each SVG with headless Chromium and compares
//! it with the committed `tests/data/render/<name>.png` (a small tolerance for
//! anti-aliasing). It needs `chromium` and the Noto CJK fonts (Debian: `chromium`,
//! `fonts-noto-cjk`; `.ci/run` installs both), so it is `#[ignore]`d: a plain `cargo test`
//! lists it as ignored with the reason, and `.ci/run` runs it explicitly (`cargo test --test
//! render -- --ignored`), where missing tools fail it.
//! `TSUME_UPDATE_RENDER_REFS=1` rewrites the references from this machine's screenshots.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const EXIT_BAD_INPUT: i32 = 2;
const MATE3: &str = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

use common::{stderr, tsume};

/// A fresh, empty scratch directory under the system temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_bad_input(args: &[&str], needle: &str) {
    let o = tsume(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(err.contains(needle), "{args:?}: no {needle:?} in:\n{err}");
}

#[test]
fn renders_an_sfen_to_a_file_and_stdout() {
    let dir = scratch("sfen");
    let out = dir.join("d.svg");
    let o = tsume(&["render", MATE3, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("持") && svg.contains('玉') && !svg.contains("last-move"));
    let o = tsume(&[
        "render",
        &format!("{MATE3} moves 2c2b+ 1b1c R*2c"),
        "--move",
        "3",
        "--out",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(svg.contains(r#"class="last-move" data-square="2c""#));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A KIF or CSA problem file, as `tsume solve` and `tsume verify` read it: its starting
/// position, and with `--move N` the position after N moves of its main line.
#[test]
fn renders_a_kif_or_csa_problem_file() {
    let dir = scratch("record");
    let data = root().join("tests/data/formats/cshogi");
    for name in ["mate3_w1.kif", "mate3_w1.kifu", "mate3_w1.csa"] {
        let file = data.join(name);
        let file = file.to_str().unwrap();
        let out = dir.join(format!("{name}.svg"));
        let o = tsume(&["render", file, "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let svg = std::fs::read_to_string(&out).unwrap();
        assert!(svg.starts_with("<svg xmlns="), "{name}");
        assert!(!svg.contains("last-move"), "{name}");
        // The first move of its line, ５七角打 (White attacks).
        let o = tsume(&["render", file, "--move", "1", "--out", "-"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let svg = String::from_utf8(o.stdout).unwrap();
        assert!(
            svg.contains(r#"class="last-move" data-square="5g""#),
            "{name}"
        );
        assert_bad_input(
            &["render", file, "--move", "4", "--out", "-"],
            "--move 4: the solution has only 3 moves",
        );
    }
    // An illegal move in the record is named with its line, as `tsume solve` names it.
    let kif = std::fs::read_to_string(data.join("mate3_w1.kifu")).unwrap();
    let bad = dir.join("bad.kifu");
    std::fs::write(&bad, kif.replace("５八玉(48)", "５八玉(47)")).unwrap();
    assert_bad_input(
        &["render", bad.to_str().unwrap(), "--out", "-"],
        "bad.kifu: line",
    );
    // Several records (a pack's problems.kif): not one diagram.
    let pack = root().join("problems/starter/problems.kif");
    assert_bad_input(
        &["render", pack.to_str().unwrap(), "--out", "-"],
        "135 KIF records",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A file of SFEN lines (a pack's `pack.sfen`, a problem list) is not a pack: the message
/// says what render reads, not what a JSON parser found at column 2.
#[test]
fn an_sfen_list_file_is_named_as_not_a_pack() {
    let dir = scratch("sfen-list");
    let list = dir.join("list.sfen");
    std::fs::write(
        &list,
        format!("# two problems\n{MATE3} moves 2c2b+ 1b1c R*2c\n{MATE3}\n"),
    )
    .unwrap();
    let out = dir.join("d");
    assert_bad_input(
        &[
            "render",
            list.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "list.sfen: not a pack",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn renders_every_problem_of_a_pack() {
    let dir = scratch("pack").join("new-subdir");
    let o = tsume(&[
        "render",
        "tests/data/render/pack.jsonl",
        "--out",
        dir.to_str().unwrap(),
        "--move",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["doubleking.svg", "mate3.svg"]);
    let svg = std::fs::read_to_string(dir.join("mate3.svg")).unwrap();
    assert!(svg.contains("<title>mate3: "));
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// A pack's directory stands for its pack.jsonl, as in `tsume verify` and `tsume html`.
#[test]
fn renders_the_pack_of_a_pack_directory() {
    let dir = scratch("pack-dir");
    let pack = dir.join("mypack");
    std::fs::create_dir_all(&pack).unwrap();
    let pack_s = pack.to_str().unwrap();
    let out = dir.join("d2");
    let out_s = out.to_str().unwrap();
    // Without a pack.jsonl the directory is named, with what to give instead.
    assert_bad_input(
        &["render", pack_s, "--out", out_s],
        &format!("{pack_s} is a directory without a pack.jsonl"),
    );
    std::fs::copy(
        root().join("tests/data/render/pack.jsonl"),
        pack.join("pack.jsonl"),
    )
    .unwrap();
    let o = tsume(&["render", pack_s, "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["doubleking.svg", "mate3.svg"]);
    // A pack, directory or file, cannot go to stdout.
    assert_bad_input(&["render", pack_s, "--out", "-"], "--out -");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_is_exit_2() {
    let dir = scratch("bad");
    let out = dir.join("x.svg");
    let out = out.to_str().unwrap();
    assert_bad_input(&["render", "9/9 b - 1", "--out", out], "SFEN");
    // An SFEN line as `tsume verify` reads it: a misspelt `moves` is named.
    assert_bad_input(
        &["render", &format!("{MATE3} movez 2c2b+"), "--out", out],
        "unexpected text after the SFEN: \"movez 2c2b+\"",
    );
    assert_bad_input(
        &["render", "4k4/9/4P4/9/4P4/9/9/9/4K4 b - 1", "--out", out],
        "nifu",
    );
    assert_bad_input(
        &[
            "render",
            &format!("{MATE3} moves 2c2b+"),
            "--move",
            "2",
            "--out",
            out,
        ],
        "only 1 move",
    );
    assert_bad_input(
        &[
            "render",
            &format!("{MATE3} moves 9i9h"),
            "--move",
            "1",
            "--out",
            out,
        ],
        "9i9h",
    );
    assert_bad_input(
        &["render", MATE3, "--move", "1", "--out", out],
        "--move 1: there are no moves to play",
    );
    assert_bad_input(&["render", MATE3, "--move", "-1", "--out", out], "-1");
    assert_bad_input(&["render", MATE3], "--out");
    assert_bad_input(
        &["render", MATE3, "--out", dir.to_str().unwrap()],
        "directory",
    );
    assert_bad_input(&["render", "missing.jsonl", "--out", out], "missing.jsonl");
    // Pack lines: the message names the line.
    let pack = dir.join("p.jsonl");
    let pack_s = pack.to_str().unwrap();
    for (text, needle) in [
        ("{\"id\": \"a\"}\n", ":1: problem a: missing \"sfen\""),
        ("\n{\"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\"}\n", ":2: missing \"id\""),
        ("not json\n", ":1: not JSON"),
        (
            "{\"id\": \"../up\", \"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\"}\n",
            "an id must be",
        ),
        (
            "{\"id\": \"a\", \"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\"}\n{\"id\": \"a\", \"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\"}\n",
            ":2: duplicate id",
        ),
        (
            "{\"id\": \"a\", \"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\", \"solution\": \"G*5b\"}\n",
            "\"solution\" must be a list of strings",
        ),
        ("\n\n", "no problems"),
    ] {
        std::fs::write(&pack, text).unwrap();
        assert_bad_input(&["render", pack_s, "--out", dir.to_str().unwrap()], needle);
    }
    std::fs::write(
        &pack,
        "{\"id\": \"a\", \"sfen\": \"4k4/9/9/9/9/9/9/9/9 b G 1\"}\n",
    )
    .unwrap();
    assert_bad_input(
        &["render", pack_s, "--move", "1", "--out", out],
        "--move 1: there are no moves to play",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn render_refuses_what_it_cannot_draw_faithfully() {
    let dir = scratch("refuse");
    let out = dir.join("x.svg");
    let out = out.to_str().unwrap();
    // An illegal move is bad input even when the diagram is of the position before it.
    assert_bad_input(
        &["render", &format!("{MATE3} moves 2c2b+ 9i9h"), "--out", out],
        "move 2 (9i9h)",
    );
    assert!(!Path::new(out).exists(), "a diagram was written");
    // A pack cannot go to stdout (it used to make a directory named `-`).
    let cwd = scratch("refuse-cwd");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args([
            "render",
            root()
                .join("tests/data/render/pack.jsonl")
                .to_str()
                .unwrap(),
        ])
        .args(["--out", "-"])
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{}", stderr(&o));
    assert!(stderr(&o).contains("--out -"), "{}", stderr(&o));
    assert!(!cwd.join("-").exists(), "made a directory named -");
    // A numeric id, which `tsume html` refuses: the two read a pack alike.
    let pack = dir.join("p.jsonl");
    std::fs::write(&pack, format!("{{\"id\": 7, \"sfen\": \"{MATE3}\"}}\n")).unwrap();
    assert_bad_input(
        &[
            "render",
            pack.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
        ":1: \"id\" must be a string",
    );
    for d in [dir, cwd] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

// ----- Chromium screenshots -----

/// An 8-bit RGB image.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

fn read_png(path: &Path) -> Image {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let rgb = match info.color_type {
        png::ColorType::Rgb => bytes.to_vec(),
        png::ColorType::Rgba => bytes.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect(),
        png::ColorType::Grayscale => bytes.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => {
            bytes.chunks(2).flat_map(|p| [p[0], p[0], p[0]]).collect()
        }
        png::ColorType::Indexed => unreachable!("EXPAND turns palettes into RGB"),
    };
    Image {
        width: info.width,
        height: info.height,
        rgb,
    }
}

fn write_png(path: &Path, img: &Image) {
    let file = std::fs::File::create(path).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), img.width, img.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .unwrap()
        .write_image_data(&img.rgb)
        .unwrap();
}

/// A pixel differs when one channel differs by more than this.
const CHANNEL_TOLERANCE: u8 = 64;
/// At most this fraction of the pixels may differ (anti-aliasing, hinting); one wrong
/// piece glyph changes about 0.3%.
const MAX_DIFFERING: f64 = 0.001;

/// Pixels that differ, and an image showing them in red over a faded reference.
fn compare(reference: &Image, actual: &Image) -> (usize, Image) {
    let mut differing = 0;
    let mut diff = Vec::with_capacity(reference.rgb.len());
    for (a, b) in reference.rgb.chunks(3).zip(actual.rgb.chunks(3)) {
        if a.iter()
            .zip(b)
            .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        {
            differing += 1;
            diff.extend([255, 0, 0]);
        } else {
            diff.extend(a.iter().map(|&x| 192 + x / 4));
        }
    }
    (
        differing,
        Image {
            width: reference.width,
            height: reference.height,
            rgb: diff,
        },
    )
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TSUME_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn have_noto_cjk() -> bool {
    Command::new("fc-list")
        .arg("Noto Sans CJK JP")
        .output()
        .map(|o| !o.stdout.is_empty())
        .unwrap_or(false)
}

/// The `width` and `height` attributes of the root `<svg>`.
fn svg_size(svg: &str) -> (u32, u32) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let dim = |a: &str| -> u32 {
        let v: f64 = root.attribute(a).unwrap().parse().unwrap();
        v.ceil() as u32
    };
    (dim("width"), dim("height"))
}

fn screenshot(chromium: &Path, svg: &Path, png: &Path, work: &Path) {
    let text = std::fs::read_to_string(svg).unwrap();
    let (w, h) = svg_size(&text);
    let profile = work.join(format!(
        "profile-{}",
        svg.file_stem().unwrap().to_string_lossy()
    ));
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={w},{h}"))
        .arg(format!("file://{}", svg.display()))
        .output()
        .expect("running chromium");
    assert!(
        png.is_file(),
        "chromium wrote no screenshot of {}: {:?}\n{}",
        svg.display(),
        o.status,
        stderr(&o)
    );
}

/// Run only when asked for (`-- --ignored`, as `.ci/run` does): then the tools are
/// required, and their absence fails the test with what to install.
#[test]
#[ignore = "needs chromium and the Noto CJK fonts: cargo test --test render -- --ignored"]
fn chromium_screenshots_match_the_references() {
    let chromium = find_chromium();
    let fonts = have_noto_cjk();
    let chromium = match (chromium, fonts) {
        (Some(chromium), true) => chromium,
        (chromium, _) => panic!(
            "the Chromium screenshot test needs {} (Debian: apt-get install chromium \
             fonts-noto-cjk)",
            if chromium.is_none() {
                "chromium on PATH"
            } else {
                "the Noto Sans CJK JP font"
            }
        ),
    };
    let update = std::env::var_os("TSUME_UPDATE_RENDER_REFS").is_some_and(|v| v == "1");
    let refs = root().join("tests/data/render");
    let work = scratch("png");
    let cases = std::fs::read_to_string(refs.join("cases.txt")).unwrap();
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for line in cases
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut fields = line.split('\t');
        let name = fields.next().unwrap();
        let args: Vec<&str> = fields.collect();
        let is_pack = args[0].ends_with(".jsonl");
        let out = if is_pack {
            work.join(name)
        } else {
            work.join(format!("{name}.svg"))
        };
        let mut full = vec!["render"];
        full.extend(&args);
        full.extend(["--out", out.to_str().unwrap()]);
        let o = tsume(&full);
        assert!(o.status.success(), "{full:?}: {}", stderr(&o));
        let svgs: Vec<PathBuf> = if is_pack {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            v.sort();
            v
        } else {
            vec![out]
        };
        for svg in svgs {
            let stem = svg.file_stem().unwrap().to_string_lossy().into_owned();
            let shot = work.join(format!("{stem}.png"));
            screenshot(&chromium, &svg, &shot, &work);
            let reference = refs.join(format!("{stem}.png"));
            if update {
                std::fs::copy(&shot, &reference).unwrap();
                eprintln!("updated {}", reference.display());
                checked.push(stem);
                continue;
            }
            assert!(
                reference.is_file(),
                "no reference {} (make it with TSUME_UPDATE_RENDER_REFS=1)",
                reference.display()
            );
            let (want, got) = (read_png(&reference), read_png(&shot));
            if (want.width, want.height) != (got.width, got.height) {
                failures.push(format!(
                    "{stem}: size {}x{} instead of {}x{}",
                    got.width, got.height, want.width, want.height
                ));
                continue;
            }
            let (differing, diff) = compare(&want, &got);
            let total = (want.width * want.height) as usize;
            eprintln!("{stem}: {differing} of {total} pixels differ");
            if differing as f64 > MAX_DIFFERING * total as f64 {
                let diff_path = work.join(format!("{stem}-diff.png"));
                write_png(&diff_path, &diff);
                failures.push(format!(
                    "{stem}: {differing} of {total} pixels differ (allowed {:.1}%); screenshot {}, diff {}",
                    MAX_DIFFERING * 100.0,
                    shot.display(),
                    diff_path.display()
                ));
            }
            checked.push(stem);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked.len(), 4, "expected 4 diagrams, checked {checked:?}");
    std::fs::remove_dir_all(&work).unwrap();
}

/// The screenshot test and the page test are ignored in a plain `cargo test`: CI must run
/// them explicitly, or they would never run anywhere.
#[test]
fn ci_runs_the_chromium_tests() {
    let run = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let line = run
        .lines()
        .find(|l| l.trim_start().starts_with("cargo test") && l.contains("-- --ignored"))
        .unwrap_or_else(|| panic!(".ci/run runs no ignored tests:\n{run}"));
    for test in ["--test render", "--test html"] {
        assert!(line.contains(test), ".ci/run: {line:?} lacks {test}");
    }
}
