//! include/hexarena.h against this module: every function with the same parameter and
//! return types, every status code with the same value, the same API version; and the
//! boundary's behaviour (errors, buffers, refusals).

use std::collections::BTreeMap;
use std::ffi::CStr;
use std::ptr::null_mut;

use super::*;

const HEADER: &str = include_str!("../../include/hexarena.h");
const SOURCE: &str = include_str!("../capi.rs");

/// A C type as the Rust type it must be declared as.
fn rust_type(c: &str) -> String {
    let c = c.split_whitespace().collect::<Vec<_>>().join(" ").replace(" *", "*");
    let (base, stars) = (c.trim_end_matches('*').trim(), c.matches('*').count());
    let (konst, base) = match base.strip_prefix("const ") {
        Some(b) => (true, b),
        None => (false, base),
    };
    let mut out = match base {
        "hx_game" => "HxGame",
        "char" => "c_char",
        "int" | "hx_status" => "c_int",
        "size_t" => "usize",
        "uint16_t" => "u16",
        "uint32_t" => "u32",
        "uint64_t" => "u64",
        "void" => "()",
        other => panic!("no Rust type for the C type {other:?}"),
    }
    .to_string();
    for i in 0..stars {
        out = format!("*{} {out}", if konst && i == 0 { "const" } else { "mut" });
    }
    out
}

/// Name -> (parameter types, return type) of the header's prototypes.
fn header() -> BTreeMap<String, (Vec<String>, String)> {
    let mut code = String::new();
    let mut rest = HEADER;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = &rest[start + rest[start..].find("*/").unwrap() + 2..];
    }
    code.push_str(rest);
    let flat = code.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join(" ");
    let mut out = BTreeMap::new();
    for proto in flat.split(';') {
        let Some(open) = proto.find("hx_").filter(|_| proto.contains('(')) else { continue };
        let Some(paren) = proto.find('(') else { continue };
        let head = proto[..paren].trim();
        let name = head.rsplit([' ', '*']).next().unwrap().to_string();
        if !name.starts_with("hx_") || open > paren {
            continue;
        }
        let ret = rust_type(head[..head.len() - name.len()].trim());
        let args = proto[paren + 1..proto.rfind(')').unwrap()].trim();
        let params = if args == "void" {
            Vec::new()
        } else {
            args.split(',').map(|p| {
                let p = p.trim();
                let name_at = p.rfind([' ', '*']).unwrap() + 1;
                rust_type(&p[..name_at])
            }).collect()
        };
        out.insert(name, (params, ret));
    }
    out
}

