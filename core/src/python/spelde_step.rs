//! `SpeldeCore`: a Spelde position held whole in the core, the base class of the Python state
//! `CoreSpeldeState` (engine/games/spelde/compiled.py). The position and its legal cells
//! (found once, at the first question) stay in the core between plies, so the step API's hot
//! calls are one call each, with no Python frame: `outcome`, `legal_cells`, `random_action`
//! (the draw, the action and the child, kept for `play`) and `play` of a placement, a split
//! or `swap`. The stones (`black`, `white`) become Python ints only when read. A placement
//! crosses the boundary as one of the shared `Place` objects `bind` hands over, a split as its
//! cell and its flips' int, `swap` as its class.
//!
//! Draws: held.rs (the core's generator, seeded once per `random.Random`). What the core does
//! not answer here (the reasons of refusals, anything that is not an action of the game) the
//! Python subclass answers with the Python rules: `play` calls its `_play_python`.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use super::held::{core_state, draw_kept, once, play_kept, bits_of, each_size, instance, int, make_sized, rewrap_size, sized_enum, Draws, Stream};
use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::input::{self, board};
use crate::spelde::{Action, Phase, Spelde};

/// The Python objects the states hand out, bound once (`SpeldeCore.bind`).
struct Consts {
    colours: [Py<PyAny>; 2],
    phases: [Py<PyAny>; 3],
    /// The end by the winner (0 Black, 1 White): the loser had no placement.
    outcomes: [Py<PyAny>; 2],
    places: Vec<Py<PyAny>>,
    place_type: Py<PyAny>,
    split_type: Py<PyAny>,
    swap_type: Py<PyAny>,
    swap_action: Py<PyAny>,
    from_bytes: Py<PyAny>,
}

static CONSTS: GILOnceCell<Consts> = GILOnceCell::new();

fn consts(py: Python<'_>) -> PyResult<&Consts> {
    CONSTS.get(py).ok_or_else(|| PyValueError::new_err("SpeldeCore.bind was not called"))
}

/// A position and its legal cells, found at the first question.
#[derive(Clone)]
struct Pos<const N: usize> {
    g: Spelde<N>,
    cells: OnceLock<Bb<N>>,
}

impl<const N: usize> Pos<N> {
    fn of(g: Spelde<N>) -> Pos<N> {
        Pos { g, cells: OnceLock::new() }
    }

    fn cells(&self) -> Bb<N> {
        *self.cells.get_or_init(|| self.g.legal_cells())
    }

    /// The winner when the game is over (state.py's `outcome`).
    fn winner(&self) -> Option<usize> {
        (self.g.phase != Phase::Swap && self.cells().is_zero()).then_some(1 - self.g.to_move)
    }

    fn after(&self, action: Action<N>) -> Pos<N> {
        let mut g = self.g.clone();
        g.apply(action);
        Pos::of(g)
    }

    /// Whether placing on `cell` and flipping `named` is legal now (state.py's `_check`).
    fn allows(&self, cell: usize, named: Bb<N>) -> bool {
        self.g.geo.is_site(cell) && self.cells().has(cell) && self.g.splits_all(cell, named)
    }

    /// A uniformly random action as a Python object and the position it leads to, None when
    /// there is none.
    fn draw<'py>(&self, py: Python<'py>, c: &Consts, rng: &mut crate::rng::Rng)
        -> PyResult<Option<(Bound<'py, PyAny>, Pos<N>)>> {
        let Some(action) = self.g.random_action_in(self.cells(), rng) else { return Ok(None) };
        let object = match action {
            Action::Swap => c.swap_action.bind(py).clone(),
            Action::Place(cell, flips) if flips.is_zero() => c.places[cell].bind(py).clone(),
            Action::Place(cell, flips) => c.split_type.bind(py).call1((cell, int(py, &c.from_bytes, flips)?))?,
        };
        Ok(Some((object, self.after(action))))
    }

    /// The action `text` names and its canonical token (`read_token`), None for any other token.
    fn read<'py>(&self, py: Python<'py>, c: &Consts, text: &str) -> PyResult<Option<(Bound<'py, PyAny>, String)>> {
        let Some((what, canonical)) = read_token::<N>(self.g.geo, text) else { return Ok(None) };
        let action = match what {
            None => c.swap_action.bind(py).clone(),
            Some((cell, flips)) if flips.is_zero() => c.places[cell].bind(py).clone(),
            Some((cell, flips)) => c.split_type.bind(py).call1((cell, int(py, &c.from_bytes, flips)?))?,
        };
        Ok(Some((action, canonical)))
    }

    /// The position after the Python action `action`, None unless the core finds it legal.
    fn play(&self, c: &Consts, action: &Bound<'_, PyAny>) -> PyResult<Option<Pos<N>>> {
        let py = action.py();
        let kind = action.get_type();
        let (cell, named) = if kind.is(&c.place_type) {
            (action.getattr(intern!(py, "cell"))?, Bb::ZERO)
        } else if kind.is(&c.split_type) {
            let Some(named) = bits_of::<N>(self.g.geo, &action.getattr(intern!(py, "flips"))?) else {
                return Ok(None);
            };
            if named.is_zero() {
                return Ok(None);
            }
            (action.getattr(intern!(py, "cell"))?, named)
        } else if kind.is(&c.swap_type) {
            return Ok((self.g.phase == Phase::Swap).then(|| self.after(Action::Swap)));
        } else {
            return Ok(None);
        };
        let Ok(cell) = cell.extract::<usize>() else { return Ok(None) };
        Ok(self.allows(cell, named).then(|| self.after(Action::Place(cell, named))))
    }
}

