/* The weights of the evaluation terms beyond material (search.c, "evaluation terms"), in centipawns:
 * place: per ring of centrality of a piece of that type (0 on the edge ring); mob: per square of the
 * mobility the slider term skips (a leaper's empty targets, an orthogonal Pawn's empty squares within three
 * steps, a Mage's empty diagonal steps, a Deckle Pawn's empty square ahead); shield, near2, freezer,
 * goaldef, goal2: per piece (engine.h, TS_). GAME is a family (maxima, ultima: both Ultimas, deckle: every
 * Deckle game, 10x8 too) or a game's own name, which overrides its family's; the letter + is a Deckle
 * game's added piece. Written by opponent/tune.py --terms (--write); do not edit by hand. */
#define TERM_ADDED_LETTER '+'
static const struct { const char *game; const char *term; char letter; int value; } EVAL_TERMS[] = {
    /* maxima: hand-set */
    {"maxima", "place", 'g', 4}, {"maxima", "place", 'd', 2}, {"maxima", "place", 'q', 4}, {"maxima", "place", 'r', 4},
    {"maxima", "place", 'n', 4}, {"maxima", "place", 'b', 4}, {"maxima", "place", 'm', 4}, {"maxima", "place", 'p', 2},
    {"maxima", "mob", 'k', 1}, {"maxima", "mob", 'g', 3}, {"maxima", "mob", 'd', 3}, {"maxima", "mob", 'p', 1},
    {"maxima", "shield", 0, 5}, {"maxima", "near2", 0, -6}, {"maxima", "freezer", 0, -20},
    {"maxima", "goaldef", 0, 10}, {"maxima", "goal2", 0, -10},
    /* ultima: hand-set */
    {"ultima", "place", 'p', 2}, {"ultima", "place", 'w', 4}, {"ultima", "place", 'c', 4}, {"ultima", "place", 'l', 4},
    {"ultima", "place", 'h', 4}, {"ultima", "place", 'i', 4},
    {"ultima", "mob", 'k', 1}, {"ultima", "mob", 'p', 1},
    {"ultima", "shield", 0, 5}, {"ultima", "near2", 0, -6}, {"ultima", "freezer", 0, -20},
    /* deckle: hand-set */
    {"deckle", "place", 'q', 2}, {"deckle", "place", 'b', 3}, {"deckle", "place", 'n', 6}, {"deckle", "place", 'p', 3},
    {"deckle", "place", 'k', -6}, {"deckle", "place", '+', 4},
    {"deckle", "mob", 'n', 3}, {"deckle", "mob", 'p', 3},
    {"deckle", "shield", 0, 5}, {"deckle", "near2", 0, -6}, {"deckle", "freezer", 0, -20},
    {0, 0, 0, 0},
};