/// The same of this module's `extern "C"` functions.
fn source() -> BTreeMap<String, (Vec<String>, String)> {
    let mut out = BTreeMap::new();
    for chunk in SOURCE.split("extern \"C\" fn ").skip(1) {
        let name = chunk[..chunk.find('(').unwrap()].to_string();
        let mut depth = 0;
        let close = chunk.char_indices().find(|&(_, c)| {
            depth += i32::from(c == '(') - i32::from(c == ')');
            c == ')' && depth == 0
        }).unwrap().0;
        let params = chunk[name.len() + 1..close].split(',').map(str::trim).filter(|p| !p.is_empty())
            .map(|p| p.split_once(':').unwrap().1.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
        let tail = chunk[close + 1..chunk.find('{').unwrap()].trim();
        let ret = tail.strip_prefix("->").map_or("()".to_string(), |t| t.trim().to_string());
        out.insert(name, (params, ret));
    }
    out
}

#[test]
fn the_header_declares_every_function_as_the_library_defines_it() {
    let (h, s) = (header(), source());
    assert_eq!(h.keys().collect::<Vec<_>>(), s.keys().collect::<Vec<_>>());
    for (name, sig) in &h {
        assert_eq!(sig, &s[name], "{name}: header vs capi.rs");
    }
    assert!(h.len() >= 18, "{} functions", h.len());
}

#[test]
fn the_header_has_every_status_and_the_version() {
    let mut codes = 0;
    for line in SOURCE.lines().filter_map(|l| l.strip_prefix("pub const HX_")) {
        let (name, value) = line.split_once(": c_int = ").unwrap();
        let define = format!("#define HX_{name} {}", value.trim_end_matches(';'));
        assert!(HEADER.lines().any(|l| l == define), "{define} missing from the header");
        codes += 1;
    }
    assert_eq!(codes, HEADER.lines().filter(|l| l.starts_with("#define HX_OK") || l.starts_with("#define HX_ERR_")).count());
    assert!(HEADER.contains(&format!("#define HX_API_VERSION \"{}\"", crate::kit::API_VERSION)));
    assert_eq!(unsafe { CStr::from_ptr(hx_api_version()) }.to_str().unwrap(), crate::kit::API_VERSION);
}

fn last() -> String {
    unsafe { CStr::from_ptr(hx_last_error()) }.to_string_lossy().into_owned()
}

#[test]
fn errors_come_back_as_codes_with_messages() {
    unsafe {
        let mut g: *mut HxGame = null_mut();
        assert_eq!(hx_game_new(c"chess".as_ptr(), 5, c"".as_ptr(), 0, &mut g), HX_ERR_UNKNOWN_GAME);
        assert!(last().contains("chess"), "{}", last());
        assert_eq!(hx_game_new(c"anda".as_ptr(), 14, c"".as_ptr(), 0, &mut g), HX_ERR_UNACCEPTABLE_SIZE);
        assert_eq!(hx_game_new(std::ptr::null(), 5, c"".as_ptr(), 0, &mut g), HX_ERR_ARGUMENT);
        assert_eq!(hx_game_from_position(c"anda 3 b ./.".as_ptr(), &mut g), HX_ERR_INVALID_POSITION);
        assert!(g.is_null());
        assert_eq!(hx_game_new(c"anda".as_ptr(), 5, c"nopie".as_ptr(), 0, &mut g), HX_OK);
        assert_eq!(hx_play(g, c"e8-e6".as_ptr()), HX_ERR_SYNTAX);
        assert_eq!(hx_play(g, c"e5".as_ptr()), HX_ERR_ILLEGAL);
        assert!(last().starts_with("illegal move"), "{}", last());
        let mut buf = [0 as c_char; 4];
        let mut needed = 0usize;
        assert_eq!(hx_position(g, buf.as_mut_ptr(), buf.len(), &mut needed), HX_ERR_BUFFER);
        let mut big = vec![0 as c_char; needed];
        assert_eq!(hx_position(g, big.as_mut_ptr(), big.len(), &mut needed), HX_OK);
        assert!(CStr::from_ptr(big.as_ptr()).to_str().unwrap().starts_with("anda 5 b "));
        let mut w = 7;
        assert_eq!(hx_random_playout(g, 10_000, 3, &mut w), HX_OK);
        let mut over = 0;
        assert_eq!(hx_outcome(g, &mut over, &mut w), HX_OK);
        assert_eq!(over, 1);
        assert!(w == 0 || w == 1);
        hx_game_free(g);
        assert_eq!(hx_to_move(std::ptr::null(), &mut w), HX_ERR_ARGUMENT);
    }
}

#[test]
fn a_site_name_is_given_for_a_site_of_the_board_only() {
    unsafe {
        let mut g: *mut HxGame = null_mut();
        assert_eq!(hx_game_new(c"spelde".as_ptr(), 5, c"".as_ptr(), 0, &mut g), HX_OK);
        let mut buf = [0 as c_char; 8];
        let mut needed = 0usize;
        assert_eq!(hx_site_name(g, 0, buf.as_mut_ptr(), buf.len(), &mut needed), HX_OK);
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "a1");
        // side 5: rows of 9 bits; a1..e1 are bits 0..4, the row's last four bits are no cell
        for bit in [5u16, 8, 81, 60_000] {
            assert_eq!(hx_site_name(g, bit, buf.as_mut_ptr(), buf.len(), &mut needed), HX_ERR_ARGUMENT, "{bit}");
            assert!(last().contains("is not a site of this board"), "{}", last());
        }
        let mut cells = [0u16; 128];
        let mut count = 0usize;
        assert_eq!(hx_legal_cells(g, cells.as_mut_ptr(), cells.len(), &mut count), HX_OK);
        for &site in &cells[..count] {
            assert_eq!(hx_site_name(g, site, buf.as_mut_ptr(), buf.len(), &mut needed), HX_OK);
        }
        hx_game_free(g);
    }
}

/// What the calls made from a thread-local's destructor returned (`late_calls`).
static LATE: std::sync::Mutex<Vec<(c_int, String)>> = std::sync::Mutex::new(Vec::new());

