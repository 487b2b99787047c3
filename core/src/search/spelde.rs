//! Spelde as the compiled MCTS sees it: every phase (the pie stone, `swap`, play) and flip
//! rule, the end (the mover without a placement loses), the ply cap (state.py `ply_cap`, a
//! draw there), and the leaf evaluation of players/games/spelde.py: mobility by the open
//! sites, squashed by SCALE (StaticEvaluation, the same values).

use std::sync::OnceLock;

use super::common::{outcome_value, squash};
use super::game::{Colour, SearchGame};
use crate::bitboard::Bb;
use crate::rng::Rng;
use crate::spelde::{cached_path_sets, bad_stones, Action, Phase, Rule, Sets, Spelde};

/// players/games/spelde.py's SCALE.
const SCALE: f64 = 3.0;

/// A Spelde state with its ply cap and its legal cells (computed once, when first asked: a
/// `OnceLock`, so that several threads may read one state at once).
#[derive(Clone)]
pub struct Game<const N: usize> {
    pub g: Spelde<N>,
    pub cap: u32,
    cells: OnceLock<Bb<N>>,
}

impl<const N: usize> PartialEq for Game<N> {
    fn eq(&self, o: &Self) -> bool {
        let (a, b) = (&self.g, &o.g);
        std::ptr::eq(a.geo, b.geo) && a.rule == b.rule && a.st == b.st && a.to_move == b.to_move && a.ply == b.ply
            && a.phase == b.phase
    }
}

/// The referee's default cap: sites + 2 (state.py `ply_cap`).
pub fn ply_cap(sites: usize) -> u32 {
    sites as u32 + 2
}

impl<const N: usize> Game<N> {
    pub fn new(g: Spelde<N>) -> Game<N> {
        let cap = ply_cap(g.geo.sites.len());
        Game { g, cap, cells: OnceLock::new() }
    }

    /// The mover's legal placement cells.
    pub fn cells(&self) -> Bb<N> {
        *self.cells.get_or_init(|| self.g.legal_cells())
    }

    /// Black's advantage by players/games/spelde.py's `evaluate`: Black's open sites minus
    /// White's, plus the sites open to Black alone minus those open to White alone.
    pub fn score(&self) -> f64 {
        let (geo, st) = (self.g.geo, self.g.st);
        let empty = geo.mask::<N>().andnot(st[0].or(st[1]));
        let open = |enemy: Bb<N>| empty.andnot(bad_stones(geo.width, enemy).grow(geo.width));
        let (ob, ow) = (open(st[1]), open(st[0]));
        let diff = |a: Bb<N>, b: Bb<N>| a.count() as i64 - b.count() as i64;
        (diff(ob, ow) + diff(ob.andnot(ow), ow.andnot(ob))) as f64
    }

    /// The valid flip sets of each enemy group adjacent to `cell` under a path rule.
    fn path_options(&self, cell: usize) -> Vec<Sets> {
        let g = &self.g;
        g.adjacent_groups(cell).into_iter().map(|group| cached_path_sets(g.geo, g.rule, group, g.starts(group, cell)))
            .collect()
    }
}

/// Every union of `acc` and one set of each of `options`, placed on `cell`, appended to `out`.
fn product<const N: usize>(cell: usize, options: &[Sets], acc: Bb<N>, out: &mut Vec<Action<N>>) {
    let Some((first, rest)) = options.split_first() else {
        out.push(Action::Place(cell, acc));
        return;
    };
    for words in first.iter() {
        let mut f = Bb::<N>::ZERO;
        f.0.copy_from_slice(words);
        product(cell, rest, acc.or(f), out);
    }
}

impl<const N: usize> SearchGame for Game<N> {
    type Action = Action<N>;

    fn to_move(&self) -> Colour {
        self.g.to_move
    }

    fn ply(&self) -> u32 {
        self.g.ply
    }

    fn outcome(&self) -> Option<Option<Colour>> {
        if self.g.phase != Phase::Swap && self.cells().is_zero() {
            Some(Some(1 - self.g.to_move))
        } else if self.g.ply >= self.cap {
            Some(None)
        } else {
            None
        }
    }

    fn list(&self, cap: usize, out: &mut Vec<Action<N>>) -> bool {
        out.clear();
        if self.g.phase == Phase::Swap {
            out.push(Action::Swap);
        }
        let cells = self.cells();
        if out.len() + cells.count() as usize > cap {
            return false;
        }
        if self.g.rule == Rule::Literal {
            let room = cap - out.len();
            let placed = self.g.literal_actions(room + 1);
            if placed.len() > room {
                return false;
            }
            out.extend(placed.into_iter().map(|(c, f)| Action::Place(c, f)));
            return true;
        }
        for c in cells.iter() {
            let options = self.path_options(c);
            let count = options.iter().fold(1usize, |n, o| n.saturating_mul(o.len()));
            if out.len().saturating_add(count) > cap {
                return false;
            }
            product(c, &options, Bb::ZERO, out);
        }
        true
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Action<N>> {
        self.g.random_action(rng)
    }

    fn legal_cell_count(&self) -> u32 {
        self.cells().count()
    }

    fn play(&self, action: Action<N>) -> Option<Game<N>> {
        let g = &self.g;
        match action {
            Action::Swap if g.phase != Phase::Swap => return None,
            Action::Swap => {}
            Action::Place(c, named) => {
                if c >= g.geo.bits() || !self.cells().has(c) {
                    return None;
                }
                let mut covered = Bb::<N>::ZERO;
                for group in g.adjacent_groups(c) {
                    let part = named.and(group);
                    if !g.is_valid(group, part, c) {
                        return None;
                    }
                    covered = covered.or(part);
                }
                if !named.within(&covered) {
                    return None;
                }
            }
        }
        let mut next = g.clone();
        next.apply(action);
        Some(Game::new(next))
    }

    fn is_swap(action: Action<N>) -> bool {
        action == Action::Swap
    }

    fn evaluate(&self, _searcher: Colour, _rng: &mut Rng, _trace: Option<&mut Vec<(Colour, Action<N>)>>) -> f64 {
        match self.outcome() {
            Some(winner) => outcome_value(winner),
            None => squash(self.score(), SCALE),
        }
    }

    fn notation(&self, action: Action<N>) -> String {
        let geo = self.g.geo;
        match action {
            Action::Swap => "swap".to_string(),
            Action::Place(c, flips) if flips.is_zero() => geo.name(c),
            Action::Place(c, flips) => {
                let mut stones: Vec<usize> = flips.iter().collect();
                stones.sort_by_key(|&x| geo.rank[x]);
                let names: Vec<String> = stones.into_iter().map(|x| geo.name(x)).collect();
                format!("{}/{}", geo.name(c), names.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests;
