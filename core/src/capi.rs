//! The C ABI over [`crate::kit`] (cargo feature `capi`; `include/hexarena.h` declares it).
//!
//! * Handles: `hx_game*` is opaque, made by `hx_game_new` / `hx_game_from_position` /
//!   `hx_game_clone` and owned by the caller until `hx_game_free`.
//! * Strings out go into buffers the caller owns (`buf`, `cap` bytes): the text and a NUL
//!   when it fits, else `HX_ERR_BUFFER`; `needed` (may be NULL) receives the bytes the text
//!   needs with its NUL either way.
//! * Every function returns an `hx_status` (0 = `HX_OK`); on an error `hx_last_error()` gives
//!   its message (thread-local, valid until the next call on the same thread).
//! * No panic crosses the boundary: one becomes `HX_ERR_PANIC`.
//!
//! # Safety
//!
//! For every function: each pointer argument is NULL (refused with `HX_ERR_ARGUMENT`
//! where a value is needed, skipped where an output is optional) or valid for what the
//! header says; a game handle is one the library made and has not freed, read (`*const`)
//! from any number of threads at once but changed (`*mut`) by one thread with no other
//! call on it meanwhile; a buffer holds `cap` bytes; strings in are NUL-terminated UTF-8.
#![allow(clippy::missing_safety_doc)]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::kit::{Error, Game, Refusal, MAX_ACTIONS, MAX_LEGAL_BYTES};

pub const HX_OK: c_int = 0;
pub const HX_ERR_UNKNOWN_GAME: c_int = 1;
pub const HX_ERR_UNKNOWN_VARIANT: c_int = 2;
pub const HX_ERR_UNACCEPTABLE_SIZE: c_int = 3;
pub const HX_ERR_INVALID_POSITION: c_int = 4;
pub const HX_ERR_SYNTAX: c_int = 5;
pub const HX_ERR_ILLEGAL: c_int = 6;
pub const HX_ERR_TOO_MANY: c_int = 7;
pub const HX_ERR_BUFFER: c_int = 8;
pub const HX_ERR_ARGUMENT: c_int = 9;
pub const HX_ERR_PANIC: c_int = 10;
pub const HX_ERR_GAME_OVER: c_int = 11;

/// An opaque game handle.
pub struct HxGame(Game);

thread_local! {
    static LAST: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as this thread's last error and returns `code`. Never panics: after the
/// thread's thread-locals are destroyed (a call from an `atexit` handler or a pthread key's
/// destructor) the message is lost and the code still returned.
fn fail(code: c_int, message: impl Into<String>) -> c_int {
    let text = message.into().replace('\0', " ");
    let _ = LAST.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = CString::new(text).unwrap_or_default();
        }
    });
    code
}

fn error(e: Error) -> c_int {
    let code = match e {
        Error::UnknownGame(_) => HX_ERR_UNKNOWN_GAME,
        Error::UnknownVariant(_) => HX_ERR_UNKNOWN_VARIANT,
        Error::UnacceptableSize(_) => HX_ERR_UNACCEPTABLE_SIZE,
        Error::InvalidPosition(_) => HX_ERR_INVALID_POSITION,
    };
    fail(code, e.to_string())
}

fn refusal(r: Refusal) -> c_int {
    let code = match r {
        Refusal::Syntax(_) => HX_ERR_SYNTAX,
        Refusal::Illegal(_) => HX_ERR_ILLEGAL,
    };
    fail(code, r.to_string())
}

/// Runs `f`, turning a panic into `HX_ERR_PANIC`.
fn guard(f: impl FnOnce() -> c_int) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(code) => code,
        Err(payload) => {
            // the payload's own drop may panic: nothing may unwind out of here
            if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
                std::mem::forget(again);
            }
            fail(HX_ERR_PANIC, "internal error (a panic in hexarena_core)")
        }
    }
}

unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, c_int> {
    if p.is_null() {
        return Err(fail(HX_ERR_ARGUMENT, format!("{what} is NULL")));
    }
    CStr::from_ptr(p).to_str().map_err(|_| fail(HX_ERR_ARGUMENT, format!("{what} is not UTF-8")))
}

unsafe fn game<'a>(g: *const HxGame) -> Result<&'a Game, c_int> {
    g.as_ref().map(|g| &g.0).ok_or_else(|| fail(HX_ERR_ARGUMENT, "game is NULL"))
}

unsafe fn game_mut<'a>(g: *mut HxGame) -> Result<&'a mut Game, c_int> {
    g.as_mut().map(|g| &mut g.0).ok_or_else(|| fail(HX_ERR_ARGUMENT, "game is NULL"))
}

unsafe fn put(s: &str, buf: *mut c_char, cap: usize, needed: *mut usize) -> c_int {
    let n = s.len() + 1;
    if !needed.is_null() {
        *needed = n;
    }
    if buf.is_null() || cap < n {
        return fail(HX_ERR_BUFFER, format!("the text needs {n} bytes, the buffer has {cap}"));
    }
    std::ptr::copy_nonoverlapping(s.as_ptr(), buf as *mut u8, s.len());
    *buf.add(s.len()) = 0;
    HX_OK
}

