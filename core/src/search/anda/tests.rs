//! Anda's SearchGame against the rules of core/src/anda, on seeded random games through
//! every phase, and the static evaluation on positions worked by hand.

use super::*;
use crate::bitboard::Bb;
use crate::evaluation::anda_summary;
use crate::geometry::hexagon;
use crate::anda::{BLACK, WHITE};

fn start<const N: usize>(n: usize, seed: u64) -> Anda<N> {
    let phase = if seed.is_multiple_of(2) { Phase::Offer } else { Phase::Play };
    Anda::new(hexagon(n), seed.is_multiple_of(3), Bb::ZERO, Bb::ZERO, BLACK, 0, (seed % 4) as u32, [true; 2], phase)
}

/// Each state of a seeded random game (played by `random_action`) to its end.
fn states<const N: usize>(n: usize, seed: u64) -> Vec<Anda<N>> {
    let mut rng = Rng::new(seed);
    let mut g = start::<N>(n, seed);
    let mut out = vec![g.clone()];
    while SearchGame::outcome(&g).is_none() {
        let action = g.random_action(&mut rng).expect("a game not over has an action");
        g = SearchGame::play(&g, action).expect("random_action draws a legal action");
        out.push(g.clone());
    }
    out
}

fn all_states() -> Vec<Anda<2>> {
    (0..12).flat_map(|seed| states::<2>(4 + seed as usize % 2, seed)).collect()
}

#[test]
fn the_list_is_the_rules_legal_actions_in_every_phase() {
    let mut out = Vec::new();
    let (mut placing, mut firsts, mut pies) = (0, 0, 0);
    for g in all_states() {
        let geo = g.geo;
        if g.outcome().is_some() {
            continue;
        }
        assert!(g.list(usize::MAX, &mut out));
        match g.phase {
            Phase::Offer => {
                assert_eq!(out.len(), geo.site_count() + 1);
                assert!(!g.list(geo.site_count(), &mut Vec::new()));
                pies += 1;
            }
            Phase::Answer => assert_eq!(out, vec![Action::Swap, Action::Keep]),
            Phase::Play if g.first[g.to_move] => {
                let free: Vec<Action> = g.free_pairs().map(|(a, b)| Action::Pair(a as u16, b as u16)).collect();
                assert_eq!(out, free);
                assert!(out.len() > 2 && !g.list(out.len() - 1, &mut Vec::new()));
                firsts += 1;
            }
            Phase::Play => {
                let cells: Vec<usize> = out.iter().filter_map(|a| match a {
                    Action::Place(s) => Some(usize::from(*s)),
                    _ => None,
                }).collect();
                assert_eq!(Bb::from_iter_bits(cells.iter().copied()), g.legal_cells());
                assert!(cells.windows(2).all(|p| geo.rank[p[0]] < geo.rank[p[1]]));
                assert_eq!(out.contains(&Action::Pass), g.can_pass());
                assert_eq!(g.legal_cell_count(), g.legal_cells().count());
                for &s in &geo.sites {
                    assert_eq!(SearchGame::play(&g, Action::Place(s as u16)).is_some(), g.legal_cells().has(s));
                }
                placing += 1;
            }
        }
        for &a in &out {
            let next = SearchGame::play(&g, a).expect("a listed action plays");
            assert_eq!(next.ply, g.ply + 1);
            assert_eq!(next.to_move, 1 - g.to_move);
        }
        let others = [Action::Swap, Action::Keep, Action::Pass, Action::Komi(0)];
        for a in others.into_iter().filter(|a| !out.contains(a)) {
            assert!(SearchGame::play(&g, a).is_none(), "{a:?} in {:?}", g.phase);
        }
    }
    assert!(placing > 300 && firsts > 10 && pies > 3, "{placing} {firsts} {pies}");
}

