/* The evaluation terms (terms.h) each family plays with by default: the ET_ groups (engine.h: 1 placement,
 * 2 the other kinds' mobility, 4 King and goal safety) whose check match showed a gain, a 95 % interval
 * above zero, in at least 400 games at 300,000 nodes a move against the same build without them:
 *
 *     python bench/eval_check.py --new 'builtin:EvalTerms=15' --old 'builtin:EvalTerms=0' --variant V
 *
 * (EvalTerms=15: every group, with the fitted weights of terms.h also where they are not kept here).
 * A family that is not listed, or whose check has not been played, keeps none. The matches and their
 * figures: docs/opponent.md, "Evaluation terms". */
static const struct { const char *family; int mask; } KEPT_TERMS[] = {
    {"maxima", 7},     /* 27 Nov 2026: 259/404 (+234 =50 -120), +101 Elo [+69 .. +135] */
    {"ultima", 0},     /* 27 Nov 2026 (placement, its only group): 131.5/292 (+89 =85 -118), -35 Elo [-69 .. -1] */
    {"deckle", 7},     /* 27 Nov 2026, 8 games, both boards: 251.5/416 (+191 =121 -104), +74 Elo [+46 .. +103] */
    {0, 0},
};
