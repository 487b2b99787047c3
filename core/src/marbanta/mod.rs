//! Marbanta (RULES.md section 6, docs/rules/marbanta.md): line of sight, new groups of
//! N stones, the pie stones, the misère end; legal roots and uniformly random playouts.
//! `engine/games/marbanta/` is the specification (`moves.py`, `sample.py`, `state.py`);
//! the differential test holds this module to it.

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::rng::Rng;

/// Leaves the exact group sampler may count before it hands over to the Markov chain
/// (sample.py's EXACT_BUDGET).
const EXACT_BUDGET: i64 = 50_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Pie,
    Swap,
    Play,
}

#[derive(Clone)]
pub struct Marbanta<const N: usize> {
    pub geo: &'static Hexagon,
    /// Balance `pie` (else `nopie`).
    pub pie: bool,
    pub st: [Bb<N>; 2],
    pub to_move: usize,
    pub ply: u32,
    pub phase: Phase,
    /// Group index of every stone, and the groups (a turn's new group never merges with
    /// another; the pie's stones may, on a set position, and `apply` regroups then).
    gid: Vec<u16>,
    groups: Vec<Bb<N>>,
}

impl<const N: usize> Marbanta<N> {
    pub fn new(geo: &'static Hexagon, pie: bool, st: [Bb<N>; 2], to_move: usize, ply: u32, phase: Phase) -> Self {
        let mut g = Marbanta { geo, pie, st, to_move, ply, phase, gid: vec![0; geo.bits()], groups: Vec::new() };
        for stones in st {
            let mut rest = stones;
            while rest.any() {
                let comp = Bb::bit(rest.lowest()).flood(stones, geo.width);
                rest = rest.andnot(comp);
                g.add_group(comp);
            }
        }
        g
    }

    fn add_group(&mut self, group: Bb<N>) {
        let id = self.groups.len() as u16;
        self.groups.push(group);
        for x in group.iter() {
            self.gid[x] = id;
        }
    }

    fn empty(&self) -> Bb<N> {
        self.geo.mask::<N>().andnot(self.st[0].or(self.st[1]))
    }

    /// Empty sites not adjacent to a stone of the mover: the only sites a new group may use.
    pub fn free(&self) -> Bb<N> {
        let (own, enemy) = (self.st[self.to_move], self.st[1 - self.to_move]);
        self.geo.mask::<N>().andnot(own.grow(self.geo.width)).andnot(enemy)
    }

    /// Every site that sees a stone of the mover (occluded fills through non-enemy sites).
    pub fn sighted(&self) -> Bb<N> {
        let (own, enemy) = (self.st[self.to_move], self.st[1 - self.to_move]);
        let open = self.geo.mask::<N>().andnot(enemy);
        let w = self.geo.width;
        let mut out = Bb::ZERO;
        for step in [1, w, w + 1] {
            for up in [true, false] {
                let shift = |b: Bb<N>, k: usize| if up { b.up(k) } else { b.down(k) };
                let (mut g, mut p, mut k) = (own, open, step);
                for _ in 0..4 {
                    g = g.or(p.and(shift(g, k)));
                    p = p.and(shift(p, k));
                    k <<= 1;
                }
                out = out.or(g).or(p.and(shift(g, k)));
            }
        }
        out.andnot(own)
    }

    /// N(r): the distinct groups of the mover with a stone seen from site r.
    pub fn groups_seen(&self, r: usize) -> u32 {
        let (own, enemy) = (self.st[self.to_move], self.st[1 - self.to_move]);
        let mut seen = Bb::<N>::ZERO;
        for d in 0..6 {
            let mut x = self.geo.ring[r][d];
            while let Some(s) = x {
                if enemy.has(s) {
                    break;
                }
                seen.set(s);
                x = self.geo.ring[s][d];
            }
        }
        let mut seen = seen.and(own);
        let mut n = 0;
        while seen.any() {
            seen = seen.andnot(self.groups[self.gid[seen.lowest()] as usize]);
            n += 1;
        }
        n
    }

    fn has_room(&self, free: Bb<N>, r: usize, need: u32) -> bool {
        let mut cur = Bb::bit(r);
        while cur.count() < need {
            let nxt = cur.grow(self.geo.width).and(free);
            if nxt == cur {
                return false;
            }
            cur = nxt;
        }
        true
    }