/// The site `text` names: a lowercase letter and a row number without a leading zero (as
/// engine.geometry reads a name after lowering it), None when it is not one of `geo`.
pub(super) fn site_named(geo: &Hexagon, text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let shaped = (2..=3).contains(&b.len()) && b[0].is_ascii_lowercase() && b[1] != b'0'
        && b[1..].iter().all(u8::is_ascii_digit);
    shaped.then(|| geo.parse(text)).flatten()
}

/// A token of a placement, a split or `swap` on `geo` (any case, blanks around): the action
/// (a split's flips as a bitboard, none for `swap`) and its canonical text; None for any
/// other token, well formed or not (engine/notation.py reads those, with their errors).
fn read_token<const N: usize>(geo: &Hexagon, token: &str) -> Option<(Option<(usize, Bb<N>)>, String)> {
    let t = token.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_lowercase();
    if t == "swap" {
        return Some((None, t));
    }
    let Some((cell, named)) = t.split_once('/') else {
        let cell = site_named(geo, &t)?;
        return Some((Some((cell, Bb::ZERO)), geo.name(cell)));
    };
    let cell = site_named(geo, cell)?;
    let mut flips = Bb::<N>::ZERO;
    for name in named.split(',') {
        let s = site_named(geo, name)?;
        if s == cell || flips.has(s) {
            return None;
        }
        flips.set(s);
    }
    let mut sites: Vec<usize> = flips.iter().collect();
    sites.sort_unstable_by_key(|&s| geo.rank[s]);
    let names: Vec<String> = sites.into_iter().map(|s| geo.name(s)).collect();
    Some((Some((cell, flips)), format!("{}/{}", geo.name(cell), names.join(","))))
}

sized_enum!(Sized, Pos);

macro_rules! each {
    ($s:expr, $p:ident => $body:expr) => {
        each_size!(Sized, $s, $p => $body)
    };
}

core_state!(
    /// A Spelde position (every phase); see the module docs.
    SpeldeCore, p, colour => p.g.st[colour]
);

#[pymethods]
impl SpeldeCore {
    /// The position of side `n` under `rule` (0 literal, 1 dense, 2 standard) with these
    /// stones (little-endian bytes), colour `to_move` to move (0 black, 1 white), in `phase`
    /// (0 open, 1 swap, 2 play); `variant` is what `variant` answers.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(variant: Py<PyAny>, n: usize, rule: u8, black: &[u8], white: &[u8], to_move: usize, ply: u32, phase: u8)
        -> PyResult<SpeldeCore> {
        let geo = board(n)?;
        let g = make_sized!(Sized, n, N => Pos::of(input::spelde::<N>(geo, rule, black, white, to_move, ply, phase)?));
        Ok(SpeldeCore::of(g, variant, None))
    }

