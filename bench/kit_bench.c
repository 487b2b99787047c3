/* kit_bench.c (bench/bench_kits.py): the same as core/examples/kit_bench.rs through the C ABI
 * (include/hexarena.h): `kit_bench N GAMES SAMPLES` prints `plies=P legal_us=U`. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hexarena.h"

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    if (argc != 4) return fprintf(stderr, "usage: kit_bench N GAMES SAMPLES\n"), 2;
    int n = atoi(argv[1]);
    long games = atol(argv[2]), samples = atol(argv[3]);
    unsigned cap = 10u * (unsigned)(3 * n * (n - 1) + 1);
    static char buf[1 << 22];
    double plies = 0, *times = malloc(sizeof(double) * (size_t)(samples + 1));
    hx_game *start, *g;
    if (hx_game_new("anda", n, "nopie", 0, &start) != HX_OK) return fprintf(stderr, "%s\n", hx_last_error()), 1;
    for (long seed = 0; seed < games; seed++) {
        hx_game_clone(start, &g);
        hx_random_playout(g, cap, (uint64_t)seed, NULL);
        uint32_t ply;
        hx_ply(g, &ply);
        plies += ply;
        hx_game_free(g);
    }
    for (long i = 0; i < samples; i++) {
        hx_game_clone(start, &g);
        hx_random_playout(g, (uint32_t)(i % 40), (uint64_t)(1000 + i), NULL);
        double t = now_us();
        if (hx_legal_actions(g, buf, sizeof buf, NULL) != HX_OK) return fprintf(stderr, "%s\n", hx_last_error()), 1;
        times[i] = now_us() - t;
        hx_game_free(g);
    }
    qsort(times, (size_t)samples, sizeof(double), cmp);
    printf("plies=%.2f legal_us=%.2f\n", plies / (double)(games ? games : 1), samples ? times[samples / 2] : 0.0 / 0.0);
    hx_game_free(start);
    free(times);
    return 0;
}