unsafe fn give(g: Game, out: *mut *mut HxGame) -> c_int {
    if out.is_null() {
        return fail(HX_ERR_ARGUMENT, "out is NULL");
    }
    *out = Box::into_raw(Box::new(HxGame(g)));
    HX_OK
}

macro_rules! tryc {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(code) => return code,
        }
    };
}

/// The kits' API version (`"1.1"`), a static string.
#[no_mangle]
pub extern "C" fn hx_api_version() -> *const c_char {
    c"1.1".as_ptr()
}

/// The message of the last error on this thread (empty before the first), owned by the
/// library: what went wrong in the last call that returned a status other than `HX_OK` (a call
/// that succeeds leaves it as it was, as `errno`).
#[no_mangle]
pub extern "C" fn hx_last_error() -> *const c_char {
    // after the thread-locals' destruction: "" (the message is lost)
    LAST.try_with(|l| l.try_borrow().map_or(c"".as_ptr(), |l| l.as_ptr())).unwrap_or(c"".as_ptr())
}

/// A new game: `game` an id, `size` the side, `variant` HGP `game` arguments ("" for the
/// defaults), `komi` the komi setting. `*out` receives a handle to free with `hx_game_free`.
#[no_mangle]
pub unsafe extern "C" fn hx_game_new(game_id: *const c_char, size: c_int, variant: *const c_char, komi: u32,
                                     out: *mut *mut HxGame) -> c_int {
    guard(|| {
        let id = tryc!(text(game_id, "game"));
        let variant = if variant.is_null() { "" } else { tryc!(text(variant, "variant")) };
        let Ok(size) = usize::try_from(size) else {
            // the game checked first, as for any size; the size then named as given
            return match Game::with_komi(id, 0, variant, komi) {
                Err(Error::UnacceptableSize(_)) | Ok(_) => fail(HX_ERR_UNACCEPTABLE_SIZE, format!(
                    "unacceptable size: {size} outside {}..{}", crate::geometry::MIN_SIZE, crate::geometry::MAX_SIZE)),
                Err(e) => error(e),
            };
        };
        match Game::with_komi(id, size, variant, komi) {
            Ok(g) => give(g, out),
            Err(e) => error(e),
        }
    })
}

/// The game a position string describes (HGP `set_position`).
#[no_mangle]
pub unsafe extern "C" fn hx_game_from_position(position: *const c_char, out: *mut *mut HxGame) -> c_int {
    guard(|| match Game::from_position(tryc!(text(position, "position"))) {
        Ok(g) => give(g, out),
        Err(e) => error(e),
    })
}

/// A copy of `g` (a new handle).
#[no_mangle]
pub unsafe extern "C" fn hx_game_clone(g: *const HxGame, out: *mut *mut HxGame) -> c_int {
    guard(|| give(tryc!(game(g)).clone(), out))
}

/// Frees a handle (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn hx_game_free(g: *mut HxGame) {
    if !g.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(g))));
    }
}

/// The colour to move into `*colour`: 0 black, 1 white.
#[no_mangle]
pub unsafe extern "C" fn hx_to_move(g: *const HxGame, colour: *mut c_int) -> c_int {
    guard(|| {
        let g = tryc!(game(g));
        if !colour.is_null() {
            *colour = g.to_move().index() as c_int;
        }
        HX_OK
    })
}

/// Actions played since the start into `*ply` (the position's `ply`).
#[no_mangle]
pub unsafe extern "C" fn hx_ply(g: *const HxGame, ply: *mut u32) -> c_int {
    guard(|| {
        let g = tryc!(game(g));
        if !ply.is_null() {
            *ply = g.ply();
        }
        HX_OK
    })
}

/// Whether the game is over (`*over` 0/1) and its winner (`*winner`: 0 black, 1 white,
/// -1 a draw or still going on). Either pointer may be NULL.
#[no_mangle]
pub unsafe extern "C" fn hx_outcome(g: *const HxGame, over: *mut c_int, winner: *mut c_int) -> c_int {
    guard(|| {
        let o = tryc!(game(g)).outcome();
        if !over.is_null() {
            *over = c_int::from(o.is_some());
        }
        if !winner.is_null() {
            *winner = o.and_then(|o| o.winner).map_or(-1, |w| w as c_int);
        }
        HX_OK
    })
}

/// HGP `final_score` (`B+`, `W+`, `B+2.5`, `0`); `HX_ERR_ILLEGAL` while the game goes on.
#[no_mangle]
pub unsafe extern "C" fn hx_final_score(g: *const HxGame, buf: *mut c_char, cap: usize, needed: *mut usize) -> c_int {
    guard(|| match tryc!(game(g)).outcome() {
        Some(o) => put(&o.score(), buf, cap, needed),
        None => fail(HX_ERR_ILLEGAL, "cannot score: the game is not over"),
    })
}