    /// Hand the core the Python objects its states answer with: the two colours (black,
    /// white), the three phases (open, swap, play), the two ends by their winner (Black,
    /// White), one `Place` per site bit of the largest board, the classes `Place`, `Split`
    /// and `Swap`, and one `Swap`. The first call binds them; later calls change nothing.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn bind(
        py: Python<'_>,
        colours: [Py<PyAny>; 2],
        phases: [Py<PyAny>; 3],
        outcomes: [Py<PyAny>; 2],
        places: Vec<Py<PyAny>>,
        place_type: Py<PyAny>,
        split_type: Py<PyAny>,
        swap_type: Py<PyAny>,
        swap_action: Py<PyAny>,
    ) -> PyResult<()> {
        let from_bytes = py.get_type::<pyo3::types::PyInt>().getattr("from_bytes")?.unbind();
        let _ = CONSTS.set(py, Consts {
            colours, phases, outcomes, places, place_type, split_type, swap_type, swap_action, from_bytes,
        });
        Ok(())
    }

    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.variant.clone_ref(py)
    }

    #[getter]
    fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.colours[each!(&self.g, p => p.g.to_move)].clone_ref(py))
    }

    #[getter]
    fn ply(&self) -> u32 {
        each!(&self.g, p => p.g.ply)
    }

    #[getter]
    fn phase(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let k = match each!(&self.g, p => p.g.phase) {
            Phase::Open => 0,
            Phase::Swap => 1,
            Phase::Play => 2,
        };
        Ok(consts(py)?.phases[k].clone_ref(py))
    }

    /// Black's stones as a bitboard (an int, built at the first read).
    #[getter]
    fn black(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 0)
    }

    /// White's stones as a bitboard.
    #[getter]
    fn white(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 1)
    }

    /// (side, rule, black, white, to_move): the position as the core's `spelde_*` functions
    /// take it (little-endian bytes, the rule and the colour by number).
    fn core_args<'py>(&self, py: Python<'py>) -> (usize, u8, Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize) {
        each!(&self.g, p => (p.g.geo.n, p.g.rule as u8, super::out(py, p.g.st[0]), super::out(py, p.g.st[1]),
                             p.g.to_move))
    }

    /// None while the game goes on, else the bound end by its winner.
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match each!(&self.g, p => p.winner()) {
            None => py.None(),
            Some(w) => consts(py)?.outcomes[w].clone_ref(py),
        })
    }

    /// Bitboard (an int) of the mover's legal placement cells.
    fn legal_cells(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&self.g, p => int(py, &c.from_bytes, p.cells()))
    }

    /// Under `flips=literal`: the first `limit` legal placements (no `swap`) in state.py's
    /// order, as shared `Place`s and `Split`s.
    fn literal_list<'py>(&self, py: Python<'py>, limit: usize) -> PyResult<Bound<'py, PyList>> {
        let c = consts(py)?;
        let mut out: Vec<Bound<'py, PyAny>> = Vec::new();
        each!(&self.g, p => {
            for (cell, flips) in p.g.literal_actions(limit) {
                out.push(if flips.is_zero() {
                    c.places[cell].bind(py).clone()
                } else {
                    c.split_type.bind(py).call1((cell, int(py, &c.from_bytes, flips)?))?
                });
            }
        });
        PyList::new(py, out)
    }

    /// (action, canonical token) of `token` (GameState.read): a placement (a shared `Place`),
    /// a split or `swap` read in the core, any other token by `_read_python` (the Python
    /// notation, with its errors).
    fn read<'py>(slf: &Bound<'py, Self>, token: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let c = consts(py)?;
        let read = match token.downcast::<PyString>() {
            Ok(text) => {
                let text = text.to_cow()?;
                each!(&slf.get().g, p => p.read(py, c, &text))?
            }
            Err(_) => None,
        };
        match read {
            Some((action, canonical)) => Ok(PyTuple::new(py, [action, PyString::new(py, &canonical).into_any()])?.into_any()),
            None => slf.call_method1(intern!(py, "_read_python"), (token,)),
        }
    }

    /// A uniformly random legal action (the random player's distribution: a uniform cell or
    /// `swap`, then a uniform valid flip set of each touching enemy group), drawn in the core
    /// (held.rs); the state it leads to is kept for `play`. ValueError when the game is over.
    fn random_action<'py>(slf: &Bound<'py, Self>, rng: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        draw_kept(&me.draws, rng, "the game is over", |r| Ok(rewrap_size!(Sized, &me.g, p => p.draw(py, c, r)?, pair)),
                  |g, stream| SpeldeCore::child(slf, g, stream))
    }

    /// The state after `action`: the state `random_action` kept for it, a legal placement,
    /// split or `swap` played in the core, else what `_play_python` answers (IllegalMove
    /// with the Python rules' reason for anything they forbid).
    fn play<'py>(slf: &Bound<'py, Self>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        play_kept(slf.as_any(), &me.draws, action, || {
            rewrap_size!(Sized, &me.g, p => p.play(c, action)?).map(|g| SpeldeCore::child(slf, g, None)).transpose()
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SpeldeCore>()
}