    /// N(r) when r (a free site) is a legal root, else 0.
    pub fn root_size(&self, free: Bb<N>, r: usize) -> u32 {
        let n = self.groups_seen(r);
        if n > 0 && self.has_room(free, r, n) {
            n
        } else {
            0
        }
    }

    /// Every legal root with its N, in bit order (phase play).
    pub fn roots(&self) -> Vec<(usize, u32)> {
        let free = self.free();
        free.and(self.sighted())
            .iter()
            .filter_map(|r| {
                let n = self.root_size(free, r);
                (n > 0).then_some((r, n))
            })
            .collect()
    }

    /// The first `limit` new groups of the mover's turn (phase play), in state.py's order: the
    /// roots in notation order, each root's groups as moves.py's `new_groups` yields them.
    pub fn groups(&self, limit: usize) -> Vec<(usize, Bb<N>)> {
        let free = self.free();
        let mut roots = self.roots();
        roots.sort_by_key(|&(r, _)| self.geo.rank[r]);
        let mut out = Vec::new();
        for (r, k) in roots {
            if out.len() >= limit {
                break;
            }
            if k == 1 {
                out.push((r, Bb::bit(r)));
                continue;
            }
            let start = self.geo.nbr::<N>(r).and(free);
            grow_groups(self.geo, free, Bb::bit(r), start, start.or(Bb::bit(r)), k - 1, &mut |g| {
                out.push((r, g));
                out.len() < limit
            });
        }
        out.truncate(limit);
        out
    }

    /// Whether the mover has a legal turn (else, in phases pie and play, the mover wins).
    pub fn has_turn(&self) -> bool {
        match self.phase {
            Phase::Pie => self.empty().count() >= 2,
            Phase::Swap => true,
            Phase::Play => {
                let free = self.free();
                free.and(self.sighted()).iter().any(|r| self.root_size(free, r) > 0)
            }
        }
    }

    fn put(&mut self, c: usize, group: Bb<N>) {
        self.st[c] = self.st[c].or(group);
        self.add_group(group);
    }

    /// One uniformly random action (state.py's random_action distribution); false when the
    /// mover has none. `swaps` counts the swaps played.
    pub fn random_step(&mut self, rng: &mut Rng, swaps: &mut u32) -> bool {
        self.step(rng, swaps).is_some()
    }

    /// `random_step`, telling the action played (None when the mover has none).
    pub fn step(&mut self, rng: &mut Rng, swaps: &mut u32) -> Option<Played<N>> {
        let played = self.draw(rng)?;
        *swaps += u32::from(played == Played::Swap(true));
        self.apply(played);
        Some(played)
    }

    /// One uniformly random action (state.py's random_action distribution), not played; None
    /// when the mover has none.
    pub fn draw(&self, rng: &mut Rng) -> Option<Played<N>> {
        match self.phase {
            Phase::Pie => {
                let empty = self.empty();
                let k = empty.count();
                if k < 2 {
                    return None;
                }
                let b = empty.nth(rng.below(k));
                let w = empty.andnot(Bb::bit(b));
                Some(Played::Pie(b, w.nth(rng.below(k - 1))))
            }
            Phase::Swap => Some(Played::Swap(rng.below(2) == 1)),
            Phase::Play => {
                let free = self.free();
                let mut cand = free.and(self.sighted());
                loop {
                    let k = cand.count();
                    if k == 0 {
                        return None;
                    }
                    let r = cand.nth(rng.below(k));
                    let n = self.root_size(free, r);
                    if n > 0 {
                        return Some(Played::Group(r, sample_group(self.geo, free, r, n, rng)));
                    }
                    cand.clear(r);
                }
            }
        }
    }

    /// Play a legal action.
    pub fn apply(&mut self, played: Played<N>) {
        match played {
            Played::Pie(b, w) => {
                // on a set position a pie stone may join a group of its colour: regroup
                let st = [self.st[0].or(Bb::bit(b)), self.st[1].or(Bb::bit(w))];
                let fresh = Self::new(self.geo, self.pie, st, self.to_move, self.ply, self.phase);
                (self.st, self.gid, self.groups) = (fresh.st, fresh.gid, fresh.groups);
                self.phase = if self.pie { Phase::Swap } else { Phase::Play };
                self.to_move = if self.pie { 1 } else { 0 };
            }
            Played::Swap(_) => {
                self.phase = Phase::Play;
                self.to_move = 0;
            }
            Played::Group(_, group) => {
                self.put(self.to_move, group);
                self.to_move = 1 - self.to_move;
            }
        }
        self.ply = self.ply.saturating_add(1);
    }

