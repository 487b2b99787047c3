//! `PrisonCore`: an Anda-prison position held whole in the core (`anda_prison::Prison`: the
//! board, its analysis and every field), the base class of the Python state
//! `CorePrisonState` (engine/games/anda_prison/compiled.py). The position and its end (found
//! when it is made) stay in the core between plies, so the step API's hot calls are one call
//! each, with no Python frame: `outcome`, `legal_cells`, `legal_list`, `random_action` (the
//! draw, the action and the child, kept for `play`) and `play` of any action of the game.
//! The stones (`black`, `white`) become Python ints only when read. Placements and the words
//! cross the boundary as shared objects `bind` hands over.
//!
//! Draws: held.rs (the core's generator, seeded once per `random.Random`). A refusal's reason
//! (and anything that is not an action of the game) the Python subclass answers with the
//! Python rules: `play` calls its `_play_python`.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList};
use std::sync::OnceLock;

use super::held::{core_state, draw_kept, once, play_kept, each_size, instance, int, make_sized, rewrap_size, sized_enum, Draws, Stream};
use crate::anda_prison::{Action, Outcome, Prison, Termination};
use crate::input::{board, prison as state, PrisonFields};
use crate::rng::Rng;

/// The words of the game, in the order of `bind`'s `words`.
const WORDS: [Action; 6] = [Action::Swap, Action::Keep, Action::Release, Action::Propose, Action::Accept,
                            Action::Decline];

/// The Python objects the states hand out, bound once (`PrisonCore.bind`).
struct Consts {
    colours: [Py<PyAny>; 2],
    phases: Vec<Py<PyAny>>,
    /// Sets of colours by bits (1 Black, 2 White).
    sets: [Py<PyAny>; 4],
    /// no moves, agreement, the ply cap
    terminations: [Py<PyAny>; 3],
    outcome_type: Py<PyAny>,
    places: Vec<Py<PyAny>>,
    place_type: Py<PyAny>,
    pair_type: Py<PyAny>,
    komi_type: Py<PyAny>,
    word_types: [Py<PyAny>; 6],
    words: [Py<PyAny>; 6],
    from_bytes: Py<PyAny>,
}

static CONSTS: GILOnceCell<Consts> = GILOnceCell::new();

fn consts(py: Python<'_>) -> PyResult<&Consts> {
    CONSTS.get(py).ok_or_else(|| PyValueError::new_err("PrisonCore.bind was not called"))
}

fn bits(b: [bool; 2]) -> usize {
    usize::from(b[0]) | usize::from(b[1]) << 1
}

/// `o` as the Python `Outcome` (scored, with its margin, unless a draw or an end by no moves).
fn outcome_object(py: Python<'_>, c: &Consts, o: Outcome) -> PyResult<Py<PyAny>> {
    let why = match o.termination {
        Termination::NoMoves => 0,
        Termination::Agreement => 1,
        Termination::PlyCap => 2,
    };
    let term = c.terminations[why].bind(py);
    let made = match o.winner {
        None => c.outcome_type.bind(py).call1((py.None(), term))?,
        Some(w) => {
            let margin = (why != 0).then(|| f64::from(o.margin2) / 2.0);
            c.outcome_type.bind(py).call1((c.colours[w].bind(py), term, margin))?
        }
    };
    Ok(made.unbind())
}

/// An action as the Python object (shared ones for placements and words).
fn action_object<'py>(py: Python<'py>, c: &Consts, a: Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Place(s) => c.places[usize::from(s)].bind(py).clone(),
        Action::Pair(x, y) => c.pair_type.bind(py).call1((x, y))?,
        Action::Komi(k) => c.komi_type.bind(py).call1((k,))?,
        word => c.words[WORDS.iter().position(|&w| w == word).unwrap_or(0)].bind(py).clone(),
    })
}

