//! `MarbantaCore`: a Marbanta position held whole in the core (its groups included), the
//! base class of the Python state `CoreMarbantaState` (engine/games/marbanta/compiled.py).
//! The position and whether the mover has a turn (found once, at the first question) stay in
//! the core between plies, so the step API's hot calls are one call each, with no Python
//! frame: `outcome`, `legal_cells`, `random_action` (the draw, the action and the child, kept
//! for `play`) and `play` of the pie stones, `swap`, `keep`, a placement or a new group. The
//! stones (`black`, `white`) become Python ints only when read. A placement crosses the
//! boundary as one of the shared `Place` objects `bind` hands over, `swap` and `keep` as
//! shared objects too.
//!
//! Draws: held.rs (the core's generator, seeded once per `random.Random`). What the core does
//! not answer here (the reasons of refusals, anything that is not an action of the game) the
//! Python subclass answers with the Python rules: `play` calls its `_play_python`.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyTuple};

use super::held::{core_state, draw_kept, once, play_kept, each_size, instance, int, make_sized, rewrap_size, sized_enum, Draws, Stream};
use crate::bitboard::Bb;
use crate::input::{board, colour, marbanta_phase, stones};
use crate::marbanta::{Marbanta, Phase, Played};
use crate::rng::Rng;

/// The Python objects the states hand out, bound once (`MarbantaCore.bind`).
struct Consts {
    colours: [Py<PyAny>; 2],
    phases: [Py<PyAny>; 3],
    /// The end by the winner (0 Black, 1 White): the winner had no turn.
    outcomes: [Py<PyAny>; 2],
    places: Vec<Py<PyAny>>,
    place_type: Py<PyAny>,
    grow_type: Py<PyAny>,
    pie_type: Py<PyAny>,
    swap_type: Py<PyAny>,
    keep_type: Py<PyAny>,
    swap_action: Py<PyAny>,
    keep_action: Py<PyAny>,
    from_bytes: Py<PyAny>,
}

static CONSTS: GILOnceCell<Consts> = GILOnceCell::new();

fn consts(py: Python<'_>) -> PyResult<&Consts> {
    CONSTS.get(py).ok_or_else(|| PyValueError::new_err("MarbantaCore.bind was not called"))
}

/// A position and whether the mover has a turn, found at the first question.
#[derive(Clone)]
struct Pos<const N: usize> {
    g: Marbanta<N>,
    turn: OnceLock<bool>,
}

impl<const N: usize> Pos<N> {
    fn of(g: Marbanta<N>) -> Pos<N> {
        Pos { g, turn: OnceLock::new() }
    }

    /// The winner when the game is over (state.py's `outcome`: the mover without a turn wins).
    fn winner(&self) -> Option<usize> {
        let over = self.g.phase != Phase::Swap && !*self.turn.get_or_init(|| self.g.has_turn());
        over.then_some(self.g.to_move)
    }

    /// The legal roots (phase play; none in the other phases).
    fn cells(&self) -> Bb<N> {
        if self.g.phase != Phase::Play {
            return Bb::ZERO;
        }
        Bb::from_iter_bits(self.g.roots().into_iter().map(|(r, _)| r))
    }

    fn after(&self, played: Played<N>) -> Pos<N> {
        let mut g = self.g.clone();
        g.apply(played);
        Pos::of(g)
    }

    /// `played` as the Python action.
    fn object<'py>(&self, py: Python<'py>, c: &Consts, played: Played<N>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match played {
            Played::Pie(b, w) => c.pie_type.bind(py).call1((b, w))?,
            Played::Swap(true) => c.swap_action.bind(py).clone(),
            Played::Swap(false) => c.keep_action.bind(py).clone(),
            Played::Group(r, group) if group == Bb::bit(r) => c.places[r].bind(py).clone(),
            Played::Group(r, group) => {
                let mut branches: Vec<usize> = group.iter().filter(|&x| x != r).collect();
                branches.sort_unstable_by_key(|&x| self.g.geo.rank[x]);
                c.grow_type.bind(py).call1((r, PyTuple::new(py, branches)?))?
            }
        })
    }

    /// A uniformly random action as a Python object and the position it leads to, None when
    /// there is none.
    fn draw<'py>(&self, py: Python<'py>, c: &Consts, rng: &mut Rng) -> PyResult<Option<(Bound<'py, PyAny>, Pos<N>)>> {
        let Some(played) = self.g.draw(rng) else { return Ok(None) };
        Ok(Some((self.object(py, c, played)?, self.after(played))))
    }

    /// The new group of a root and its branches, None unless it is a legal turn now
    /// (state.py's `_check_turn`).
    fn group(&self, root: usize, branches: &[usize]) -> Option<Bb<N>> {
        let geo = self.g.geo;
        let free = self.g.free();
        let mut group = Bb::<N>::ZERO;
        for &x in std::iter::once(&root).chain(branches) {
            if !geo.is_site(x) || group.has(x) || !free.has(x) {
                return None;
            }
            group.set(x);
        }
        let connected = Bb::<N>::bit(root).flood(group, geo.width) == group;
        (connected && self.g.groups_seen(root) as usize == branches.len() + 1).then_some(group)
    }

    /// The position after the Python action `action`, None unless the core finds it legal.
    fn play(&self, c: &Consts, action: &Bound<'_, PyAny>) -> PyResult<Option<Pos<N>>> {
        let py = action.py();
        let kind = action.get_type();
        let played = match self.g.phase {
            Phase::Pie if kind.is(&c.pie_type) => {
                let b = action.getattr(intern!(py, "black"))?.extract::<usize>();
                let w = action.getattr(intern!(py, "white"))?.extract::<usize>();
                let (Ok(b), Ok(w)) = (b, w) else { return Ok(None) };
                let taken = self.g.st[0].or(self.g.st[1]);
                let geo = self.g.geo;
                let fine = geo.is_site(b) && geo.is_site(w) && b != w && !taken.has(b) && !taken.has(w);
                fine.then_some(Played::Pie(b, w))
            }
            Phase::Swap if kind.is(&c.swap_type) => Some(Played::Swap(true)),
            Phase::Swap if kind.is(&c.keep_type) => Some(Played::Swap(false)),
            Phase::Play if kind.is(&c.place_type) => match action.getattr(intern!(py, "cell"))?.extract::<usize>() {
                Ok(r) => self.group(r, &[]).map(|g| Played::Group(r, g)),
                Err(_) => None,
            },
            Phase::Play if kind.is(&c.grow_type) => {
                let root = action.getattr(intern!(py, "root"))?.extract::<usize>();
                let branches = action.getattr(intern!(py, "branches"))?.extract::<Vec<usize>>();
                match (root, branches) {
                    (Ok(r), Ok(b)) if !b.is_empty() => self.group(r, &b).map(|g| Played::Group(r, g)),
                    _ => None,
                }
            }
            _ => None,
        };
        Ok(played.map(|p| self.after(p)))
    }
}

