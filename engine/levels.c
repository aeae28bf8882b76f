/* Levels 1-10 (search_api.h): node budget, depth cap (0: none), evaluation noise (centipawns, +-),
 * percent of random moves, quiescence; one table per family, because a node budget or a noise buys a
 * different strength in each (docs/opponent.md, "The levels' ladder", measured them).
 * src/maxima_board/opponent/levels.py holds the same numbers with each level's word (tests/test_opponent_engine_levels.py
 * compares them with `maxima-engine levels FAMILY`). */
#include <stdio.h>
#include <string.h>
#include "search_api.h"

const char *const LEVEL_FAMILY_NAMES[LEVEL_FAMILIES] = {"maxima", "ultima", "deckle", "optima"};

/* levels 8-10, the same in every family */
#define TOP_ROWS {250000, 0, 0, 0, 1}, {800000, 0, 0, 0, 1}, {2500000, 0, 0, 0, 1}

static const Level ROWS[LEVEL_FAMILIES][11] = {
    [LEVEL_MAXIMA] = {
        {0, 0, 0, 0, 1},
        {500, 2, 200, 20, 1},
        {1000, 2, 130, 10, 1},
        {2000, 2, 80, 5, 1},
        {3500, 3, 40, 1, 1},
        {9000, 0, 35, 0, 1},
        {25000, 0, 0, 0, 1},
        {80000, 0, 0, 0, 1},
        TOP_ROWS,
    },
    [LEVEL_ULTIMA] = {
        {0, 0, 0, 0, 1},
        {500, 2, 180, 18, 1},
        {1000, 2, 140, 12, 1},
        {2000, 2, 70, 4, 1},
        {5000, 3, 40, 1, 1},
        {10000, 0, 30, 0, 1},
        {25000, 0, 0, 0, 1},
        {80000, 0, 0, 0, 1},
        TOP_ROWS,
    },
    [LEVEL_DECKLE] = {
        {0, 0, 0, 0, 1},
        {500, 2, 260, 26, 1},
        {1000, 2, 100, 7, 1},
        {3000, 2, 40, 2, 1},
        {5500, 3, 30, 1, 1},
        {10000, 0, 30, 0, 1},
        {30000, 0, 0, 0, 1},
        {80000, 0, 0, 0, 1},
        TOP_ROWS,
    },
    /* Optima's level 1 (both boards) has no quiescence: with it, even with +-260 and 26 % random moves, it
     * was about even with the reference player (minimax2); without, 11/40 (-168). */
    [LEVEL_OPTIMA] = {
        {0, 0, 0, 0, 1},
        {500, 2, 260, 26, 0},
        {1000, 2, 140, 12, 1},
        {2000, 2, 50, 3, 1},
        {5000, 3, 40, 1, 1},
        {10000, 0, 30, 0, 1},
        {30000, 0, 0, 0, 1},
        {100000, 0, 0, 0, 1},
        TOP_ROWS,
    },
};

const Level *family_level(int family, int n) { return &ROWS[family][n]; }

/* `maxima-engine levels FAMILY`: that family's table */
int levels_main(const char *family) {
    for (int f = 0; f < LEVEL_FAMILIES; f++) {
        if (strcmp(family, LEVEL_FAMILY_NAMES[f])) continue;
        for (int i = 1; i <= 10; i++) {
            const Level *lv = &ROWS[f][i];
            printf("%d nodes %d depth %d noise %d random %d quiescence %d\n", i, lv->nodes, lv->depth, lv->noise,
                   lv->random_pct, lv->quiescence);
        }
        return 0;
    }
    fprintf(stderr, "maxima-engine levels: expected maxima, ultima, deckle or optima, got '%s'\n", family);
    return 2;
}