    /// Random actions until the mover has no turn (it wins) or the ply reaches `cap`:
    /// (the winner, if the game ended, and the swaps played).
    pub fn playout(&mut self, cap: u32, rng: &mut Rng) -> (Option<usize>, u32) {
        self.playout_seen(cap, rng, |_, _| {})
    }

    /// `playout`, each action played pushed onto `trace` with its mover (0 black, 1 white).
    pub fn traced_playout(&mut self, cap: u32, rng: &mut Rng, trace: &mut Vec<(usize, Played<N>)>)
                          -> (Option<usize>, u32) {
        self.playout_seen(cap, rng, |mover, played| trace.push((mover, played)))
    }

    fn playout_seen(&mut self, cap: u32, rng: &mut Rng, mut seen: impl FnMut(usize, Played<N>))
                    -> (Option<usize>, u32) {
        let mut swaps = 0;
        loop {
            if self.ply >= cap {
                let end = (self.phase != Phase::Swap && !self.has_turn()).then_some(self.to_move);
                return (end, swaps);
            }
            let mover = self.to_move;
            match self.step(rng, &mut swaps) {
                Some(played) => seen(mover, played),
                None => return (Some(self.to_move), swaps),
            }
        }
    }
}

/// An action a random step played: the pie stones (black's site, white's), the swap
/// decision (true: `swap`, false: `keep`), or a new group (its root, every stone of it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Played<const N: usize> {
    Pie(usize, usize),
    Swap(bool),
    Group(usize, Bb<N>),
}

/// moves.py's `_grow`: each connected extension of `cur` by `left` sites (Redelmeier's
/// enumeration), handed to `keep` in order until it answers false; false then.
fn grow_groups<const N: usize>(geo: &Hexagon, free: Bb<N>, cur: Bb<N>, mut untried: Bb<N>, seen: Bb<N>, left: u32,
                               keep: &mut impl FnMut(Bb<N>) -> bool) -> bool {
    while untried.any() {
        let x = untried.lowest();
        untried.clear(x);
        if left == 1 {
            if !keep(cur.or(Bb::bit(x))) {
                return false;
            }
            continue;
        }
        let nb = geo.nbr::<N>(x).and(free).andnot(seen);
        if !grow_groups(geo, free, cur.or(Bb::bit(x)), untried.or(nb), seen.or(nb), left - 1, keep) {
            return false;
        }
    }
    true
}

/// Leaves of the Redelmeier subtree (untried, seen) with `left` stones still to add;
/// `budget` is charged and None returned once it is spent.
fn count_leaves<const N: usize>(geo: &Hexagon, free: Bb<N>, mut untried: Bb<N>, seen: Bb<N>, left: u32,
                                budget: &mut i64) -> Option<i64> {
    if left == 1 {
        let c = untried.count() as i64;
        *budget -= c;
        return (*budget >= 0).then_some(c);
    }
    let mut total = 0;
    while untried.any() {
        let x = untried.lowest();
        untried.clear(x);
        let nb = geo.nbr::<N>(x).and(free).andnot(seen);
        total += count_leaves(geo, free, untried.or(nb), seen.or(nb), left - 1, budget)?;
    }
    Some(total)
}

/// A uniformly random connected set of k sites of `free` holding r (sample.py's
/// sample_group: exact by counting Redelmeier's tree, or the Markov chain past the budget).
pub fn sample_group<const N: usize>(geo: &Hexagon, free: Bb<N>, r: usize, k: u32, rng: &mut Rng) -> Bb<N> {
    let mut cur = Bb::bit(r);
    let mut untried = geo.nbr::<N>(r).and(free);
    let mut seen = untried.or(cur);
    let mut left = k - 1;
    let mut budget = EXACT_BUDGET;
    let mut first = true;
    while left > 1 {
        let mut branches: Vec<(i64, usize, Bb<N>, Bb<N>)> = Vec::new();
        let mut total = 0;
        let mut u = untried;
        while u.any() {
            let x = u.lowest();
            u.clear(x);
            let nb = geo.nbr::<N>(x).and(free).andnot(seen);
            let c = if first {
                match count_leaves(geo, free, u.or(nb), seen.or(nb), left - 1, &mut budget) {
                    Some(c) => c,
                    None => return chain_group(geo, free, r, k, rng),
                }
            } else {
                let mut unlimited = i64::MAX;
                count_leaves(geo, free, u.or(nb), seen.or(nb), left - 1, &mut unlimited).unwrap_or(0)
            };
            if c > 0 {
                total += c;
                branches.push((c, x, u.or(nb), seen.or(nb)));
            }
        }
        first = false;
        let mut pick = rng.below_u64(total as u64) as i64;
        for (c, x, un, se) in branches {
            if pick < c {
                cur.set(x);
                untried = un;
                seen = se;
                break;
            }
            pick -= c;
        }
        left -= 1;
    }
    if left == 1 {
        let x = untried.nth(rng.below(untried.count()));
        cur.set(x);
    }
    cur
}