/// A Python action as the core's, None when it is not one the core plays.
fn core_action(c: &Consts, action: &Bound<'_, PyAny>) -> PyResult<Option<Action>> {
    let py = action.py();
    let kind = action.get_type();
    let site = |name| -> PyResult<Option<u16>> { Ok(action.getattr(name)?.extract::<u16>().ok()) };
    Ok(if kind.is(&c.place_type) {
        site(intern!(py, "cell"))?.map(Action::Place)
    } else if kind.is(&c.pair_type) {
        site(intern!(py, "a"))?.zip(site(intern!(py, "b"))?).map(|(a, b)| Action::Pair(a, b))
    } else if kind.is(&c.komi_type) {
        site(intern!(py, "k"))?.map(Action::Komi)
    } else {
        c.word_types.iter().position(|t| kind.is(t)).map(|i| WORDS[i])
    })
}

/// A position and its legal single placements, found at the first question.
#[derive(Clone)]
struct Pos<const N: usize> {
    g: Prison<N>,
    cells: OnceLock<crate::bitboard::Bb<N>>,
}

impl<const N: usize> Pos<N> {
    fn of(g: Prison<N>) -> Pos<N> {
        Pos { g, cells: OnceLock::new() }
    }

    fn draw<'py>(&self, py: Python<'py>, c: &Consts, rng: &mut Rng) -> PyResult<Option<(Bound<'py, PyAny>, Pos<N>)>> {
        let Some((a, next)) = self.g.random_step(rng) else { return Ok(None) };
        Ok(Some((action_object(py, c, a)?, Pos::of(next))))
    }

    fn play(&self, c: &Consts, action: &Bound<'_, PyAny>) -> PyResult<Option<Pos<N>>> {
        Ok(core_action(c, action)?.and_then(|a| self.g.play(a)).map(Pos::of))
    }

    fn fields(&self) -> PrisonFields {
        let f = &self.g.f;
        (f.to_move, f.ply, f.phase as u8, bits(f.first) as u8, f.prison[0], f.prison[1], bits(f.annihilated) as u8,
         f.komi, f.last.map_or(-1, |c| c as i8))
    }
}

sized_enum!(Sized, Pos);

macro_rules! each {
    ($s:expr, $p:ident => $body:expr) => {
        each_size!(Sized, $s, $p => $body)
    };
}

core_state!(
    /// An Anda-prison position (every phase); see the module docs.
    PrisonCore, p, colour => p.g.board.st[colour]
);

impl PrisonCore {
    fn fields(&self) -> PrisonFields {
        each!(&self.g, p => p.fields())
    }
}

#[pymethods]
impl PrisonCore {
    /// The position of side `n` with these stones (little-endian bytes) and `fields`
    /// (`input::PrisonFields`: to_move, ply, phase, first, prison_black, prison_white,
    /// annihilated, komi, last); `variant` is what `variant` answers.
    #[new]
    fn new(variant: Py<PyAny>, n: usize, black: &[u8], white: &[u8], fields: PrisonFields) -> PyResult<PrisonCore> {
        let geo = board(n)?;
        let g = make_sized!(Sized, n, N => Pos::of(state::<N>(geo, black, white, fields)?));
        Ok(PrisonCore::of(g, variant, None))
    }

