//! Spelde (docs/rules/spelde.md): placements that split the adjacent enemy groups by
//! flipping some of their stones. Legal cells, the check and effect of an action, uniformly
//! random actions and playouts. `engine/games/spelde/` (state.py, flips.py) is the
//! specification; the differential test holds this to it.

use std::cell::RefCell;
use std::rc::Rc;
use std::collections::{HashMap, HashSet};

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::rng::Rng;

/// Rejection-sampling tries before a literal flip set is drawn from the full list.
pub const SAMPLE_TRIES: u32 = 256;
/// Search states explored for path-shaped flip sets of one group (dense, standard).
pub const PATH_BUDGET: usize = 3_000;
/// Entries of the per-thread cache of "has a path-shaped flip set" before it is emptied.
const CACHE_LIMIT: usize = 1 << 16;
/// Flip sets held by the per-thread cache of path-shaped flip sets before it is emptied.
const SETS_LIMIT: usize = 1 << 20;

/// The `flips=` option.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rule {
    Literal,
    Dense,
    Standard,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Open,
    Swap,
    Play,
}

/// An action: a placement on `cell` flipping `flips` (empty: a plain placement), or `swap`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action<const N: usize> {
    Place(usize, Bb<N>),
    Swap,
}

/// A cache key: the board side, the rule, a group's words and the words of where its paths
/// may begin (the same bits are other sites on another board).
type Key = (usize, Rule, Vec<u64>, Vec<u64>);
/// Flip sets as their words.
pub(crate) type Sets = Rc<Vec<Vec<u64>>>;

thread_local! {
    /// (side, rule, group, starts) -> whether a path-shaped flip set exists, as flips.py's lru_cache.
    static HAS_PATH: RefCell<HashMap<Key, bool>> = RefCell::new(HashMap::new());
    /// (side, rule, group, starts) -> every path-shaped flip set (as words), and the sets held in all.
    static PATHS: RefCell<(HashMap<Key, Sets>, usize)> =
        RefCell::new((HashMap::new(), 0));
}

/// Whether the group minus the flipped stones has at least two connected parts.
#[inline]
pub fn splits<const N: usize>(w: usize, group: Bb<N>, flips: Bb<N>) -> bool {
    let rest = group.andnot(flips);
    rest.any() && Bb::bit(rest.lowest()).flood(rest, w) != rest
}

/// The stones of groups no flip set can split: singletons, pairs and triangles (flips.py's
/// bit-parallel count of each stone's friendly neighbours per direction).
pub fn bad_stones<const N: usize>(w: usize, stones: Bb<N>) -> Bb<N> {
    let (h0, h1, h2) = (stones.and(stones.down(1)), stones.and(stones.down(w + 1)), stones.and(stones.down(w)));
    let has = [h0, h1, h2, h0.up(1), h1.up(w + 1), h2.up(w)];
    let (mut one, mut two, mut three) = (Bb::<N>::ZERO, Bb::<N>::ZERO, Bb::<N>::ZERO);
    for h in has {
        three = three.or(two.and(h));
        two = two.or(one.and(h));
        one = one.or(h);
    }
    let mut bad = stones.andnot(one);
    let back = |e: Bb<N>| [e.down(1), e.down(w + 1), e.down(w), e.up(1), e.up(w + 1), e.up(w)];
    let exactly1 = one.andnot(two);
    if exactly1.any() {
        let b = back(exactly1);
        for d in 0..6 {
            bad = bad.or(exactly1.and(has[d]).and(b[d]));
        }
    }
    let exactly2 = two.andnot(three);
    if exactly2.any() {
        let b = back(exactly2);
        for d in 0..6 {
            let e = (d + 1) % 6;
            bad = bad.or(exactly2.and(has[d]).and(has[e]).and(b[d]).and(b[e]));
        }
    }
    bad
}

