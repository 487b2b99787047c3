//! `VaxandisCore`: a Vaxandis position held whole in the core (its stacks' heights included),
//! the base class of the Python state `CoreVaxandisState` (engine/games/vaxandis/compiled.py).
//! The position, its placement cells and whether the mover has a move (found once, at the
//! first question) stay in the core between plies, so the step API's hot calls are one call
//! each, with no Python frame: `outcome`, `legal_cells`, `random_action` (the draw, the action
//! and the child, kept for `play`), `read` of a placement, a move or `swap` and `play` of
//! them. The stones (`black`, `white`) and the height table (`levels`) become Python objects
//! only when read. A placement crosses the boundary as one of the shared `Place` objects
//! `bind` hands over, `swap` as a shared object too, a move as a `Move` built by the core.
//!
//! Draws: held.rs (the core's generator, seeded once per `random.Random`), uniform over every
//! legal action (each placement, move and `swap` one choice), as the Python rules draw.
//! What the core does not answer here (the reasons of refusals, anything that is not an
//! action of the game) the Python subclass answers with the Python rules: `play` calls its
//! `_play_python`, `read` its `_read_python`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use super::held::{
    core_state, draw_kept, each_size, instance, int, make_sized, once, play_kept, rewrap_size, sized_enum, Draws, Stream,
};
use super::spelde_step::site_named;
use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::input::{self, board};
use crate::rng::Rng;
use crate::vaxandis::{Phase, Vaxandis};

/// The Python objects the states hand out, bound once (`VaxandisCore.bind`).
struct Consts {
    colours: [Py<PyAny>; 2],
    phases: [Py<PyAny>; 3],
    /// The end by the winner (0 Black, 1 White): the loser had no action.
    outcomes: [Py<PyAny>; 2],
    places: Vec<Py<PyAny>>,
    place_type: Py<PyAny>,
    move_type: Py<PyAny>,
    swap_type: Py<PyAny>,
    swap_action: Py<PyAny>,
    from_bytes: Py<PyAny>,
    /// The `Move` of each (source, landing) handed out so far (at most one per pair of sites
    /// on a line: some 17,000 at side 13), shared as the `Place`s are.
    moves: Mutex<HashMap<(usize, usize), Py<PyAny>>>,
}

impl Consts {
    /// The shared `Move` of src-dst.
    fn move_object<'py>(&self, py: Python<'py>, src: usize, dst: usize) -> PyResult<Bound<'py, PyAny>> {
        let mut moves = self.moves.lock().map_err(|_| PyValueError::new_err("a move failed before"))?;
        if let Some(m) = moves.get(&(src, dst)) {
            return Ok(m.bind(py).clone());
        }
        let m = self.move_type.bind(py).call1((src, dst))?;
        moves.insert((src, dst), m.clone().unbind());
        Ok(m)
    }
}

static CONSTS: GILOnceCell<Consts> = GILOnceCell::new();

fn consts(py: Python<'_>) -> PyResult<&Consts> {
    CONSTS.get(py).ok_or_else(|| PyValueError::new_err("VaxandisCore.bind was not called"))
}

/// An action of the core: a placement, a move (source, landing, the friendly stacks it
/// touches) or `swap`.
#[derive(Clone, Copy)]
enum Step<const N: usize> {
    Place(usize),
    Move(usize, usize, Bb<N>),
    Swap,
}

/// A position, its placement cells, whether the mover has a move and its height table as a
/// Python tuple, each found at the first question.
struct Pos<const N: usize> {
    g: Vaxandis<N>,
    cells: OnceLock<Bb<N>>,
    some: OnceLock<bool>,
    levels: OnceLock<Py<PyAny>>,
    /// The last `summary` asked: (ranks, the answer).
    summary: OnceLock<(usize, Py<PyAny>)>,
}

impl<const N: usize> Clone for Pos<N> {
    fn clone(&self) -> Pos<N> {
        let p = Pos::of(self.g.clone());
        if let Some(&c) = self.cells.get() {
            let _ = p.cells.set(c);
        }
        p
    }
}

impl<const N: usize> Pos<N> {
    fn of(g: Vaxandis<N>) -> Pos<N> {
        Pos { g, cells: OnceLock::new(), some: OnceLock::new(), levels: OnceLock::new(), summary: OnceLock::new() }
    }

    fn cells(&self) -> Bb<N> {
        *self.cells.get_or_init(|| self.g.cells())
    }

    /// Whether the mover has a legal move (stops at the first source with one).
    fn has_move(&self) -> bool {
        *self.some.get_or_init(|| self.g.st[self.g.to_move].iter().any(|s| !self.g.moves_from(s).is_empty()))
    }