#[test]
fn games_end_by_the_rules_or_at_the_cap_as_a_draw() {
    for seed in 0..12 {
        let last = states::<2>(4, seed).pop().unwrap();
        match Anda::outcome(&last) {
            Some((winner, _)) => assert_eq!(SearchGame::outcome(&last), Some(Some(winner))),
            None => {
                assert_eq!(last.ply, ply_cap(last.geo));
                assert_eq!(SearchGame::outcome(&last), Some(None));
            }
        }
        assert_eq!(last.random_action(&mut Rng::new(1)).is_none(), Anda::outcome(&last).is_some());
    }
}

/// 0 the rest and the pass, 1 next to an enemy stone, 2 joining two or more own groups.
fn band<const N: usize>(g: &Anda<N>, a: Action) -> u8 {
    let Action::Place(s) = a else { return 0 };
    let s = usize::from(s);
    let own = g.board.st[g.to_move];
    let nbrs = g.geo.nbr::<N>(s);
    let groups: Vec<Bb<N>> = g.board.grp[g.to_move].iter().copied().filter(|x| x.any()).collect();
    assert!(groups.iter().fold(Bb::ZERO, |acc, x| acc.or(*x)) == own);
    if groups.iter().filter(|x| x.meets(&nbrs)).count() >= 2 {
        2
    } else {
        u8::from(nbrs.meets(&g.board.st[1 - g.to_move]))
    }
}

#[test]
fn candidates_are_the_legal_placements_and_the_pass_in_three_bands() {
    let mut rng = Rng::new(5);
    let (mut out, mut legal) = (Vec::new(), Vec::new());
    let mut banded = [0; 3];
    for g in all_states() {
        if g.outcome().is_some() {
            continue;
        }
        let listed = g.candidates(&mut rng, &mut out);
        assert_eq!(listed, g.legal_cells().any());
        if !listed {
            continue;
        }
        assert!(g.list(usize::MAX, &mut legal));
        let (mut a, mut b) = (out.clone(), legal.clone());
        a.sort_by_key(|x| format!("{x:?}"));
        b.sort_by_key(|x| format!("{x:?}"));
        assert_eq!(a, b, "a permutation of the legal actions");
        let bands: Vec<u8> = out.iter().map(|&x| band(&g, x)).collect();
        assert!(bands.windows(2).all(|p| p[0] <= p[1]), "{bands:?}");
        for x in bands {
            banded[x as usize] += 1;
        }
    }
    assert!(banded.iter().all(|&k| k > 50), "{banded:?}");
}

#[test]
fn candidates_are_shuffled_by_the_rng() {
    let g = states::<2>(5, 1).into_iter().find(|g| g.legal_cells().count() > 20).unwrap();
    let draw = |seed| {
        let mut out = Vec::new();
        g.candidates(&mut Rng::new(seed), &mut out);
        out
    };
    assert_eq!(draw(1), draw(1));
    assert_ne!(draw(1), draw(2));
}

fn position(n: usize, black: &str, white: &str, komi: u32) -> Anda<2> {
    let geo = hexagon(n);
    let st = |names: &str| Bb::from_iter_bits(names.split_whitespace().map(|x| geo.parse(x).unwrap()));
    Anda::new(geo, false, st(black), st(white), BLACK, 20, komi, [false; 2], Phase::Play)
}

