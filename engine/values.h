/* Material values fitted to self-play results (centipawns), overriding the
 * hand-set values of variants.c for these games, each kept because it won its
 * check match against the hand-set values (docs/opponent-engine.md, "Tuned
 * material values"). Written by opponent/tune.py (--write); do not edit by hand. */
static const struct { const char *variant; char letter; int value; } TUNED_VALUES[] = {
    /* maxima: python -m opponent.tune --games 600 --depth 3 --jobs 3 --write (material only, 23 Nov 2026) */
    {"maxima", 'g', 721},
    {"maxima", 'd', 115},
    {"maxima", 'q', 437},
    {"maxima", 'r', 517},
    {"maxima", 'n', 558},
    {"maxima", 'b', 354},
    {"maxima", 'm', 880},
    {"maxima", 'p', 61},
    /* ultima: maxima-engine selfplay ultima 589 4 11 300 > D/ultima.txt; python -m opponent.tune --variants ultima --load D --write */
    {"ultima", 'p', 78},
    {"ultima", 'w', 363},
    {"ultima", 'c', 645},
    {"ultima", 'l', 482},
    {"ultima", 'h', 416},
    {"ultima", 'i', 785},
    /* immobilizer-chess: maxima-engine selfplay immobilizer-chess 400 4 11 300 > D/immobilizer-chess.txt; python -m opponent.tune --variants immobilizer-chess --load D --also-10x8 --write */
    {"immobilizer-chess", 'q', 1019},
    {"immobilizer-chess", 'r', 508},
    {"immobilizer-chess", 'b', 247},
    {"immobilizer-chess", 'n', 227},
    {"immobilizer-chess", 'p', 18},
    {"immobilizer-chess", 'i', 813},
    /* immobilizer-chess-10x8: maxima-engine selfplay immobilizer-chess 400 4 11 300 > D/immobilizer-chess.txt; python -m opponent.tune --variants immobilizer-chess --load D --also-10x8 --write */
    {"immobilizer-chess-10x8", 'q', 1019},
    {"immobilizer-chess-10x8", 'r', 508},
    {"immobilizer-chess-10x8", 'b', 247},
    {"immobilizer-chess-10x8", 'n', 227},
    {"immobilizer-chess-10x8", 'p', 18},
    {"immobilizer-chess-10x8", 'i', 813},
    /* mimotaur-chess: maxima-engine selfplay mimotaur-chess 250 4 11 300 > D/mimotaur-chess.txt; python -m opponent.tune --variants mimotaur-chess --load D --write */
    {"mimotaur-chess", 'q', 937},
    {"mimotaur-chess", 'r', 542},
    {"mimotaur-chess", 'b', 298},
    {"mimotaur-chess", 'n', 309},
    {"mimotaur-chess", 'p', 128},
    {"mimotaur-chess", 'm', 486},
    /* long-leaper-chess: maxima-engine selfplay long-leaper-chess 400 4 11 300 > D/long-leaper-chess.txt; python -m opponent.tune --variants long-leaper-chess --load D --plies 0:120 --also-10x8 --write */
    {"long-leaper-chess", 'q', 948},
    {"long-leaper-chess", 'r', 560},
    {"long-leaper-chess", 'b', 253},
    {"long-leaper-chess", 'n', 214},
    {"long-leaper-chess", 'p', 84},
    {"long-leaper-chess", 'l', 614},
    /* long-leaper-chess-10x8: maxima-engine selfplay long-leaper-chess 400 4 11 300 > D/long-leaper-chess.txt; python -m opponent.tune --variants long-leaper-chess --load D --plies 0:120 --also-10x8 --write */
    {"long-leaper-chess-10x8", 'q', 948},
    {"long-leaper-chess-10x8", 'r', 560},
    {"long-leaper-chess-10x8", 'b', 253},
    {"long-leaper-chess-10x8", 'n', 214},
    {"long-leaper-chess-10x8", 'p', 84},
    {"long-leaper-chess-10x8", 'l', 614},
    /* advancer-chess: maxima-engine selfplay advancer-chess 250 4 11 300 > D/advancer-chess.txt; python -m opponent.tune --variants advancer-chess --load D --plies 0:120 --also-10x8 --write */
    {"advancer-chess", 'q', 1092},
    {"advancer-chess", 'r', 574},
    {"advancer-chess", 'b', 303},
    {"advancer-chess", 'n', 204},
    {"advancer-chess", 'p', 77},
    {"advancer-chess", 'a', 800},
    /* advancer-chess-10x8: maxima-engine selfplay advancer-chess 250 4 11 300 > D/advancer-chess.txt; python -m opponent.tune --variants advancer-chess --load D --plies 0:120 --also-10x8 --write */
    {"advancer-chess-10x8", 'q', 1092},
    {"advancer-chess-10x8", 'r', 574},
    {"advancer-chess-10x8", 'b', 303},
    {"advancer-chess-10x8", 'n', 204},
    {"advancer-chess-10x8", 'p', 77},
    {"advancer-chess-10x8", 'a', 800},
    /* pushme-pullyu-chess: maxima-engine selfplay pushme-pullyu-chess 250 4 11 300 > D/pushme-pullyu-chess.txt; python -m opponent.tune --variants pushme-pullyu-chess --load D --plies 0:120 --also-10x8 --write */
    {"pushme-pullyu-chess", 'q', 1329},
    {"pushme-pullyu-chess", 'r', 472},
    {"pushme-pullyu-chess", 'b', 258},
    {"pushme-pullyu-chess", 'n', 209},
    {"pushme-pullyu-chess", 'p', 56},
    {"pushme-pullyu-chess", 'u', 1045},
    /* pushme-pullyu-chess-10x8: maxima-engine selfplay pushme-pullyu-chess 250 4 11 300 > D/pushme-pullyu-chess.txt; python -m opponent.tune --variants pushme-pullyu-chess --load D --plies 0:120 --also-10x8 --write */
    {"pushme-pullyu-chess-10x8", 'q', 1329},
    {"pushme-pullyu-chess-10x8", 'r', 472},
    {"pushme-pullyu-chess-10x8", 'b', 258},
    {"pushme-pullyu-chess-10x8", 'n', 209},
    {"pushme-pullyu-chess-10x8", 'p', 56},
    {"pushme-pullyu-chess-10x8", 'u', 1045},
    {0, 0, 0},
};
