//! `kit_bench N GAMES SAMPLES` (bench/bench_kits.py): through the Rust kit, GAMES random Anda
//! playouts (nopie, komi 0, from the empty board to the end or the ply cap), then the legal
//! actions of SAMPLES positions drawn from playouts; prints `plies=P legal_us=U` (mean plies a
//! playout, median microseconds of one `legal_actions` call). The playouts' CPU time is the
//! process's, measured by the caller.

use std::time::Instant;

use hexarena_core::kit::Game;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("N GAMES SAMPLES")).collect();
    let [n, games, samples] = args[..] else { panic!("usage: kit_bench N GAMES SAMPLES") };
    let start = Game::new("anda", n as usize, "nopie").expect("a board side 2..13");
    let cap = 10 * (3 * n * (n - 1) + 1) as u32;
    let mut plies = 0u64;
    for seed in 0..games {
        let mut g = start.clone();
        g.random_playout(cap, seed);
        plies += u64::from(g.ply());
    }
    let mut times = Vec::new();
    for i in 0..samples {
        let mut g = start.clone();
        g.random_playout((i % 40) as u32, 1_000 + i);
        let t = Instant::now();
        let actions = g.legal_actions().expect("Anda lists every action");
        times.push(t.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(actions);
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    println!("plies={:.2} legal_us={median:.2}", plies as f64 / games.max(1) as f64);
}