    /// Hand the core the Python objects its states answer with: the two colours, the ten
    /// phases (phases.py's order), the four sets of colours (by bits: none, Black, White,
    /// both), the terminations (no moves, agreement, the ply cap), the class `Outcome`, one
    /// `Place` per site bit of the largest board, the classes `Place`, `Pair`, `Komi`, the
    /// classes of the words (swap, keep, release, propose, accept, decline) and one of each.
    /// The first call binds them; later calls change nothing.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn bind(
        py: Python<'_>,
        colours: [Py<PyAny>; 2],
        phases: Vec<Py<PyAny>>,
        sets: [Py<PyAny>; 4],
        terminations: [Py<PyAny>; 3],
        outcome_type: Py<PyAny>,
        places: Vec<Py<PyAny>>,
        place_type: Py<PyAny>,
        pair_type: Py<PyAny>,
        komi_type: Py<PyAny>,
        word_types: [Py<PyAny>; 6],
        words: [Py<PyAny>; 6],
    ) -> PyResult<()> {
        let from_bytes = py.get_type::<pyo3::types::PyInt>().getattr("from_bytes")?.unbind();
        let _ = CONSTS.set(py, Consts {
            colours, phases, sets, terminations, outcome_type, places, place_type, pair_type, komi_type, word_types,
            words, from_bytes,
        });
        Ok(())
    }

    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.variant.clone_ref(py)
    }

    #[getter]
    fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.colours[each!(&self.g, p => p.g.f.to_move)].clone_ref(py))
    }

    #[getter]
    fn ply(&self) -> u32 {
        each!(&self.g, p => p.g.f.ply)
    }

    #[getter]
    fn phase(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.phases[each!(&self.g, p => p.g.f.phase as usize)].clone_ref(py))
    }

    #[getter]
    fn first(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.sets[each!(&self.g, p => bits(p.g.f.first))].clone_ref(py))
    }

    #[getter]
    fn annihilated(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(consts(py)?.sets[each!(&self.g, p => bits(p.g.f.annihilated))].clone_ref(py))
    }

    #[getter]
    fn prison_black(&self) -> u32 {
        each!(&self.g, p => p.g.f.prison[0])
    }

    #[getter]
    fn prison_white(&self) -> u32 {
        each!(&self.g, p => p.g.f.prison[1])
    }

    #[getter]
    fn komi(&self) -> u32 {
        each!(&self.g, p => p.g.f.komi)
    }

    #[getter]
    fn last(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match each!(&self.g, p => p.g.f.last) {
            None => py.None(),
            Some(c) => consts(py)?.colours[c].clone_ref(py),
        })
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

    /// Whether the turn places a two-stone pair.
    #[getter]
    fn pairing(&self) -> bool {
        each!(&self.g, p => p.g.pairing())
    }

    /// Whether the turn is a normal one (single placements, a release, a proposal).
    #[getter]
    fn normal(&self) -> bool {
        each!(&self.g, p => p.g.normal())
    }

    /// (side, black, white, fields): the position as the core's `prison_*` functions take it.
    fn core_args<'py>(&self, py: Python<'py>) -> (usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>, PrisonFields) {
        let f = self.fields();
        each!(&self.g, p => (p.g.geo().n, super::out(py, p.g.board.st[0]), super::out(py, p.g.board.st[1]), f))
    }

    /// None while the game goes on, else its `Outcome`.
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match each!(&self.g, p => p.g.outcome()) {
            None => Ok(py.None()),
            Some(o) => outcome_object(py, consts(py)?, o),
        }
    }

    /// The referee's verdict at its ply cap (the score).
    fn adjudicate(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        outcome_object(py, consts(py)?, each!(&self.g, p => p.g.adjudicate()))
    }

    /// Bitboard (an int) of the legal single placements (0 outside a normal turn).
    fn legal_cells(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&self.g, p => int(py, &c.from_bytes, *p.cells.get_or_init(|| p.g.legal_cells())))
    }

    /// Every legal action in state.py's order (empty when the game is over).
    fn legal_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let c = consts(py)?;
        let mut actions = Vec::new();
        each!(&self.g, p => p.g.actions(usize::MAX, &mut actions));
        let objects = actions.into_iter().map(|a| action_object(py, c, a)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, objects)
    }

    /// A uniformly random legal action (state.py's distribution), drawn in the core (held.rs);
    /// the state it leads to is kept for `play`. ValueError when the game is over.
    fn random_action<'py>(slf: &Bound<'py, Self>, rng: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        draw_kept(&me.draws, rng, "the game is over", |r| Ok(rewrap_size!(Sized, &me.g, p => p.draw(py, c, r)?, pair)),
                  |g, stream| PrisonCore::child(slf, g, stream))
    }

    /// The state after `action`: the state `random_action` kept for it, a legal action played
    /// in the core, else what `_play_python` answers (IllegalMove with the Python rules'
    /// reason for anything they forbid).
    fn play<'py>(slf: &Bound<'py, Self>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        play_kept(slf.as_any(), &me.draws, action, || {
            rewrap_size!(Sized, &me.g, p => p.play(c, action)?).map(|g| PrisonCore::child(slf, g, None)).transpose()
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PrisonCore>()
}
