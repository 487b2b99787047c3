//! Marbanta's `SearchGame` on random games: the listing against the rules' check and the
//! random draws, the phases, the misère end and the cap, the playout's value and trace, the
//! notation.

use std::collections::HashSet;

use super::*;
use crate::geometry::hexagon;

fn start(pie: bool) -> Game<2> {
    Game::new(Marbanta::new(hexagon(5), pie, [Bb::ZERO; 2], 0, 0, Phase::Pie))
}

/// Every state of a seeded random game to its end.
fn states(pie: bool, seed: u64) -> Vec<Game<2>> {
    let mut rng = Rng::new(seed);
    let mut out = vec![start(pie)];
    while out.last().unwrap().outcome().is_none() {
        let g = out.last().unwrap();
        let a = g.random_action(&mut rng).expect("a game that goes on has an action");
        out.push(g.play(a).expect("a drawn action is legal"));
    }
    out
}

#[test]
fn the_listing_is_every_new_group_once_and_the_draws_are_among_them() {
    let mut listed = 0;
    for seed in 0..8 {
        for g in states(seed % 2 == 0, seed) {
            let mut all = Vec::new();
            if !g.list(20_000, &mut all) {
                assert_eq!(g.g.phase, Phase::Play);
                continue;
            }
            listed += 1;
            let set: HashSet<_> = all.iter().copied().collect();
            assert_eq!(set.len(), all.len(), "listed twice");
            assert!(all.iter().all(|&a| g.play(a).is_some()));
            match g.g.phase {
                Phase::Pie => assert_eq!(all.len(), 61 * 60),
                Phase::Swap => assert_eq!(all, [Played::Swap(true), Played::Swap(false)]),
                Phase::Play => {
                    assert_eq!(all.len(), g.g.groups(usize::MAX).len());
                    let roots: HashSet<usize> = all.iter().map(|a| match a {
                        Played::Group(r, _) => *r,
                        _ => unreachable!(),
                    }).collect();
                    assert_eq!(roots.len() as u32, g.legal_cell_count());
                }
            }
            let mut rng = Rng::new(3);
            for _ in 0..20 {
                let drawn = g.random_action(&mut rng);
                assert_eq!(drawn.is_some(), !all.is_empty());
                assert!(drawn.is_none_or(|a| set.contains(&a)), "{drawn:?}");
            }
            if !all.is_empty() {
                let mut few = Vec::new();
                assert!(g.list(all.len(), &mut few) && few.len() == all.len());
                assert!(!g.list(all.len() - 1, &mut few));
            }
        }
    }
    assert!(listed > 40, "{listed}");
}

#[test]
fn illegal_actions_do_not_play() {
    let g = start(true);
    let at = |s: &str| g.g.geo.parse(s).unwrap();
    let (e5, c3) = (at("e5"), at("c3"));
    assert!(g.play(Played::Swap(true)).is_none() && g.play(Played::Group(e5, Bb::bit(e5))).is_none());
    assert!(g.play(Played::Pie(e5, e5)).is_none());
    let pie = g.play(Played::Pie(e5, c3)).unwrap();
    assert_eq!((pie.g.phase, pie.g.to_move), (Phase::Swap, 1));
    assert!(pie.play(Played::Pie(at("a1"), at("a2"))).is_none());
    let kept = pie.play(Played::Swap(false)).unwrap();
    assert_eq!((kept.g.phase, kept.g.to_move, kept.g.ply), (Phase::Play, 0, 2));
    // Black's e5 sees one black group: a single stone on a free sighted site, not two
    assert!(kept.play(Played::Group(at("e7"), Bb::bit(at("e7")))).is_some());
    assert!(kept.play(Played::Group(at("e6"), Bb::bit(at("e6")))).is_none(), "touches e5");
    let two = Bb::bit(at("e7")).or(Bb::bit(at("e8")));
    assert!(kept.play(Played::Group(at("e7"), two)).is_none(), "one group seen: one stone");
    let nopie = start(false).play(Played::Pie(e5, c3)).unwrap();
    assert_eq!((nopie.g.phase, nopie.g.to_move), (Phase::Play, 0));
}

#[test]
fn the_misere_end_the_cap_and_the_playouts_values() {
    for seed in 0..6 {
        let all = states(true, seed);
        let last = all.last().unwrap();
        assert_eq!(last.outcome(), Some(Some(last.g.to_move)));
        assert_eq!(last.evaluate(0, &mut Rng::new(1), None), if last.g.to_move == 0 { 1.0 } else { 0.0 });
        let mut capped = all[all.len() / 2].clone();
        capped.g.ply = capped.cap;
        assert_eq!(capped.outcome(), Some(None));
        for g in &all[..all.len() - 1] {
            let (mut trace, mut again) = (Vec::new(), Vec::new());
            let value = g.evaluate(0, &mut Rng::new(seed), Some(&mut trace));
            assert!([0.0, 1.0].contains(&value));
            assert_eq!(g.evaluate(1, &mut Rng::new(seed), None), value);
            assert_eq!(g.evaluate(1, &mut Rng::new(seed), Some(&mut again)), value);
            assert_eq!(trace, again);
            let mut end = g.clone();
            for &(mover, a) in &trace {
                assert_eq!(end.to_move(), mover);
                end = end.play(a).expect("a traced action is legal");
            }
            let swaps = trace.iter().filter(|&&(_, a)| Game::<2>::is_swap(a)).count();
            let winner = end.outcome().expect("the playout ends the game").expect("no draw before the cap");
            assert_eq!(value, if (winner == 0) != (swaps % 2 == 1) { 1.0 } else { 0.0 });
        }
    }
}

#[test]
fn notation_as_the_rules_write_it() {
    let g = start(true);
    let at = |s: &str| g.g.geo.parse(s).unwrap();
    assert_eq!(g.notation(Played::Pie(at("e5"), at("c3"))), "e5,c3");
    assert_eq!(g.notation(Played::Swap(true)), "swap");
    assert_eq!(g.notation(Played::Swap(false)), "keep");
    assert_eq!(g.notation(Played::Group(at("e5"), Bb::bit(at("e5")))), "e5");
    let group = Bb::from_iter_bits(["e5", "f5", "d4", "e4"].iter().map(|s| at(s)));
    assert_eq!(g.notation(Played::Group(at("e5"), group)), "e5:d4,e4,f5");
}
