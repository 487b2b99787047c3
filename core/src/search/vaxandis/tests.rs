use super::*;
use crate::bitboard::Bb;
use crate::geometry::hexagon;
use crate::search::game::{Config, Searcher};
use crate::search::tree::Search;

const UCT: Config = Config { exploration: 1.0, rave: None, narrow: false };

fn empty(n: usize, pie: bool) -> Game<2> {
    let geo = hexagon(n);
    let phase = if pie { Phase::Open } else { Phase::Play };
    Game::new(Vaxandis { geo, freeze_group: false, touch_path: true, st: [Bb::ZERO; 2], height: vec![0; geo.bits()],
                         to_move: 0, ply: 0, phase })
}

/// The states of random games from the empty board of side `n` (seeded), while not over.
fn states(n: usize, seed: u64, games: usize) -> Vec<Game<2>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = empty(n, false);
        while g.outcome().is_none() {
            out.push(g.clone());
            g = g.play(g.random_action(&mut rng).unwrap()).unwrap();
        }
    }
    out
}

fn actions(g: &Game<2>) -> Vec<Action> {
    let mut out = Vec::new();
    assert!(g.list(usize::MAX, &mut out));
    out
}

/// Whether `action` wins at once for the mover of `g`.
fn wins(g: &Game<2>, action: Action) -> bool {
    g.play(action).unwrap().outcome() == Some(Some(g.to_move()))
}

fn chosen(g: &Game<2>, iterations: u64, seed: u64) -> Action {
    let mut s = Search::new(g.clone(), UCT, seed);
    s.run(Some(iterations), None);
    let child = s.checked_child().unwrap();
    s.nodes[child].action.unwrap()
}

#[test]
fn listing_random_actions_and_playing_agree_with_the_rules() {
    for g in states(4, 1, 3) {
        let all = actions(&g);
        assert_eq!(all.len() as u32, g.g.cells().count() + g.g.moves().len() as u32);
        assert!(all.iter().all(|&a| g.play(a).is_some()));
        let mut rng = Rng::new(g.ply() as u64);
        let a = g.random_action(&mut rng).unwrap();
        assert!(all.contains(&a));
        assert!(g.play(Action::Swap).is_none());
    }
}

#[test]
fn the_ply_cap_is_a_draw_and_values_are_scores() {
    assert_eq!((ply_cap(hexagon(4).sites.len()), ply_cap(hexagon(5).sites.len())), (300, 500));
    let mut g = states(4, 2, 1).pop().unwrap();
    g.cap = g.g.ply;
    assert_eq!(g.outcome(), if g.g.winner().is_some() { Some(g.g.winner()) } else { Some(None) });
    let mut rng = Rng::new(3);
    for g in states(4, 3, 1) {
        let v = g.evaluate(0, &mut rng, None);
        assert!((0.0..=1.0).contains(&v));
        let mut trace = Vec::new();
        let t = g.evaluate(1, &mut rng, Some(&mut trace));
        assert!((0.0..=1.0).contains(&t) && trace.len() <= DEPTH as usize);
    }
}

#[test]
fn an_immediate_win_is_played() {
    let mut found = 0;
    for g in states(4, 4, 20) {
        let all = actions(&g);
        if all.iter().any(|&a| wins(&g, a)) && !all.iter().all(|&a| wins(&g, a)) {
            assert!(wins(&g, chosen(&g, 10, g.ply() as u64)), "{}", g.ply());
            found += 1;
        }
    }
    assert!(found > 0);
}

#[test]
fn a_move_that_hands_the_opponent_a_win_is_avoided() {
    let loses = |g: &Game<2>, a: Action| {
        let next = g.play(a).unwrap();
        next.outcome().is_none() && actions(&next).into_iter().any(|r| wins(&next, r))
    };
    let mut found = 0;
    for g in states(4, 5, 20) {
        let all = actions(&g);
        if all.iter().any(|&a| wins(&g, a)) || !all.iter().any(|&a| loses(&g, a)) {
            continue;
        }
        if all.iter().filter(|&&a| !loses(&g, a)).count() == 0 {
            continue;
        }
        assert!(!loses(&g, chosen(&g, 30, 1)), "{}", g.ply());
        found += 1;
    }
    assert!(found > 0);
}

#[test]
fn a_seeded_search_is_reproducible() {
    let g = &states(5, 6, 1)[30];
    let stats = |seed| {
        let mut s = Search::new(g.clone(), UCT, seed);
        s.run(Some(300), None);
        s.choose();
        s.children()
    };
    assert_eq!(stats(9), stats(9));
}

