/* Levels 1-10 (search_api.h): node budget, depth cap (0: none), evaluation noise (centipawns, +-),
 * percent of random moves, quiescence. opponent/levels.py holds the same numbers with each level's
 * word (tests/test_opponent_engine_levels.py compares them with `maxima-engine levels`). */
#include <stdio.h>
#include "search_api.h"

const Level LEVELS[11] = {
    {0, 0, 0, 0, 1},
    {1000, 1, 500, 65, 0},
    {2000, 1, 250, 35, 0},
    {5000, 2, 90, 10, 1},
    {15000, 3, 0, 0, 1},
    {40000, 0, 0, 0, 1},
    {100000, 0, 0, 0, 1},
    {250000, 0, 0, 0, 1},
    {600000, 0, 0, 0, 1},
    {1500000, 0, 0, 0, 1},
    {4000000, 0, 0, 0, 1},
};

int levels_main(void) {
    for (int i = 1; i <= 10; i++)
        printf("%d nodes %d depth %d noise %d random %d quiescence %d\n", i, LEVELS[i].nodes, LEVELS[i].depth,
               LEVELS[i].noise, LEVELS[i].random_pct, LEVELS[i].quiescence);
    return 0;
}