    /// The winner when the game is over (state.py's `outcome`: the mover without an action loses).
    fn winner(&self) -> Option<usize> {
        let over = self.g.phase != Phase::Swap && self.cells().is_zero() && !self.has_move();
        over.then_some(1 - self.g.to_move)
    }

    fn after(&self, step: Step<N>) -> Pos<N> {
        let mut g = self.g.clone();
        match step {
            Step::Place(s) => g.place(s),
            Step::Move(src, dst, touched) => g.apply_move(src, dst, touched),
            Step::Swap => g.swap(),
        }
        Pos::of(g)
    }

    /// The stacks of each height, ascending.
    fn by_height(&self) -> BTreeMap<u32, Bb<N>> {
        let mut by: BTreeMap<u32, Bb<N>> = BTreeMap::new();
        for x in self.g.st[0].or(self.g.st[1]).iter() {
            by.entry(self.g.height[x]).or_default().set(x);
        }
        by
    }

    /// The height table as state.py's `levels`: ((height, bitboard int), ...) ascending.
    fn levels(&self, py: Python<'_>, c: &Consts) -> PyResult<Py<PyAny>> {
        once(py, &self.levels, || {
            let mut items = Vec::new();
            for (h, bb) in self.by_height() {
                items.push(PyTuple::new(py, [h.into_pyobject(py)?.into_any().unbind(), int(py, &c.from_bytes, bb)?])?);
            }
            Ok(PyTuple::new(py, items)?.into_any().unbind())
        })
    }

    /// The players' summary (`evaluation::vaxandis_summary`) with `ranks` tallest heights, kept
    /// for the first `ranks` asked.
    fn summary(&self, py: Python<'_>, ranks: usize) -> PyResult<Py<PyAny>> {
        if let Some((r, v)) = self.summary.get() {
            if *r == ranks {
                return Ok(v.clone_ref(py));
            }
        }
        let v = crate::evaluation::vaxandis_summary(&self.g, ranks).into_pyobject(py)?.into_any().unbind();
        let _ = self.summary.set((ranks, v.clone_ref(py)));
        Ok(v)
    }

    /// Every legal move of `colour`'s stacks: (source, bitboard of landing sites), sources
    /// without one left out.
    fn targets(&self, colour: usize) -> Vec<(usize, Bb<N>)> {
        let mut g = self.g.clone();
        g.to_move = colour;
        g.st[colour].iter().filter_map(|src| {
            let dsts = Bb::<N>::from_iter_bits(g.moves_from(src).into_iter().map(|(d, _)| d));
            dsts.any().then_some((src, dsts))
        }).collect()
    }

    /// Every legal action in state.py's order: `swap`, the placements, then the moves by
    /// source and landing (each in notation order).
    fn listed<'py>(&self, py: Python<'py>, c: &Consts) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let rank = &self.g.geo.rank;
        let mut out = Vec::new();
        if self.g.phase == Phase::Swap {
            out.push(c.swap_action.bind(py).clone());
        }
        let mut cells: Vec<usize> = self.cells().iter().collect();
        cells.sort_unstable_by_key(|&s| rank[s]);
        out.extend(cells.into_iter().map(|s| c.places[s].bind(py).clone()));
        let mut targets = self.targets(self.g.to_move);
        targets.sort_unstable_by_key(|&(src, _)| rank[src]);
        for (src, dsts) in targets {
            let mut dsts: Vec<usize> = dsts.iter().collect();
            dsts.sort_unstable_by_key(|&d| rank[d]);
            for d in dsts {
                out.push(c.move_object(py, src, d)?);
            }
        }
        Ok(out)
    }

    /// `step` as the Python action.
    fn object<'py>(py: Python<'py>, c: &Consts, step: Step<N>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match step {
            Step::Place(s) => c.places[s].bind(py).clone(),
            Step::Move(src, dst, _) => c.move_object(py, src, dst)?,
            Step::Swap => c.swap_action.bind(py).clone(),
        })
    }

    /// A uniformly random action (every placement, move and `swap` one choice) as a Python
    /// object and the position it leads to, None when there is none.
    fn draw<'py>(&self, py: Python<'py>, c: &Consts, rng: &mut Rng) -> PyResult<Option<(Bound<'py, PyAny>, Pos<N>)>> {
        let cells = self.cells();
        let moves = self.g.moves();
        let _ = self.some.set(!moves.is_empty());
        let swap = u32::from(self.g.phase == Phase::Swap);
        let total = cells.count() + moves.len() as u32 + swap;
        if total == 0 {
            return Ok(None);
        }
        let k = rng.below(total);
        let step = if k < cells.count() {
            Step::Place(cells.nth(k))
        } else if let Some(&(src, dst, touched)) = moves.get((k - cells.count()) as usize) {
            Step::Move(src, dst, touched)
        } else {
            Step::Swap
        };
        Ok(Some((Pos::object(py, c, step)?, self.after(step))))
    }

    /// The move src-dst when it is legal now, with the stacks it touches.
    fn move_of(&self, src: usize, dst: usize) -> Option<Step<N>> {
        let geo = self.g.geo;
        if !geo.is_site(src) || !geo.is_site(dst) {
            return None;
        }
        let (_, touched) = self.g.moves_from(src).into_iter().find(|&(d, _)| d == dst)?;
        Some(Step::Move(src, dst, touched))
    }

    /// The placement on `cell` when it is legal now.
    fn place_of(&self, cell: usize) -> Option<Step<N>> {
        (self.g.geo.is_site(cell) && self.cells().has(cell)).then_some(Step::Place(cell))
    }

    /// The action `text` names and its canonical token (`read_token`), None for any other token.
    fn read<'py>(&self, py: Python<'py>, c: &Consts, text: &str) -> PyResult<Option<(Bound<'py, PyAny>, String)>> {
        let Some((step, canonical)) = read_token(self.g.geo, text) else { return Ok(None) };
        Ok(Some((Pos::<N>::object(py, c, step)?, canonical)))
    }

    /// The position after the Python action `action`, None unless the core finds it legal.
    fn play(&self, c: &Consts, action: &Bound<'_, PyAny>) -> PyResult<Option<Pos<N>>> {
        let py = action.py();
        let kind = action.get_type();
        let step = if kind.is(&c.place_type) {
            match action.getattr(intern!(py, "cell"))?.extract::<usize>() {
                Ok(cell) => self.place_of(cell),
                Err(_) => None,
            }
        } else if kind.is(&c.move_type) {
            let src = action.getattr(intern!(py, "src"))?.extract::<usize>();
            let dst = action.getattr(intern!(py, "dst"))?.extract::<usize>();
            match (src, dst) {
                (Ok(src), Ok(dst)) => self.move_of(src, dst),
                _ => None,
            }
        } else if kind.is(&c.swap_type) {
            (self.g.phase == Phase::Swap).then_some(Step::Swap)
        } else {
            None
        };
        Ok(step.map(|s| self.after(s)))
    }
}