/// The valid path-shaped flip sets (`dense`, `standard`) of `group`, paths beginning in
/// `starts`: breadth first over (stones, last stone) states, whole levels while fewer than
/// PATH_BUDGET states were explored (as flips.py); `first`: stop at the first found.
pub fn path_sets<const N: usize>(geo: &Hexagon, rule: Rule, group: Bb<N>, starts: Bb<N>, first: bool) -> Vec<Bb<N>> {
    let w = geo.width;
    let standard = rule == Rule::Standard;
    let mut frontier: Vec<(Bb<N>, usize)> = starts.and(group).iter().map(|s| (Bb::bit(s), s)).collect();
    let mut found: HashSet<Bb<N>> = HashSet::new();
    let mut out = Vec::new();
    let mut visited = 0;
    while !frontier.is_empty() && visited < PATH_BUDGET {
        let mut grown: HashSet<(Bb<N>, usize)> = HashSet::new();
        for &(path, last) in &frontier {
            visited += 1;
            if found.contains(&path) {
                if standard {
                    continue;
                }
            } else if splits(w, group, path) {
                found.insert(path);
                out.push(path);
                if first {
                    return out;
                }
                if standard {
                    continue; // the splitting flip is the last one
                }
            }
            for t in geo.nbr::<N>(last).and(group).andnot(path).iter() {
                let mut p = path;
                p.set(t);
                grown.insert((p, t));
            }
        }
        // in a fixed order (a HashSet's is the process's own): the flip sets are listed, and a
        // seeded random action drawn, alike in every process
        frontier = grown.into_iter().collect();
        frontier.sort_unstable_by_key(|a| (a.0 .0, a.1));
    }
    out
}

fn has_path_set<const N: usize>(geo: &Hexagon, rule: Rule, group: Bb<N>, starts: Bb<N>) -> bool {
    let key = (geo.n, rule, group.0.to_vec(), starts.0.to_vec());
    // try_with: after the thread's thread-locals are destroyed (a C caller's atexit handler),
    // the answer is computed without the cache
    if let Ok(Some(known)) = HAS_PATH.try_with(|c| c.borrow().get(&key).copied()) {
        return known;
    }
    let has = !path_sets(geo, rule, group, starts, true).is_empty();
    let _ = HAS_PATH.try_with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(key, has);
    });
    has
}

/// Every path-shaped flip set of `group` from `starts` (as `path_sets`), cached per thread.
pub(crate) fn cached_path_sets<const N: usize>(geo: &Hexagon, rule: Rule, group: Bb<N>, starts: Bb<N>) -> Sets {
    let key = (geo.n, rule, group.0.to_vec(), starts.0.to_vec());
    if let Ok(Some(known)) = PATHS.try_with(|c| c.borrow().0.get(&key).cloned()) {
        return known;
    }
    let sets: Sets = Rc::new(path_sets(geo, rule, group, starts, false).iter().map(|f| f.0.to_vec()).collect());
    let _ = PATHS.try_with(|c| {
        let mut c = c.borrow_mut();
        if c.1 + sets.len() > SETS_LIMIT {
            c.0.clear();
            c.1 = 0;
        }
        c.1 += sets.len();
        c.0.insert(key, sets.clone());
    });
    sets
}

/// The next subset of `group` below `sub` in descending order: `(sub - 1) & group`, the
/// subtraction across the words (flips.py's `_subsets`); empty after the last.
fn below<const N: usize>(sub: Bb<N>, group: Bb<N>) -> Bb<N> {
    let mut r = sub;
    for w in r.0.iter_mut() {
        let borrow = *w == 0;
        *w = w.wrapping_sub(1);
        if !borrow {
            break;
        }
    }
    r.and(group)
}

#[derive(Clone)]
pub struct Spelde<const N: usize> {
    pub geo: &'static Hexagon,
    pub rule: Rule,
    pub st: [Bb<N>; 2],
    pub to_move: usize,
    pub ply: u32,
    pub phase: Phase,
}

impl<const N: usize> Spelde<N> {
    fn expand(&self, bb: Bb<N>) -> Bb<N> {
        bb.grow(self.geo.width).and(self.geo.mask::<N>())
    }

