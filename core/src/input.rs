//! Positions from plain values, checked: the board side, bitboards as little-endian bytes in
//! engine.geometry's layout, colours 0 (Black) / 1 (White), phases by number. Every failure
//! is an [`InputError`] naming the argument; the bindings (Python, C) turn it into their own
//! error.

use crate::anda_prison::{Fields, Phase as PrisonPhase, Prison};
use crate::bitboard::Bb;
use crate::geometry::{hexagon, Hexagon, MAX_SIZE, MIN_SIZE};
use crate::marbanta::Phase as MPhase;
use crate::spelde::{Phase as SPhase, Rule, Spelde};
use crate::vaxandis::{Phase as VPhase, Vaxandis};

/// A value outside what the rules can hold, with a message naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// A checked value or the reason it is not one.
pub type Checked<T> = Result<T, InputError>;

fn err<T>(message: impl Into<String>) -> Checked<T> {
    Err(InputError(message.into()))
}

/// Run `$body` with `N` bound to the word count of side `$n` (one instantiation per bucket).
#[macro_export]
#[doc(hidden)]
macro_rules! by_size {
    ($n:expr, $N:ident => $body:expr) => {
        match $crate::geometry::words($n) {
            1 | 2 => {
                const $N: usize = 2;
                $body
            }
            3 => {
                const $N: usize = 3;
                $body
            }
            4 | 5 => {
                const $N: usize = 5;
                $body
            }
            6..=8 => {
                const $N: usize = 8;
                $body
            }
            _ => {
                const $N: usize = 11;
                $body
            }
        }
    };
}
pub use by_size;

/// The board of side `n` (2..=13).
pub fn board(n: usize) -> Checked<&'static Hexagon> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
        return err(format!("board side {n} outside {MIN_SIZE}..{MAX_SIZE}"));
    }
    Ok(hexagon(n))
}

/// The bitboard `what` from little-endian bytes, every bit a site of `geo`.
pub fn bits<const N: usize>(geo: &Hexagon, what: &str, bytes: &[u8]) -> Checked<Bb<N>> {
    let Some(bb) = Bb::<N>::from_le_bytes(bytes) else {
        return err(format!("{what}: a bit beyond the board of side {}", geo.n));
    };
    if !bb.within(&geo.mask::<N>()) {
        return err(format!("{what}: a bit off the board of side {}", geo.n));
    }
    Ok(bb)
}

/// A colour: 0 (Black) or 1 (White).
pub fn colour(c: usize) -> Checked<usize> {
    if c > 1 {
        return err(format!("colour {c}: expected 0 (black) or 1 (white)"));
    }
    Ok(c)
}

/// A site (bit) of `geo`.
pub fn site(geo: &Hexagon, s: usize) -> Checked<usize> {
    if !geo.is_site(s) {
        return err(format!("site {s} is not on the board of side {}", geo.n));
    }
    Ok(s)
}

/// Black's and White's stones, disjoint.
pub fn stones<const N: usize>(geo: &Hexagon, black: &[u8], white: &[u8]) -> Checked<[Bb<N>; 2]> {
    let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
    if st[0].meets(&st[1]) {
        return err("black and white share a site");
    }
    Ok(st)
}

fn phase_of<P: Copy>(phase: u8, all: [P; 3]) -> Checked<P> {
    match all.get(phase as usize) {
        Some(&p) => Ok(p),
        None => err(format!("phase {phase}: expected 0, 1 or 2")),
    }
}

/// Marbanta's phase: 0 pie, 1 swap, 2 play.
pub fn marbanta_phase(phase: u8) -> Checked<MPhase> {
    phase_of(phase, [MPhase::Pie, MPhase::Swap, MPhase::Play])
}

/// A Vaxandis state; `levels`: (height, bitboard) pairs covering every stack exactly once;
/// `phase`: 0 open, 1 swap, 2 play.
#[allow(clippy::too_many_arguments)]
pub fn vaxandis<const N: usize>(
    geo: &'static Hexagon,
    freeze_group: bool,
    touch_path: bool,
    black: &[u8],
    white: &[u8],
    levels: Vec<(u32, Vec<u8>)>,
    to_move: usize,
    ply: u32,
    phase: u8,
) -> Checked<Vaxandis<N>> {
    let st = [bits::<N>(geo, "black", black)?, bits::<N>(geo, "white", white)?];
    let mut height = vec![0; geo.bits()];
    let mut all = Bb::<N>::ZERO;
    for (h, bb) in levels {
        let bb = bits::<N>(geo, "levels", &bb)?;
        if h == 0 || all.meets(&bb) {
            return err("levels: heights are >= 1 and each site has one");
        }
        all = all.or(bb);
        for x in bb.iter() {
            height[x] = h;
        }
    }
    if all != st[0].or(st[1]) || st[0].meets(&st[1]) {
        return err("levels: the stacks must be exactly the black and white sites");
    }
    let phase = phase_of(phase, [VPhase::Open, VPhase::Swap, VPhase::Play])?;
    Ok(Vaxandis { geo, freeze_group, touch_path, st, height, to_move: colour(to_move)?, ply, phase })
}

/// Spelde's flip rule: 0 literal, 1 dense, 2 standard.
pub fn spelde_rule(rule: u8) -> Checked<Rule> {
    match rule {
        0 => Ok(Rule::Literal),
        1 => Ok(Rule::Dense),
        2 => Ok(Rule::Standard),
        _ => err(format!("rule {rule}: expected 0 (literal), 1 (dense) or 2 (standard)")),
    }
}

/// A Spelde state (`rule` as [`spelde_rule`]; `phase`: 0 open, 1 swap, 2 play).
pub fn spelde<const N: usize>(geo: &'static Hexagon, rule: u8, black: &[u8], white: &[u8], to_move: usize, ply: u32,
                              phase: u8) -> Checked<Spelde<N>> {
    let rule = spelde_rule(rule)?;
    let phase = phase_of(phase, [SPhase::Open, SPhase::Swap, SPhase::Play])?;
    let st = stones::<N>(geo, black, white)?;
    Ok(Spelde { geo, rule, st, to_move: colour(to_move)?, ply, phase })
}

/// Anda-prison's fields as plain values: (to_move, ply, phase (phases.py's order, 0 `pair`
/// .. 9 `agreed`), first (bit 0 black, bit 1 white), prison_black, prison_white, annihilated
/// (bits as first), komi, last (-1 none)).
pub type PrisonFields = (usize, u32, u8, u8, u32, u32, u8, u32, i8);

/// Anda-prison's fields, checked.
pub fn prison_fields(t: PrisonFields) -> Checked<Fields> {
    let (to_move, ply, phase, first, prison_black, prison_white, annihilated, komi, last) = t;
    let Some(&phase) = PrisonPhase::ALL.get(phase as usize) else {
        return err(format!("phase {phase}: expected 0..9"));
    };
    let pair = |b: u8| [b & 1 == 1, b & 2 == 2];
    let last = if last < 0 { None } else { Some(colour(last as usize)?) };
    Ok(Fields { to_move: colour(to_move)?, ply, phase, first: pair(first), prison: [prison_black, prison_white],
                annihilated: pair(annihilated), komi, last })
}

/// An Anda-prison state.
pub fn prison<const N: usize>(geo: &'static Hexagon, black: &[u8], white: &[u8], f: PrisonFields)
    -> Checked<Prison<N>> {
    Ok(Prison::new(geo, stones::<N>(geo, black, white)?, prison_fields(f)?))
}
