//! `cargo run --release --example anda_playouts -- N GAMES`: random Anda playouts
//! (nopie, komi 0) from the empty board, timed in Rust alone.

use hexarena_core::anda::{Anda, Phase, BLACK};
use hexarena_core::bitboard::Bb;
use hexarena_core::geometry::hexagon;
use hexarena_core::rng::Rng;
use std::time::Instant;

fn run<const N: usize>(n: usize, games: u32) {
    let geo = hexagon(n);
    let mut rng = Rng::new(1);
    let cap = 10 * geo.site_count() as u32;
    let t0 = Instant::now();
    let mut plies = 0u64;
    for _ in 0..games {
        let mut g: Anda<N> = Anda::new(geo, false, Bb::ZERO, Bb::ZERO, BLACK, 0, 0, [true; 2], Phase::Play);
        g.playout(cap, &mut rng);
        plies += g.ply as u64;
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "n={n} playouts={games} ms/playout={:.4} mean_plies={:.1} us/ply={:.3}",
        1e3 * dt / games as f64,
        plies as f64 / games as f64,
        1e6 * dt / plies as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(9);
    let games: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    match hexarena_core::geometry::words(n) {
        1 | 2 => run::<2>(n, games),
        3 => run::<3>(n, games),
        4 | 5 => run::<5>(n, games),
        6..=8 => run::<8>(n, games),
        _ => run::<11>(n, games),
    }
}