/// On drop (a thread's thread-locals being destroyed), calls that fail and one that uses the
/// Spelde rules' per-thread caches, recording their codes and `hx_last_error()`.
struct LateCalls;

impl Drop for LateCalls {
    fn drop(&mut self) {
        let mut seen = Vec::new();
        unsafe {
            let mut g: *mut HxGame = null_mut();
            seen.push((hx_game_new(c"nosuchgame".as_ptr(), 5, c"".as_ptr(), 0, &mut g), last()));
            assert_eq!(hx_game_new(c"spelde".as_ptr(), 5, c"nopie flips=standard".as_ptr(), 0, &mut g), HX_OK);
            seen.push((hx_random_playout(g, 400, 7, null_mut()), String::new()));
            seen.push((hx_play(g, c"zz99".as_ptr()), last()));
            hx_game_free(g);
        }
        LATE.lock().unwrap().extend(seen);
    }
}

thread_local! {
    static LATE_CALLS: LateCalls = const { LateCalls };
}

/// Calls made after the library's thread-locals are destroyed (from an `atexit` handler or a
/// pthread key's destructor in C) return their codes, the message lost: no abort. Run in a
/// child process (this test binary again), since an abort would end every test.
#[test]
fn calls_after_the_thread_locals_are_destroyed_return_their_codes() {
    const CHILD: &str = "HEXARENA_CORE_LATE_CHILD";
    let name = "capi::tests::calls_after_the_thread_locals_are_destroyed_return_their_codes";
    if std::env::var_os(CHILD).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name, "--test-threads=1", "--nocapture"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "{}", String::from_utf8_lossy(&out.stdout));
        return;
    }
    std::thread::spawn(|| {
        LATE_CALLS.with(|_| ()); // registered first, so destroyed after the library's
        let mut g: *mut HxGame = null_mut();
        unsafe {
            assert_eq!(hx_game_new(c"nosuchgame".as_ptr(), 5, c"".as_ptr(), 0, &mut g), HX_ERR_UNKNOWN_GAME);
            assert_eq!(hx_game_new(c"spelde".as_ptr(), 5, c"nopie flips=standard".as_ptr(), 0, &mut g), HX_OK);
            assert_eq!(hx_random_playout(g, 400, 7, null_mut()), HX_OK); // fills the Spelde caches
            hx_game_free(g);
        }
    })
    .join()
    .unwrap();
    let seen = LATE.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert_eq!(seen[0], (HX_ERR_UNKNOWN_GAME, String::new()));
    assert_eq!(seen[1].0, HX_OK);
    assert!(seen[2].0 == HX_ERR_SYNTAX || seen[2].0 == HX_ERR_ILLEGAL, "{seen:?}");
    assert_eq!(seen[2].1, "");
}