    pub(crate) fn starts(&self, group: Bb<N>, placed: usize) -> Bb<N> {
        if self.rule == Rule::Standard {
            self.geo.nbr::<N>(placed).and(group)
        } else {
            group
        }
    }

    /// The enemy groups touching `cell`, each once, in flood order from the lowest stone.
    pub fn adjacent_groups(&self, cell: usize) -> Vec<Bb<N>> {
        let enemy = self.st[1 - self.to_move];
        let mut touching = self.geo.nbr::<N>(cell).and(enemy);
        let mut out = Vec::new();
        while touching.any() {
            let g = Bb::bit(touching.lowest()).flood(enemy, self.geo.width);
            touching = touching.andnot(g);
            out.push(g);
        }
        out
    }

    /// Whether `group` has a valid flip set for a stone placed on `placed`.
    pub fn can_split(&self, group: Bb<N>, placed: usize) -> bool {
        match self.rule {
            Rule::Literal => bad_stones(self.geo.width, group).is_zero(),
            rule => has_path_set(self.geo, rule, group, self.starts(group, placed)),
        }
    }

    /// The mover's legal placement cells.
    pub fn legal_cells(&self) -> Bb<N> {
        let enemy = self.st[1 - self.to_move];
        let empty = self.geo.mask::<N>().andnot(self.st[0].or(self.st[1]));
        let mut cells = empty.andnot(self.expand(bad_stones(self.geo.width, enemy)));
        if self.rule != Rule::Literal {
            let touching = cells.and(enemy.grow(self.geo.width));
            for c in touching.iter() {
                if !self.adjacent_groups(c).into_iter().all(|g| self.can_split(g, c)) {
                    cells.clear(c);
                }
            }
        }
        cells
    }

    /// The winner when the game is over: the mover without a placement (and no pie decision) loses.
    pub fn winner(&self) -> Option<usize> {
        if self.phase == Phase::Swap || self.legal_cells().any() {
            return None;
        }
        Some(1 - self.to_move)
    }

    /// Whether `flips` (within `group`) is a valid flip set of it for a stone on `placed`.
    pub fn is_valid(&self, group: Bb<N>, flips: Bb<N>, placed: usize) -> bool {
        if flips.is_zero() || !flips.within(&group) || !splits(self.geo.width, group, flips) {
            return false;
        }
        match self.rule {
            Rule::Literal => true,
            rule => cached_path_sets(self.geo, rule, group, self.starts(group, placed)).iter().any(|f| f[..] == flips.0[..]),
        }
    }

    /// Whether placing on `cell` (a site) and flipping `named` is legal now (state.py's `_check`).
    pub fn allows(&self, cell: usize, named: Bb<N>) -> bool {
        !self.st[0].or(self.st[1]).has(cell) && self.winner().is_none() && self.splits_all(cell, named)
    }

    /// Whether `named` holds one valid flip set of each enemy group touching `cell` and
    /// nothing else (the part of `allows` after the site and the game's end).
    pub fn splits_all(&self, cell: usize, named: Bb<N>) -> bool {
        let mut covered = Bb::<N>::ZERO;
        for g in self.adjacent_groups(cell) {
            let part = named.and(g);
            if !self.is_valid(g, part, cell) {
                return false;
            }
            covered = covered.or(part);
        }
        named.within(&covered)
    }

    /// Play a legal action.
    pub fn apply(&mut self, action: Action<N>) {
        match action {
            Action::Swap => self.phase = Phase::Play,
            Action::Place(cell, flips) => {
                let me = self.to_move;
                self.st[me] = self.st[me].or(flips);
                self.st[me].set(cell);
                self.st[1 - me] = self.st[1 - me].andnot(flips);
                self.phase = if self.phase == Phase::Open { Phase::Swap } else { Phase::Play };
                self.to_move = 1 - me;
            }
        }
        self.ply = self.ply.saturating_add(1);
    }

