/* maxima-engine: command line (perft, moves, children batch modes) and UCI. */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "engine.h"
#include "optima.h"

static void usage(void) {
    fprintf(stderr, "usage: maxima-engine [--eval-terms MASK] [uci | MODE ...]  (MASK: the EvalTerms option, 0-15)\n"
                    "       maxima-engine [uci]\n"
                    "       maxima-engine perft VARIANT DEPTH     (FENs on stdin, one count per line)\n"
                    "       maxima-engine moves VARIANT           (FENs on stdin, sorted legal moves per line)\n"
                    "       maxima-engine children VARIANT        (FENs on stdin, 'move fen' after each legal move, blank line after each)\n"
                    "       maxima-engine eval VARIANT            (FENs on stdin, the static evaluation for White per line)\n"
                    "       maxima-engine features VARIANT        (FENs on stdin, the evaluation terms' NAME:WEIGHT:VALUE per line,\n"
                    "                                              values White's minus Black's)\n"
                    "       maxima-engine bench VARIANT DEPTH [FEN]   (perft speed)\n"
                    "       maxima-engine search VARIANT DEPTH [FEN]  (search speed)\n"
                    "       maxima-engine selfplay VARIANT GAMES DEPTH SEED [MAXPLIES [-]]  (games for src/maxima_board/opponent/tune.py; -: Optima start FENs on stdin)\n"
                    "       maxima-engine values optima|optima-9x9    (Optima's material values, TOKEN:VALUE)\n"
                    "       maxima-engine levels FAMILY           (maxima|ultima|deckle|optima: levels 1-10: node budget, depth cap,\n"
                    "                                              noise, random moves, quiescence)\n"
                    "       maxima-engine check optima|optima-9x9     (FENs on stdin: Optima's kept state and move counts\n"
                    "                                                  against their definitions, 'ok N' or 'bad WHAT')\n");
}

static int load(const char *variant, const char *line, Pos *p) {
    char err[200];
    if (!select_variant(variant)) { fprintf(stderr, "maxima-engine: unknown variant '%s'\n", variant); exit(2); }
    if (!parse_fen(line, p, err, sizeof err)) { printf("error %s\n", err); return 0; }
    return 1;
}

static int batch(int argc, char **argv) {
    const char *mode = argv[1];
    if (argc < 3) { usage(); return 2; }
    const char *variant = argv[2];
    if (!find_variant(variant)) { fprintf(stderr, "maxima-engine: unknown variant '%s'\n", variant); return 2; }
    int depth = argc > 3 ? atoi(argv[3]) : 1;
    char line[1024];
    static char strs[MAXMOVES][64];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        Pos p;
        if (!load(variant, line, &p)) { fflush(stdout); continue; }
        if (!strcmp(mode, "perft")) {
            printf("%llu\n", (unsigned long long)perft(&p, depth));
        } else if (!strcmp(mode, "moves")) {
            MoveList l; int n;
            legal_moves(&p, &l);
            sort_move_strings(&l, strs, &n);
            for (int i = 0; i < n; i++) printf("%s%s", i ? " " : "", strs[i]);
            printf("\n");
        } else if (!strcmp(mode, "eval")) {
            printf("%d\n", static_eval(&p));
        } else if (!strcmp(mode, "features")) {
            int f[2 * MAXTYPES + NSAFETY], n = eval_term_features(&p, f);
            char name[32];
            for (int i = 0; i < n; i++) printf("%s%s:%d:%d", i ? " " : "", eval_term_name(i, name), eval_term_weight(i), f[i]);
            printf("\n");
        } else if (!strcmp(mode, "children")) {
            MoveList l; char ms[64], fen[512];
            legal_moves(&p, &l);
            for (int i = 0; i < l.n; i++) {
                Pos q = p;
                play(&q, &l.m[i]);
                move_str(&l.m[i], ms); format_fen(&q, fen);
                printf("%s %s\n", ms, fen);
            }
            printf("\n");
        } else { usage(); return 2; }
        fflush(stdout);
    }
    return 0;
}

#include "clocks.h"

static int bench(int argc, char **argv) {
    if (argc < 4 || !select_variant(argv[2])) { usage(); return 2; }
    Pos p; char err[200];
    const char *fen = argc > 4 ? argv[4] : V.start_fen;
    if (!parse_fen(fen, &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
    double t0 = wall_seconds(), c0 = cpu_seconds();
    uint64_t n = perft(&p, atoi(argv[3]));
    double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
    printf("perft %s depth %s: %llu leaves, %.3f s CPU (%.3f s wall), %.0f leaves/s CPU\n", argv[2], argv[3],
           (unsigned long long)n, dc, dt, n / (dc > 0 ? dc : 1e-9));
    return 0;
}

static int search_bench(int argc, char **argv) {
    if (argc < 4 || !select_variant(argv[2])) { usage(); return 2; }
    Pos p; char err[200];
    const char *fen = argc > 4 ? argv[4] : V.start_fen;
    if (!parse_fen(fen, &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
    GoParams gp; memset(&gp, 0, sizeof gp);
    gp.depth = atoi(argv[3]); gp.level = 10;
    Move best; int found;
    search_init(64);
    double t0 = wall_seconds(), c0 = cpu_seconds();
    search_go(&p, NULL, 0, &gp, &best, &found);
    double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
    long long n = search_nodes();
    char mv[64] = "(none)";
    if (found) move_str(&best, mv);
    printf("search %s depth %s: %lld nodes, %.3f s CPU (%.3f s wall), %.0f nodes/s CPU, best %s\n", argv[2], argv[3],
           n, dc, dt, n / (dc > 0 ? dc : 1e-9), mv);
    return 0;
}

int uci_loop(void);
int levels_main(const char *family);

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    if (argc >= 3 && !strcmp(argv[1], "--eval-terms")) {   /* EvalTerms for the modes below (and uci's default) */
        char *end;
        long v = strtol(argv[2], &end, 10);
        if (*end || v < 0 || v > ET_MAX) { fprintf(stderr, "maxima-engine: --eval-terms: expected 0 to %d, got '%s'\n", ET_MAX, argv[2]); return 2; }
        eval_terms = (int)v;
        argv[2] = argv[0]; argv += 2; argc -= 2;
    }
    if (argc >= 3 && op_is_variant(argv[2]) && (!strcmp(argv[1], "perft") || !strcmp(argv[1], "moves")
        || !strcmp(argv[1], "children") || !strcmp(argv[1], "bench") || !strcmp(argv[1], "search")
        || !strcmp(argv[1], "values") || !strcmp(argv[1], "check")))
        return op_main(argc, argv);    /* Optima has its own position and generator (optima.c) */
    if (argc >= 2 && (!strcmp(argv[1], "perft") || !strcmp(argv[1], "moves") || !strcmp(argv[1], "children")
                      || !strcmp(argv[1], "eval") || !strcmp(argv[1], "features")))
        return batch(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "bench")) return bench(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "search")) return search_bench(argc, argv);
    if (argc == 3 && !strcmp(argv[1], "levels")) return levels_main(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "selfplay") && op_is_variant(argv[2])) return op_selfplay_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "selfplay")) return selfplay_main(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "uci")) { usage(); return 2; }
    return uci_loop();
}