/// Reads of one handle (`const hx_game*`) from two threads at once give the same answers as
/// from one: the handles' lazily filled caches are thread-safe.
#[test]
fn one_handle_is_read_from_two_threads_at_once() {
    struct Shared(*mut HxGame);
    unsafe impl Sync for Shared {}
    let barrier = std::sync::Barrier::new(2);
    let read = |g: &Shared| unsafe {
        let (mut over, mut winner, mut count) = (0, 0, 0usize);
        let mut cells = [0u16; 512];
        let a = hx_outcome(g.0, &mut over, &mut winner);
        let b = hx_legal_cells(g.0, cells.as_mut_ptr(), cells.len(), &mut count);
        (a, b, over, winner, cells[..count].to_vec(), last())
    };
    for (id, variant) in [(c"spelde", c"nopie"), (c"marbanta", c"nopie"), (c"spelde", c"nopie flips=standard")] {
        let mut games = Vec::new();
        unsafe {
            let mut g: *mut HxGame = null_mut();
            assert_eq!(hx_game_new(id.as_ptr(), 5, variant.as_ptr(), 0, &mut g), HX_OK);
            for seed in 0..300 {
                let mut over = 0;
                assert_eq!(hx_outcome(g, &mut over, null_mut()), HX_OK);
                if over == 1 {
                    hx_game_free(g);
                    assert_eq!(hx_game_new(id.as_ptr(), 5, variant.as_ptr(), 0, &mut g), HX_OK);
                }
                let mut buf = [0 as c_char; 256];
                assert_eq!(hx_random_action(g, seed, buf.as_mut_ptr(), buf.len(), null_mut()), HX_OK);
                assert_eq!(hx_play(g, buf.as_ptr()), HX_OK);
                let mut copy: *mut HxGame = null_mut();
                assert_eq!(hx_game_clone(g, &mut copy), HX_OK);
                let mut pos = [0 as c_char; 1024];
                assert_eq!(hx_position(g, pos.as_mut_ptr(), pos.len(), null_mut()), HX_OK);
                let mut fresh: *mut HxGame = null_mut(); // its caches empty
                assert_eq!(hx_game_from_position(pos.as_ptr(), &mut fresh), HX_OK);
                games.push((Shared(fresh), Shared(copy)));
            }
            hx_game_free(g);
        }
        std::thread::scope(|s| {
            let answers = [0, 1].map(|_| s.spawn(|| {
                games.iter().map(|(fresh, _)| {
                    barrier.wait();
                    read(fresh)
                }).collect::<Vec<_>>()
            }));
            let [a, b] = answers.map(|t| t.join().unwrap());
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                let expected = read(&games[i].1);
                assert_eq!((x.0, x.1), (HX_OK, HX_OK), "{id:?} {i}: {}", x.5);
                assert_eq!((y.0, y.1), (HX_OK, HX_OK), "{id:?} {i}: {}", y.5);
                assert_eq!((&x.2, &x.3, &x.4), (&expected.2, &expected.3, &expected.4), "{id:?} {i}");
                assert_eq!((&y.2, &y.3, &y.4), (&expected.2, &expected.3, &expected.4), "{id:?} {i}");
            }
        });
        for (fresh, copy) in games {
            unsafe {
                hx_game_free(fresh.0);
                hx_game_free(copy.0);
            }
        }
    }
}

/// A message repeats at most about 100 bytes of a caller's text; a negative size is named.
#[test]
fn messages_repeat_a_huge_text_cut_and_a_negative_size_as_given() {
    unsafe {
        let mut g: *mut HxGame = null_mut();
        assert_eq!(hx_game_new(c"spelde".as_ptr(), -1, c"".as_ptr(), 0, &mut g), HX_ERR_UNACCEPTABLE_SIZE);
        assert_eq!(last(), "unacceptable size: -1 outside 2..13");
        assert_eq!(hx_game_new(c"chess".as_ptr(), -1, c"".as_ptr(), 0, &mut g), HX_ERR_UNKNOWN_GAME);
        assert_eq!(hx_game_new(c"spelde".as_ptr(), 5, c"nopie".as_ptr(), 0, &mut g), HX_OK);
        let huge = |what: &str| std::ffi::CString::new(what.repeat(1 << 20)).unwrap();
        let flips = std::ffi::CString::new(format!("c3/{}c3", "c3,".repeat(1 << 18))).unwrap();
        for (token, code) in [(huge("x"), HX_ERR_SYNTAX), (huge("a1,"), HX_ERR_SYNTAX), (huge("9"), HX_ERR_SYNTAX),
                              (flips, HX_ERR_ILLEGAL)] {
            assert_eq!(hx_play(g, token.as_ptr()), code);
            assert!(last().len() < 200, "{}", &last()[..last().len().min(300)]);
        }
        assert!(last().ends_with(" bytes) names a site twice"), "{}", last());
        let mut other: *mut HxGame = null_mut();
        for text in [huge("y"), std::ffi::CString::new(format!("spelde 5 b {}", "z".repeat(1 << 20))).unwrap()] {
            assert_eq!(hx_game_from_position(text.as_ptr(), &mut other), HX_ERR_INVALID_POSITION);
            assert!(last().len() < 200, "{}", &last()[..last().len().min(300)]);
        }
        assert_eq!(hx_game_new(huge("q").as_ptr(), 5, c"".as_ptr(), 0, &mut other), HX_ERR_UNKNOWN_GAME);
        assert!(last().len() < 200, "{}", &last()[..last().len().min(300)]);
        assert_eq!(hx_game_new(c"spelde".as_ptr(), 5, huge("v").as_ptr(), 0, &mut other), HX_ERR_UNKNOWN_VARIANT);
        assert!(last().len() < 200, "{}", &last()[..last().len().min(300)]);
        hx_game_free(g);
    }
}
