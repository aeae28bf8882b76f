/* What the UCI loop and the command-line modes see of the search: the `go`
 * parameters, the levels, and the interface each game offers the UCI loop
 * (search.c for Maxima, Ultima and Deckle's games; optima_search.c for Optima;
 * both implement it with the search of search_core.h). */
#ifndef SEARCH_API_H
#define SEARCH_API_H
#include <stdint.h>

typedef struct {
    int depth, movetime, nodes_limit, infinite;
    int wtime, btime, winc, binc, movestogo;
    int level;
    long long seed;   /* the UCI option Seed: >= 0, the weak levels' noise and random moves are a function of
                       * it and the position (replays and matches repeat); -1 (not set): of the clock */
} GoParams;

/* Levels 1-10, defined by work: a node budget per move (the same play on any
 * machine; a clock's time still caps it), a depth cap, evaluation noise and a
 * share of random moves for the weakest. src/maxima_board/opponent/levels.py holds the same
 * tables with each level's word; `maxima-engine levels FAMILY` prints one. */
typedef struct { int nodes, depth, noise, random_pct, quiescence; } Level;
/* each family has its own rows (the ladder of docs/opponent.md measured them per family); the first three
 * are engine.h's FAM_MAXIMA, FAM_ULTIMA, FAM_DECKLE */
enum { LEVEL_MAXIMA, LEVEL_ULTIMA, LEVEL_DECKLE, LEVEL_OPTIMA, LEVEL_FAMILIES };
extern const char *const LEVEL_FAMILY_NAMES[LEVEL_FAMILIES];   /* "maxima", "ultima", "deckle", "optima" */
const Level *family_level(int family, int n);                  /* level n (1-10) of a family (levels.c) */

/* a game for the UCI loop */
typedef struct {
    void (*select)(const char *variant);                   /* the variant's start position, a clear table */
    int (*position)(const char *args, const char *moves);  /* "startpos"|"fen FEN", the moves after it */
    void (*go)(const GoParams *gp);                        /* searches, prints info lines and bestmove */
    void (*fen)(char *out);                                /* the current position */
    void (*clear)(void);                                   /* ucinewgame */
} UciGame;
extern const UciGame UCI_BOARD;    /* search.c */
extern const UciGame UCI_OPTIMA;   /* optima_search.c */
extern volatile int stop_flag;
#endif