sized_enum!(Sized, Pos);

macro_rules! each {
    ($s:expr, $p:ident => $body:expr) => {
        each_size!(Sized, $s, $p => $body)
    };
}

core_state!(
    /// A Marbanta position (every phase); see the module docs.
    MarbantaCore, p, colour => p.g.st[colour]
);

#[pymethods]
impl MarbantaCore {
    /// The position of side `n` (`pie`: balance pie) with these stones (little-endian bytes),
    /// colour `to_move` to move (0 black, 1 white), in `phase` (0 pie, 1 swap, 2 play);
    /// `variant` is what `variant` answers.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(variant: Py<PyAny>, n: usize, pie: bool, black: &[u8], white: &[u8], to_move: usize, ply: u32, phase: u8)
        -> PyResult<MarbantaCore> {
        let geo = board(n)?;
        let (to_move, phase) = (colour(to_move)?, marbanta_phase(phase)?);
        let g = make_sized!(Sized, n, N => Pos::of(Marbanta::new(geo, pie, stones::<N>(geo, black, white)?, to_move,
                                                                   ply, phase)));
        Ok(MarbantaCore::of(g, variant, None))
    }

    /// Hand the core the Python objects its states answer with: the two colours (black,
    /// white), the three phases (pie, swap, play), the two ends by their winner (Black,
    /// White), one `Place` per site bit of the largest board, the classes `Place`, `Grow`,
    /// `PieStones`, `Swap` and `Keep`, and one `Swap` and one `Keep`. The first call binds
    /// them; later calls change nothing.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn bind(
        py: Python<'_>,
        colours: [Py<PyAny>; 2],
        phases: [Py<PyAny>; 3],
        outcomes: [Py<PyAny>; 2],
        places: Vec<Py<PyAny>>,
        place_type: Py<PyAny>,
        grow_type: Py<PyAny>,
        pie_type: Py<PyAny>,
        swap_type: Py<PyAny>,
        keep_type: Py<PyAny>,
        swap_action: Py<PyAny>,
        keep_action: Py<PyAny>,
    ) -> PyResult<()> {
        let from_bytes = py.get_type::<pyo3::types::PyInt>().getattr("from_bytes")?.unbind();
        let _ = CONSTS.set(py, Consts {
            colours, phases, outcomes, places, place_type, grow_type, pie_type, swap_type, keep_type, swap_action,
            keep_action, from_bytes,
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
            Phase::Pie => 0,
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

    /// (side, black, white, to_move): the position as the core's `marbanta_*` functions take
    /// it (little-endian bytes, the colour by number).
    fn core_args<'py>(&self, py: Python<'py>) -> (usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>, usize) {
        each!(&self.g, p => (p.g.geo.n, super::out(py, p.g.st[0]), super::out(py, p.g.st[1]), p.g.to_move))
    }

    /// None while the game goes on, else the bound end by its winner.
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match each!(&self.g, p => p.winner()) {
            None => py.None(),
            Some(w) => consts(py)?.outcomes[w].clone_ref(py),
        })
    }

    /// Bitboard (an int) of the legal roots (0 outside phase play).
    fn legal_cells(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&self.g, p => int(py, &c.from_bytes, p.cells()))
    }

    /// A uniformly random legal action (state.py's distribution), drawn in the core (held.rs);
    /// the state it leads to is kept for `play`. ValueError when the game is over.
    fn random_action<'py>(slf: &Bound<'py, Self>, rng: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        draw_kept(&me.draws, rng, "the game is over: no legal turn",
                  |r| Ok(rewrap_size!(Sized, &me.g, p => p.draw(py, c, r)?, pair)),
                  |g, stream| MarbantaCore::child(slf, g, stream))
    }

    /// The state after `action`: the state `random_action` kept for it, a legal action of
    /// the phase played in the core, else what `_play_python` answers (IllegalMove with the
    /// Python rules' reason for anything they forbid).
    fn play<'py>(slf: &Bound<'py, Self>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        play_kept(slf.as_any(), &me.draws, action, || {
            rewrap_size!(Sized, &me.g, p => p.play(c, action)?).map(|g| MarbantaCore::child(slf, g, None)).transpose()
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MarbantaCore>()
}
