/* Levels 1-10 (search_api.h): node budget, depth cap (0: none), evaluation noise (centipawns, +-),
 * percent of random moves, quiescence. opponent/levels.py holds the same numbers with each level's
 * word (tests/test_opponent_engine_levels.py compares them with `maxima-engine levels`). */
#include <stdio.h>
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

int levels_main(void) {
    for (int i = 1; i <= 10; i++)
        printf("%d nodes %d depth %d noise %d random %d quiescence %d\n", i, LEVELS[i].nodes, LEVELS[i].depth,
               LEVELS[i].noise, LEVELS[i].random_pct, LEVELS[i].quiescence);
    return 0;
}