#[test]
fn the_static_score_of_positions_worked_by_hand() {
    // one black stone: 1 stone, 18 sites of territory, a group with one safe breath (-0.4)
    assert_eq!(static_score(&position(3, "a1", "", 0)), 19.0 + -0.4);
    assert_eq!(static_score(&position(3, "a1", "", 3)), 19.0 + -0.4 - 1.5);
    // the c column splits the board: two safe breaths (+0.3 a stone)
    assert_eq!(static_score(&position(3, "c1 c2 c3 c4 c5", "", 0)), 19.0 + 0.3 * 5.0);
    // a1 and c3 share the one region: no territory, each group smothered (-1 a stone)
    assert_eq!(static_score(&position(3, "a1", "c3", 0)), 0.0);
    // b1 b2 a2 wall off a1 (black territory); e5 white, beside the black group's big breath
    // (one white group: unsafe for black), its own breath touches one black group
    let g = position(3, "b1 b2 a2", "e5", 1);
    let (tb, tw, gb, gw) = anda_summary(g.geo, g.board.st[0], g.board.st[1]);
    assert_eq!((tb, tw), (1, 0));
    assert_eq!((gb, gw), (vec![(3, 1)], vec![(1, 0)]));
    assert_eq!(static_score(&g), (3 - 1 + 1) as f64 + (-0.4 * 3.0 - -1.0) - 0.5);
    assert_eq!(squash(0.0, SCALE), 0.5);
    assert_eq!(squash(6.0, SCALE), 1.0 / (1.0 + (-1.0f64).exp()));
    assert_eq!(squash(1e9, SCALE), 1.0 / (1.0 + (-60.0f64).exp()));
}

/// The value of the state a trace leads to (at the ply cap a draw, else the squashed score).
fn replayed<const N: usize>(g: &Anda<N>, trace: &[(Colour, Action)]) -> f64 {
    let mut h = g.clone();
    let mut swapped = false;
    for &(mover, a) in trace {
        assert_eq!(mover, h.to_move);
        swapped ^= a == Action::Swap;
        h = SearchGame::play(&h, a).expect("a traced action is legal");
    }
    let value = match SearchGame::outcome(&h) {
        Some(winner) => outcome_value(winner),
        None => squash(static_score(&h), SCALE),
    };
    if swapped { 1.0 - value } else { value }
}

#[test]
fn a_traced_leaf_value_is_its_last_state_seen_through_the_swaps() {
    let mut swaps = 0;
    for (i, g) in all_states().into_iter().step_by(7).enumerate() {
        if g.outcome().is_some() {
            continue;
        }
        let mut trace = Vec::new();
        let value = g.evaluate(BLACK, &mut Rng::new(i as u64), Some(&mut trace));
        assert!(trace.len() <= depth(g.geo) as usize && !trace.is_empty());
        assert_eq!(value, replayed(&g, &trace));
        swaps += trace.iter().filter(|(_, a)| *a == Action::Swap).count();
        let plain = g.evaluate(WHITE, &mut Rng::new(i as u64), None);
        assert!((0.0..=1.0).contains(&plain));
    }
    assert!(swaps > 0);
}

#[test]
fn notation_is_the_python_tokens() {
    let g = position(9, "", "", 0);
    let at = |x: &str| g.geo.parse(x).unwrap() as u16;
    assert_eq!(g.notation(Action::Place(at("e5"))), "e5");
    assert_eq!(g.notation(Action::Pair(at("a1"), at("i9"))), "a1,i9");
    assert_eq!(g.notation(Action::Komi(7)), "komi=7");
    let words: Vec<String> = [Action::Swap, Action::Keep, Action::Pass].map(|a| g.notation(a)).into();
    assert_eq!(words, ["swap", "keep", "pass"]);
}

#[test]
fn random_action_is_uniform_over_the_legal_actions() {
    let g = all_states().into_iter()
        .find(|g| g.can_pass() && g.legal_cells().count() > 4 && g.board.empty.count() > g.legal_cells().count() + 4)
        .expect("a placing turn of White with komi, some sites refused");
    let mut legal = Vec::new();
    assert!(g.list(usize::MAX, &mut legal));
    let mut rng = Rng::new(9);
    let draws = 2000 * legal.len();
    let mut seen = std::collections::HashMap::new();
    for _ in 0..draws {
        *seen.entry(g.random_action(&mut rng).unwrap()).or_insert(0usize) += 1;
    }
    assert_eq!(seen.len(), legal.len());
    assert!(seen.values().all(|&k| (1800..2200).contains(&k)), "{seen:?}");
}