/// A token of a placement, a move or `swap` on `geo` (any case, blanks around): the action (a
/// move's touched stacks left empty: the token is not judged) and its canonical text; None
/// for any other token, well formed or not (engine/notation.py reads those, with their errors).
fn read_token<const N: usize>(geo: &Hexagon, token: &str) -> Option<(Step<N>, String)> {
    let t = token.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_lowercase();
    if t == "swap" {
        return Some((Step::Swap, t));
    }
    let Some((src, dst)) = t.split_once('-') else {
        let cell = site_named(geo, &t)?;
        return Some((Step::Place(cell), geo.name(cell)));
    };
    let (src, dst) = (site_named(geo, src)?, site_named(geo, dst)?);
    (src != dst).then(|| (Step::Move(src, dst, Bb::ZERO), format!("{}-{}", geo.name(src), geo.name(dst))))
}

sized_enum!(Sized, Pos);

macro_rules! each {
    ($s:expr, $p:ident => $body:expr) => {
        each_size!(Sized, $s, $p => $body)
    };
}

core_state!(
    /// A Vaxandis position (every phase); see the module docs.
    VaxandisCore, p, colour => p.g.st[colour]
);

#[pymethods]
impl VaxandisCore {
    /// The position of side `n` (`freeze_group`: freeze=group, else stack; `touch_path`:
    /// touch=path, else landing) with these stones and height table (little-endian bytes;
    /// `levels` (height, bitboard) pairs covering every stack once), colour `to_move` to move
    /// (0 black, 1 white), in `phase` (0 open, 1 swap, 2 play); `variant` is what `variant`
    /// answers.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(variant: Py<PyAny>, n: usize, freeze_group: bool, touch_path: bool, black: &[u8], white: &[u8],
           levels: Vec<(u32, Vec<u8>)>, to_move: usize, ply: u32, phase: u8) -> PyResult<VaxandisCore> {
        let geo = board(n)?;
        let g = make_sized!(Sized, n, N => Pos::of(input::vaxandis::<N>(geo, freeze_group, touch_path, black, white,
                                                                        levels, to_move, ply, phase)?));
        Ok(VaxandisCore::of(g, variant, None))
    }

    /// Hand the core the Python objects its states answer with: the two colours (black,
    /// white), the three phases (open, swap, play), the two ends by their winner (Black,
    /// White), one `Place` per site bit of the largest board, the classes `Place`, `Move`
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
        move_type: Py<PyAny>,
        swap_type: Py<PyAny>,
        swap_action: Py<PyAny>,
    ) -> PyResult<()> {
        let from_bytes = py.get_type::<pyo3::types::PyInt>().getattr("from_bytes")?.unbind();
        let _ = CONSTS.set(py, Consts {
            colours, phases, outcomes, places, place_type, move_type, swap_type, swap_action, from_bytes,
            moves: Mutex::new(HashMap::new()),
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

    /// Black's stacks as a bitboard (an int, built at the first read).
    #[getter]
    fn black(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 0)
    }

    /// White's stacks as a bitboard.
    #[getter]
    fn white(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.stones(py, 1)
    }

    /// The height table, state.py's `levels` ((height, bitboard int) pairs ascending by
    /// height; built at the first read).
    #[getter]
    fn levels(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&self.g, p => p.levels(py, c))
    }

    /// (side, freeze_group, touch_path, black, white, levels, to_move): the position as the
    /// core's `vaxandis_*` functions take it (little-endian bytes, the colour by number).
    #[allow(clippy::type_complexity)]
    fn core_args<'py>(&self, py: Python<'py>)
        -> (usize, bool, bool, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Vec<(u32, Bound<'py, PyBytes>)>, usize) {
        each!(&self.g, p => (p.g.geo.n, p.g.freeze_group, p.g.touch_path, super::out(py, p.g.st[0]),
                             super::out(py, p.g.st[1]),
                             p.by_height().into_iter().map(|(h, bb)| (h, super::out(py, bb))).collect(), p.g.to_move))
    }

    /// None while the game goes on, else the bound end by its winner.
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match each!(&self.g, p => p.winner()) {
            None => py.None(),
            Some(w) => consts(py)?.outcomes[w].clone_ref(py),
        })
    }

    /// Bitboard (an int) of the placement cells: empty sites with no stack adjacent.
    fn legal_cells(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let c = consts(py)?;
        each!(&self.g, p => int(py, &c.from_bytes, p.cells()))
    }

    /// (Black's frozen stacks, White's, the `ranks` tallest heights of each, the actions each
    /// would have): the players' summary (engine/games/vaxandis/summary.py), made in the core.
    fn summary(&self, py: Python<'_>, ranks: usize) -> PyResult<Py<PyAny>> {
        each!(&self.g, p => p.summary(py, ranks))
    }

    /// Every legal action in state.py's `legal_actions` order (shared `Place`s, `Move`s and `swap`).
    fn legal_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let c = consts(py)?;
        PyList::new(py, each!(&self.g, p => p.listed(py, c))?)
    }

    /// Whether the side to move has a legal move.
    fn has_move(&self) -> bool {
        each!(&self.g, p => p.has_move())
    }

    /// The legal moves of `colour` (0 black, 1 white) whoever is to move: (source, bitboard
    /// int of landing sites) by source bit, sources without a move left out.
    fn moves_of<'py>(&self, py: Python<'py>, colour: usize) -> PyResult<Bound<'py, PyList>> {
        let colour = input::colour(colour)?;
        let c = consts(py)?;
        let mut out: Vec<Bound<'py, PyAny>> = Vec::new();
        each!(&self.g, p => {
            for (src, dsts) in p.targets(colour) {
                out.push(PyTuple::new(py, [src.into_pyobject(py)?.into_any().unbind(), int(py, &c.from_bytes, dsts)?])?
                    .into_any());
            }
        });
        PyList::new(py, out)
    }

    /// (action, canonical token) of `token` (GameState.read): a placement (a shared `Place`),
    /// a move or `swap` read in the core, any other token by `_read_python` (the Python
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
            Some((action, canonical)) => {
                Ok(PyTuple::new(py, [action, PyString::new(py, &canonical).into_any()])?.into_any())
            }
            None => slf.call_method1(intern!(py, "_read_python"), (token,)),
        }
    }

    /// A uniformly random legal action (each placement, move and `swap` one choice), drawn in
    /// the core (held.rs); the state it leads to is kept for `play`. ValueError when the game
    /// is over.
    fn random_action<'py>(slf: &Bound<'py, Self>, rng: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        draw_kept(&me.draws, rng, "the game is over", |r| Ok(rewrap_size!(Sized, &me.g, p => p.draw(py, c, r)?, pair)),
                  |g, stream| VaxandisCore::child(slf, g, stream))
    }

    /// The state after `action`: the state `random_action` kept for it, a legal placement,
    /// move or `swap` played in the core, else what `_play_python` answers (IllegalMove with
    /// the Python rules' reason for anything they forbid).
    fn play<'py>(slf: &Bound<'py, Self>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = consts(py)?;
        play_kept(slf.as_any(), &me.draws, action, || {
            rewrap_size!(Sized, &me.g, p => p.play(c, action)?).map(|g| VaxandisCore::child(slf, g, None)).transpose()
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VaxandisCore>()
}