/// An approximately uniform connected k-set of `free` holding r (sample.py's chain_group):
/// a breadth-first start, then Metropolis moves of one non-root stone to the free boundary.
pub fn chain_group<const N: usize>(geo: &Hexagon, free: Bb<N>, r: usize, k: u32, rng: &mut Rng) -> Bb<N> {
    let w = geo.width;
    let root = Bb::<N>::bit(r);
    let mut group = root;
    while group.count() < k {
        let ring = group.grow(w).and(free).andnot(group);
        for b in ring.iter() {
            group.set(b);
            if group.count() == k {
                break;
            }
        }
    }
    if k == 1 {
        return group;
    }
    let boundary = |g: Bb<N>| g.grow(w).and(free).andnot(g);
    let mut edge = boundary(group);
    for _ in 0..200 * k {
        let movable = group.andnot(root);
        let out = movable.nth(rng.below(movable.count()));
        let into = edge.nth(rng.below(edge.count()));
        let mut cand = group;
        cand.clear(out);
        cand.set(into);
        if root.flood(cand, w) != cand {
            continue;
        }
        let cand_edge = boundary(cand);
        let (b_old, b_new) = (edge.count() as u64, cand_edge.count() as u64);
        if b_new > b_old && rng.below_u64(b_new) >= b_old {
            continue;
        }
        group = cand;
        edge = cand_edge;
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hexagon;

    fn game(black: &str, white: &str) -> Marbanta<2> {
        let geo = hexagon(5);
        let mut st = [Bb::ZERO; 2];
        for (c, names) in [black, white].iter().enumerate() {
            for name in names.split_whitespace() {
                st[c].set(geo.parse(name).unwrap());
            }
        }
        Marbanta::new(geo, true, st, 0, 4, Phase::Play)
    }

    fn names(g: &Marbanta<2>, roots: &[(usize, u32)]) -> Vec<String> {
        let mut out: Vec<String> = roots.iter().map(|&(r, _)| g.geo.name(r)).collect();
        out.sort();
        out
    }

    #[test]
    fn m_t1_fifteen_roots_each_of_one() {
        let g = game("e5", "c3");
        let roots = g.roots();
        assert_eq!(names(&g, &roots),
                   ["a5", "b5", "c5", "e1", "e2", "e3", "e7", "e8", "e9", "g5", "g7", "h5", "h8", "i5", "i9"]);
        assert!(roots.iter().all(|&(_, n)| n == 1));
    }

    #[test]
    fn a_pie_stone_beside_a_group_of_its_colour_joins_it() {
        let mut g = game("c3", "a1");
        g.phase = Phase::Pie;
        let at = |g: &Marbanta<2>, s: &str| g.geo.parse(s).unwrap();
        g.apply(Played::Pie(at(&g, "c4"), at(&g, "i9")));
        let fresh = Marbanta::new(g.geo, true, g.st, g.to_move, g.ply, g.phase);
        assert_eq!(g.groups.len(), fresh.groups.len());
        assert_eq!(g.gid[at(&g, "c3")], g.gid[at(&g, "c4")]);
    }

    #[test]
    fn m_t2_m_t4_m_t6_root_sizes() {
        let g = game("c3 g7", "e1");
        let free = g.free();
        let at = |g: &Marbanta<2>, s: &str| g.geo.parse(s).unwrap();
        assert_eq!(g.root_size(free, at(&g, "e5")), 2);
        assert_eq!(g.root_size(free, at(&g, "c5")), 1);
        assert_eq!(g.root_size(free, at(&g, "e9")), 0);
        let g = game("c3 d3 e3", "a1");
        assert_eq!(g.groups_seen(at(&g, "e5")), 1);
        let g = game("a3 c1 e5", "b2");
        assert_eq!(g.groups_seen(at(&g, "a1")), 2);
        assert_eq!(g.root_size(g.free(), at(&g, "a1")), 0);
    }

    #[test]
    fn sampled_groups_are_connected_free_and_of_size_k() {
        let geo = hexagon(7);
        let free = geo.mask::<3>();
        let mut rng = Rng::new(5);
        let r = geo.parse("g7").unwrap();
        for k in 1..8 {
            for _ in 0..20 {
                let g = sample_group(geo, free, r, k, &mut rng);
                assert_eq!(g.count(), k);
                assert!(g.has(r) && g.within(&free) && Bb::bit(r).flood(g, geo.width) == g);
                let c = chain_group(geo, free, r, k, &mut rng);
                assert!(c.count() == k && c.has(r) && Bb::bit(r).flood(c, geo.width) == c);
            }
        }
    }

    #[test]
    fn playouts_end_with_a_player_unable_to_move() {
        let geo = hexagon(9);
        for seed in 0..10 {
            let mut g: Marbanta<5> = Marbanta::new(geo, true, [Bb::ZERO; 2], 0, 0, Phase::Pie);
            let (winner, _) = g.playout(2 * 217 + 4, &mut Rng::new(seed));
            assert_eq!(winner, Some(g.to_move));
            assert!(!g.has_turn());
        }
    }

    #[test]
    fn the_listed_groups_are_every_new_group_once() {
        let geo = hexagon(7);
        let mut checked = 0;
        for seed in 0..6 {
            let mut g: Marbanta<3> = Marbanta::new(geo, false, [Bb::ZERO; 2], 0, 0, Phase::Pie);
            let mut rng = Rng::new(seed);
            let mut swaps = 0;
            while g.phase != Phase::Play || g.has_turn() {
                if g.phase == Phase::Play {
                    let free = g.free();
                    let listed = g.groups(usize::MAX);
                    let mut expected = 0;
                    for (r, k) in g.roots() {
                        let start = geo.nbr::<3>(r).and(free);
                        let mut budget = i64::MAX;
                        expected += if k == 1 { 1 } else {
                            count_leaves(geo, free, start, start.or(Bb::bit(r)), k - 1, &mut budget).unwrap()
                        };
                        let mine: Vec<Bb<3>> = listed.iter().filter(|(x, _)| *x == r).map(|&(_, b)| b).collect();
                        assert!(mine.iter().all(|b| b.count() == k && b.has(r) && b.within(&free)
                                                 && Bb::bit(r).flood(*b, geo.width) == *b));
                        assert!(mine.iter().enumerate().all(|(i, b)| !mine[..i].contains(b)));
                    }
                    assert_eq!(listed.len() as i64, expected);
                    assert_eq!(g.groups(3).len(), listed.len().min(3));
                    checked += 1;
                }
                if !g.random_step(&mut rng, &mut swaps) {
                    break;
                }
            }
        }
        assert!(checked > 20);
    }

    #[test]
    fn a_traced_playout_draws_as_the_playout_and_its_trace_replays_it() {
        let geo = hexagon(7);
        for seed in 0..10 {
            let start: Marbanta<3> = Marbanta::new(geo, true, [Bb::ZERO; 2], 0, 0, Phase::Pie);
            let (mut plain, mut traced) = (start.clone(), start.clone());
            let (mut trace, cap) = (Vec::new(), 2 * 127 + 4);
            let ended = plain.playout(cap, &mut Rng::new(seed));
            assert_eq!(traced.traced_playout(cap, &mut Rng::new(seed), &mut trace), ended);
            assert_eq!((traced.st, traced.ply), (plain.st, plain.ply));
            assert_eq!(trace.len() as u32, plain.ply);
            let mut st = [Bb::<3>::ZERO; 2];
            for (mover, played) in trace {
                match played {
                    Played::Pie(b, w) => {
                        st[0].set(b);
                        st[1].set(w);
                    }
                    Played::Swap(_) => {}
                    Played::Group(r, group) => {
                        assert!(group.has(r) && !group.meets(&st[0].or(st[1])));
                        st[mover] = st[mover].or(group);
                    }
                }
            }
            assert_eq!(st, plain.st);
        }
    }
}
