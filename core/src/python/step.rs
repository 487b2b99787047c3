//! `AndaBoard`: an Anda position of a placing turn held in the core between plies, so that
//! the step API's random ply is one call that copies the parent's analysed board and plays
//! on it (no analysis from scratch): `random_step` draws a uniform action, plays it and
//! answers the outcome of the position it leads to (engine/games/anda/compiled.py).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::out;
use crate::anda::{Anda, Phase, Termination};
use crate::geometry::words;
use crate::input::{bits, board, colour};
use crate::rng::Rng;

/// The position at each word count of `input::by_size`.
#[derive(Clone)]
enum Sized {
    W2(Anda<2>),
    W3(Anda<3>),
    W5(Anda<5>),
    W8(Anda<8>),
    W11(Anda<11>),
}

macro_rules! each {
    ($s:expr, $g:ident => $body:expr) => {
        match $s {
            Sized::W2($g) => $body,
            Sized::W3($g) => $body,
            Sized::W5($g) => $body,
            Sized::W8($g) => $body,
            Sized::W11($g) => $body,
        }
    };
}

/// (action, child, black, white, winner, why): the action is the site placed on, -1 White's
/// pass, -2 none (the mover has no action); the child the position after it (None unless a
/// placement); the stones after it; the outcome after it, winner 0 / 1 (-1 while the game
/// goes on) and why 1 no moves, 2 eliminated.
type Step<'py> = (i32, Option<AndaBoard>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, i8, u8);

/// An Anda position in phase play on a placing turn, analysed once.
#[pyclass(frozen, module = "hexarena_core")]
pub struct AndaBoard {
    g: Sized,
}

fn step<'py, const N: usize>(py: Python<'py>, g: &Anda<N>, seed: u64, wrap: fn(Anda<N>) -> Sized) -> Step<'py> {
    let mut c = g.clone();
    let action = match c.random_turn(&mut Rng::new(seed)) {
        None => -2,
        Some(None) => -1,
        Some(Some(s)) => s as i32,
    };
    let (winner, why) = match c.outcome() {
        None => (-1, 0),
        Some((w, Termination::NoMoves)) => (w as i8, 1),
        Some((w, Termination::Eliminated)) => (w as i8, 2),
    };
    let (b, w) = (out(py, c.board.st[0]), out(py, c.board.st[1]));
    let child = (action >= 0).then(|| AndaBoard { g: wrap(c) });
    (action, child, b, w, winner, why)
}

#[pymethods]
impl AndaBoard {
    /// The position of side `n` with these stones (little-endian bytes), colour `me` to move
    /// (0 black, 1 white), `komi` White's passes left and `first` the first turns still to
    /// come (bit 0 Black's, bit 1 White's); ValueError unless it is a placing turn.
    #[new]
    fn new(n: usize, black: &[u8], white: &[u8], me: usize, komi: u32, first: u8) -> PyResult<AndaBoard> {
        let geo = board(n)?;
        let me = colour(me)?;
        let first = [first & 1 == 1, first & 2 == 2];
        macro_rules! make {
            ($N:literal, $v:ident) => {{
                let g = Anda::<$N>::new(geo, false, bits(geo, "black", black)?, bits(geo, "white", white)?,
                                        me, 0, komi, first, Phase::Play);
                if !g.placing() {
                    return Err(PyValueError::new_err("not a placing turn"));
                }
                Sized::$v(g)
            }};
        }
        let g = match words(n) {
            1 | 2 => make!(2, W2),
            3 => make!(3, W3),
            4 | 5 => make!(5, W5),
            6..=8 => make!(8, W8),
            _ => make!(11, W11),
        };
        Ok(AndaBoard { g })
    }

    /// A uniformly random action (the placements and White's pass) drawn with the generator
    /// seeded by `seed` and played on a copy (see [`Step`]); this position is unchanged.
    fn random_step<'py>(&self, py: Python<'py>, seed: u64) -> Step<'py> {
        match &self.g {
            Sized::W2(g) => step(py, g, seed, Sized::W2),
            Sized::W3(g) => step(py, g, seed, Sized::W3),
            Sized::W5(g) => step(py, g, seed, Sized::W5),
            Sized::W8(g) => step(py, g, seed, Sized::W8),
            Sized::W11(g) => step(py, g, seed, Sized::W11),
        }
    }

    /// Whether the side to move may place (false once the game is over).
    fn placing(&self) -> bool {
        each!(&self.g, g => g.placing())
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AndaBoard>()
}
