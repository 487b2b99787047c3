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