    /// Every valid literal flip set of `group`, in flips.py's order (descending subsets).
    pub fn literal_sets(&self, group: Bb<N>) -> Vec<Bb<N>> {
        let mut out = Vec::new();
        let mut f = group;
        while f.any() {
            if splits(self.geo.width, group, f) {
                out.push(f);
            }
            f = below(f, group);
        }
        out
    }

    /// The first `limit` legal placements under `flips=literal` (no `swap`), in state.py's
    /// order: cells in notation order, then one valid flip set per adjacent group, the first
    /// group's outermost, each group's sets in descending order (flips.py); generated lazily.
    pub fn literal_actions(&self, limit: usize) -> Vec<(usize, Bb<N>)> {
        let cells = self.legal_cells();
        let mut out = Vec::new();
        for &c in &self.geo.sites {
            if out.len() >= limit {
                break;
            }
            if cells.has(c) {
                self.product(c, &self.adjacent_groups(c), Bb::ZERO, limit, &mut out);
            }
        }
        out
    }

    /// Every union of `acc` and one valid literal flip set per group of `groups`, appended to
    /// `out` in order until it holds `limit`; false when it is full.
    fn product(&self, c: usize, groups: &[Bb<N>], acc: Bb<N>, limit: usize, out: &mut Vec<(usize, Bb<N>)>) -> bool {
        let Some((&group, rest)) = groups.split_first() else {
            out.push((c, acc));
            return out.len() < limit;
        };
        let mut f = group;
        while f.any() {
            if splits(self.geo.width, group, f) && !self.product(c, rest, acc.or(f), limit, out) {
                return false;
            }
            f = below(f, group);
        }
        true
    }

    /// A uniformly random valid flip set of `group` (which has one).
    pub fn random_flip_set(&self, group: Bb<N>, placed: usize, rng: &mut Rng) -> Bb<N> {
        match self.rule {
            Rule::Literal => {
                for _ in 0..SAMPLE_TRIES {
                    let mut f = group;
                    for word in f.0.iter_mut() {
                        if *word != 0 {
                            *word &= rng.next_u64();
                        }
                    }
                    if f.any() && splits(self.geo.width, group, f) {
                        return f;
                    }
                }
                let options = self.literal_sets(group);
                options[rng.below(options.len() as u32) as usize]
            }
            rule => {
                let options = cached_path_sets(self.geo, rule, group, self.starts(group, placed));
                let mut f = Bb::<N>::ZERO;
                f.0.copy_from_slice(&options[rng.below(options.len() as u32) as usize]);
                f
            }
        }
    }

    /// A uniform legal cell (or `swap`, one more choice), then a uniform valid flip set of
    /// each adjacent group; None when the mover has no action.
    pub fn random_action(&self, rng: &mut Rng) -> Option<Action<N>> {
        self.random_action_in(self.legal_cells(), rng)
    }

    /// `random_action` given the legal cells (`legal_cells`' answer).
    pub fn random_action_in(&self, cells: Bb<N>, rng: &mut Rng) -> Option<Action<N>> {
        let count = cells.count();
        let swap = u32::from(self.phase == Phase::Swap);
        if count + swap == 0 {
            return None;
        }
        let k = rng.below(count + swap);
        if k == count {
            return Some(Action::Swap);
        }
        let c = cells.nth(k);
        let mut flips = Bb::<N>::ZERO;
        for g in self.adjacent_groups(c) {
            flips = flips.or(self.random_flip_set(g, c, rng));
        }
        Some(Action::Place(c, flips))
    }

    /// Random actions until the mover has none (it loses) or the ply reaches `cap`:
    /// (the winner, if the game ended, and the swaps played).
    pub fn playout(&mut self, cap: u32, rng: &mut Rng) -> (Option<usize>, u32) {
        let mut swaps = 0;
        loop {
            if self.ply >= cap {
                return (self.winner(), swaps);
            }
            match self.random_action(rng) {
                None => return (Some(1 - self.to_move), swaps),
                Some(a) => {
                    swaps += u32::from(a == Action::Swap);
                    self.apply(a);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