#[test]
fn reuse_keeps_the_subtree_of_the_actions_played() {
    let g = states(5, 7, 1)[20].clone();
    let mut first = Search::new(g.clone(), UCT, 1);
    first.run(Some(500), None);
    let mine = first.checked_child().unwrap();
    let reply = crate::search::node::most_visited(&first.nodes, first.nodes[mine].children.iter().copied()).unwrap();
    let (visits, now) = (first.nodes[reply].visits, first.nodes[reply].state.clone());
    assert!(visits > 0);
    let mut second = Search::new(now.clone(), UCT, 2);
    assert!(second.reuse(Box::new(first)));
    assert_eq!(second.nodes[0].visits, visits);
    second.run(Some(100), None);
    assert_eq!(second.nodes[0].visits, visits + 100);
    // a state the previous tree does not hold: nothing is kept
    let mut third = Search::new(g.clone(), UCT, 3);
    assert!(!third.reuse(Box::new(Search::new(now, UCT, 4))));
}

#[test]
fn the_pie_is_decided_by_value() {
    let opened = empty(4, true).play(Action::Place(hexagon(4).parse("d4").unwrap() as u16)).unwrap();
    assert_eq!(opened.g.phase, Phase::Swap);
    let mut s = Search::new(opened.clone(), UCT, 5);
    s.run(Some(400), None);
    let child = s.checked_child().unwrap();
    let swap = s.nodes[0].children.iter().copied().find(|&c| s.nodes[c].is_swap()).unwrap();
    let best_other = crate::search::node::most_visited(
        &s.nodes, s.nodes[0].children.iter().copied().filter(|&c| !s.nodes[c].is_swap())).unwrap();
    let expected = if s.nodes[swap].mean() >= s.nodes[best_other].mean() { swap } else { best_other };
    assert_eq!(child, expected);
    // after `swap` the searching player holds Black: its tree is not reused for Black's move
    assert_eq!(s.nodes[swap].holder, Some(0));
    let reply = crate::search::node::most_visited(&s.nodes, s.nodes[swap].children.iter().copied()).unwrap();
    let later = s.nodes[reply].state.clone();
    assert_eq!(later.to_move(), 0);
    assert!(crate::search::node::find(&s.nodes, 0, &later).is_some());
    assert!(!Search::new(later, UCT, 6).reuse(Box::new(s)));
}

/// Every node's visits cover its children's, and a node's children are distinct actions.
fn check_tree(s: &Search<Game<2>>) {
    for n in &s.nodes {
        let below: u32 = n.children.iter().map(|&c| s.nodes[c].visits).sum();
        assert!(below <= n.visits || n.visits == 0 && below == 0, "{below} > {}", n.visits);
        let actions: std::collections::HashSet<_> = n.children.iter().map(|&c| s.nodes[c].action).collect();
        assert_eq!(actions.len(), n.children.len());
    }
}

#[test]
fn rave_gathers_amaf_statistics_and_narrow_nodes_widen_progressively() {
    let g = states(5, 8, 1)[12].clone();
    let mut rave = Search::new(g.clone(), Config { exploration: 0.5, rave: Some(300.0), narrow: false }, 1);
    rave.run(Some(400), None);
    check_tree(&rave);
    assert!(rave.nodes[0].children.iter().any(|&c| rave.nodes[c].amaf_visits > 0));
    assert_eq!(rave.nodes[0].visits, 400);
    let mut narrow = Search::new(g, Config { exploration: 1.0, rave: None, narrow: true }, 1);
    narrow.run(Some(400), None);
    check_tree(&narrow);
    for (i, n) in narrow.nodes.iter().enumerate().skip(1) {
        // (a node whose children are all proven losses widens at once: not counted)
        let lost = n.children.iter().any(|&c| narrow.nodes[c].lost());
        // the last child came at a visit before this one's count: fewer than 1 + 2 sqrt(visits - 1) before it
        let before = n.visits.saturating_sub(1) as f64;
        assert!(lost || n.children.len() <= 1 || ((n.children.len() - 1) as f64) < 1.0 + 2.0 * before.sqrt(),
                "node {i}: {} children, {} visits", n.children.len(), n.visits);
    }
}

#[test]
fn a_time_budget_ends_the_search() {
    let mut s = Search::new(states(5, 9, 1)[6].clone(), UCT, 1);
    assert!(s.run(None, Some(0.05)) > 0);
    check_tree(&s);
    assert!(s.choose().is_some());
}