/// Every legal action, canonical tokens separated by single spaces (HGP `legal_moves`);
/// `HX_ERR_TOO_MANY` over 100000 actions or over 1,000,000 bytes (`Game::legal_moves`).
#[no_mangle]
pub unsafe extern "C" fn hx_legal_actions(g: *const HxGame, buf: *mut c_char, cap: usize, needed: *mut usize) -> c_int {
    guard(|| {
        let g = tryc!(game(g));
        let Some(text) = g.legal_moves() else {
            return fail(HX_ERR_TOO_MANY, format!("too many moves: over {MAX_ACTIONS} actions or {MAX_LEGAL_BYTES} bytes"));
        };
        put(&text, buf, cap, needed)
    })
}

/// The sites where the side to move can place a single stone (HGP `legal_cells`), as site
/// bits into `sites` (room for `cap`); `*count` receives how many there are.
#[no_mangle]
pub unsafe extern "C" fn hx_legal_cells(g: *const HxGame, sites: *mut u16, cap: usize, count: *mut usize) -> c_int {
    guard(|| {
        let cells = tryc!(game(g)).legal_cells();
        if !count.is_null() {
            *count = cells.len();
        }
        if cells.len() > cap || (sites.is_null() && !cells.is_empty()) {
            return fail(HX_ERR_BUFFER, format!("{} sites, room for {cap}", cells.len()));
        }
        std::ptr::copy_nonoverlapping(cells.as_ptr(), sites, cells.len());
        HX_OK
    })
}

/// The name of a site bit (`e5`).
#[no_mangle]
pub unsafe extern "C" fn hx_site_name(g: *const HxGame, site: u16, buf: *mut c_char, cap: usize, needed: *mut usize)
    -> c_int {
    guard(|| {
        match tryc!(game(g)).site_name(site) {
            Some(name) => put(&name, buf, cap, needed),
            None => fail(HX_ERR_ARGUMENT, format!("{site} is not a site of this board")),
        }
    })
}

/// Whether the rules allow the action `token` now: `HX_OK`, `HX_ERR_SYNTAX` (not a form of
/// this game) or `HX_ERR_ILLEGAL`, with the reason in `hx_last_error()`.
#[no_mangle]
pub unsafe extern "C" fn hx_check(g: *const HxGame, token: *const c_char) -> c_int {
    guard(|| {
        let g = tryc!(game(g));
        match g.parse(tryc!(text(token, "token"))).and_then(|a| g.check(&a)) {
            Ok(()) => HX_OK,
            Err(r) => refusal(r),
        }
    })
}

/// Plays the action `token` for the side to move; on a refusal (as `hx_check`) the game is
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn hx_play(g: *mut HxGame, token: *const c_char) -> c_int {
    guard(|| {
        let token = tryc!(text(token, "token"));
        match tryc!(game_mut(g)).play_token(token) {
            Ok(_) => HX_OK,
            Err(r) => refusal(r),
        }
    })
}

/// A random legal action (the random player's distribution, seeded) as its token;
/// `HX_ERR_GAME_OVER` when there is none.
#[no_mangle]
pub unsafe extern "C" fn hx_random_action(g: *const HxGame, seed: u64, buf: *mut c_char, cap: usize,
                                          needed: *mut usize) -> c_int {
    guard(|| {
        let g = tryc!(game(g));
        match g.random_action(seed) {
            Some(a) => put(&g.format(&a), buf, cap, needed),
            None => fail(HX_ERR_GAME_OVER, "the game is over"),
        }
    })
}

/// Random actions until the rules end the game or the ply reaches `ply_cap`; the game is
/// left at the last position. `*winner` (may be NULL): 0, 1, or -1 (a draw, or the cap).
#[no_mangle]
pub unsafe extern "C" fn hx_random_playout(g: *mut HxGame, ply_cap: u32, seed: u64, winner: *mut c_int) -> c_int {
    guard(|| {
        let (o, _) = tryc!(game_mut(g)).random_playout(ply_cap, seed);
        if !winner.is_null() {
            *winner = o.and_then(|o| o.winner).map_or(-1, |w| w as c_int);
        }
        HX_OK
    })
}

/// The canonical position string (HGP `position`).
#[no_mangle]
pub unsafe extern "C" fn hx_position(g: *const HxGame, buf: *mut c_char, cap: usize, needed: *mut usize) -> c_int {
    guard(|| put(&tryc!(game(g)).position(), buf, cap, needed))
}

/// HGP `game` with no arguments: `ID BALANCE [OPTION=VALUE ...]`.
#[no_mangle]
pub unsafe extern "C" fn hx_variant(g: *const HxGame, buf: *mut c_char, cap: usize, needed: *mut usize) -> c_int {
    guard(|| put(&tryc!(game(g)).variant(), buf, cap, needed))
}

#[cfg(test)]
mod tests;
