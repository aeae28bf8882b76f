/* The weights of the evaluation terms beyond material (search.c, "evaluation terms"), in centipawns:
 * place: per ring of centrality of a piece of that type (0 on the edge ring); mob: per square of the
 * mobility the slider term skips (a leaper's empty targets, an orthogonal Pawn's empty squares within three
 * steps, a Mage's empty diagonal steps, a Deckle Pawn's empty square ahead); shield, near2, freezer,
 * goaldef, goal2: per piece (engine.h, TS_). GAME is a family (maxima, ultima: both Ultimas, deckle: every
 * Deckle game, 10x8 too) or a game's own name, which overrides its family's; the letter + is a Deckle
 * game's added piece. Written by opponent/tune.py --terms (--write); do not edit by hand. */
#define TERM_ADDED_LETTER '+'
static const struct { const char *game; const char *term; char letter; int value; } EVAL_TERMS[] = {
    /* maxima: python -m opponent.tune --load D --variants maxima,ultima --terms-only --ridge 0.0003 --write (fitted on maxima) */
    {"maxima", "place", 'k', -1},
    {"maxima", "place", 'g', 6},
    {"maxima", "place", 'd', 2},
    {"maxima", "place", 'q', 4},
    {"maxima", "place", 'r', 3},
    {"maxima", "place", 'n', 2},
    {"maxima", "place", 'b', 6},
    {"maxima", "place", 'm', 3},
    {"maxima", "place", 'p', 7},
    {"maxima", "mob", 'k', 1},
    {"maxima", "mob", 'g', 9},
    {"maxima", "mob", 'd', 5},
    {"maxima", "mob", 'p', -1},
    {"maxima", "shield", 0, 5},
    {"maxima", "near2", 0, -6},
    {"maxima", "freezer", 0, -20},
    {"maxima", "goaldef", 0, 10},
    {"maxima", "goal2", 0, -10},
    /* ultima: python -m opponent.tune --load D --variants maxima,ultima --terms-only --ridge 0.0003 --write (fitted on ultima), then its mob and safety entries removed by hand (all three groups lost 33/100 at 20,000 nodes a move against EvalTerms=0; placement alone won 34.5/60, mobility alone 25/60, safety alone 27/60) */
    {"ultima", "place", 'k', -1},
    {"ultima", "place", 'p', 2},
    {"ultima", "place", 'w', 4},
    {"ultima", "place", 'c', 3},
    {"ultima", "place", 'l', 4},
    {"ultima", "place", 'h', 2},
    {"ultima", "place", 'i', 4},
    /* deckle: python -m opponent.tune --load D --variants withdrawer-chess --terms-only --plies 0:120 --write (fitted on withdrawer-chess) */
    {"deckle", "place", 'k', -6},
    {"deckle", "place", 'q', 3},
    {"deckle", "place", 'r', 3},
    {"deckle", "place", 'b', 2},
    {"deckle", "place", 'n', 5},
    {"deckle", "place", '+', 6},
    {"deckle", "mob", 'k', -1},
    {"deckle", "mob", 'p', 1},
    {"deckle", "shield", 0, 6},
    {"deckle", "near2", 0, -6},
    {"deckle", "freezer", 0, -20},
    {0, 0, 0, 0},
};
