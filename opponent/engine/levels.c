/* Levels 1-10 (search_api.h): node budget, depth cap (0: none), evaluation noise (centipawns, +-),
 * percent of random moves, quiescence. opponent/levels.py holds the same numbers with each level's
 * word (tests/test_opponent_engine_levels.py compares them with `maxima-engine levels`). */
#include <stdio.h>
#include <string.h>
#include "search_api.h"

const Level LEVELS[11] = {
    {0, 0, 0, 0, 1},
    {500, 2, 200, 20, 1},
    {1000, 2, 140, 12, 1},
    {2000, 2, 70, 4, 1},
    {5000, 3, 40, 1, 1},
    {10000, 0, 30, 0, 1},
    {25000, 0, 0, 0, 1},
    {80000, 0, 0, 0, 1},
    {250000, 0, 0, 0, 1},
    {800000, 0, 0, 0, 1},
    {2500000, 0, 0, 0, 1},
};

/* Optima's level 1 (both boards) has more noise and random moves and no quiescence: the common row was about
 * even with the reference player (minimax2) in Optima (+9 Elo in 40 games), and even with more noise and
 * random moves (+-260, 26 %; -9 at depth 1 with +-200, 20 %); without quiescence it scored 11/40 (-168) and
 * 6.5/40 in Optima 9x9. In the other games the common row is below the reference already
 * (docs/opponent.md, "The levels' ladder"). */
static const Level OPTIMA_LEVEL_1 = {500, 2, 260, 26, 0};

const Level *optima_level(int n) { return n == 1 ? &OPTIMA_LEVEL_1 : &LEVELS[n]; }

/* `maxima-engine levels [optima]`: the table, or Optima's */
int levels_main(const char *family) {
    int optima = family && !strcmp(family, "optima");
    if (family && !optima && strcmp(family, "board")) {
        fprintf(stderr, "maxima-engine levels: expected board or optima, got '%s'\n", family);
        return 2;
    }
    for (int i = 1; i <= 10; i++) {
        const Level *lv = optima ? optima_level(i) : &LEVELS[i];
        printf("%d nodes %d depth %d noise %d random %d quiescence %d\n", i, lv->nodes, lv->depth, lv->noise,
               lv->random_pct, lv->quiescence);
    }
    return 0;
}
