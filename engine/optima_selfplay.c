/* Self-play of Optima for tuning its material values (src/maxima_board/opponent/tune.py):
 *
 *   maxima-engine selfplay optima|optima-9x9 GAMES DEPTH SEED [MAXPLIES [-]]
 *
 * as selfplay.c for the other games: GAMES games of the engine against itself
 * at a fixed DEPTH (level 10, quiescence on) from the start position, the
 * placement phase (O5) and then 2-4 plies played at random by a generator
 * seeded with SEED. With `-` after MAXPLIES the start positions are read from
 * standard input, one FEN of the variant's board a line (such as those of
 * `maxima-board new-optima --forces u1|u2|random --seed N`, other forces than
 * the default E10 / E9): game g starts from the FEN of line g (modulo their
 * number). It prints
 *
 *   types TOKEN:VALUE...                   (the 56 unit types in column order, with this build's values)
 *   pos RESULT PLY D1 .. D56 EVAL F1 .. F56  (one line per quiet position)
 *   game RESULT PLIES REASON               (one line per game)
 *
 * RESULT is White's score; Di is White's count of type i (royal or not)
 * minus Black's; EVAL is the engine's static evaluation for White
 * (centipawns, without the tempo bonus) and Fi White's frozen units (O10) of
 * type i minus Black's (the evaluation counts a frozen unit at half its
 * value), so that src/maxima_board/opponent/tune.py fits the values inside the whole
 * evaluation, as for the other games. A position is sampled when the other
 * side cannot capture a royal unit and the move the search chooses captures
 * and converts nothing. A royal capture wins (O13), a side with no move
 * loses, the third repetition of a position or MAXPLIES (default 300) is a
 * draw. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "engine.h"
#include "optima.h"

int op_static_eval(const OPos *p);      /* optima_search.c */
static uint64_t rng;
static uint64_t next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

int op_selfplay_main(int argc, char **argv) {
    if (argc < 6 || (argc > 7 && strcmp(argv[7], "-"))) {
        fprintf(stderr, "usage: maxima-engine selfplay VARIANT GAMES DEPTH SEED [MAXPLIES [-]]\n");
        return 2;
    }
    int games = atoi(argv[3]), depth = atoi(argv[4]);
    rng = (uint64_t)strtoull(argv[5], NULL, 10) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    int maxplies = argc > 6 ? atoi(argv[6]) : 300;
    int n = !strcmp(argv[2], "optima-9x9") ? 9 : 10;
    static char *starts[4096];            /* each game parses its FEN again: its rules options (O14) are selected then */
    static OPos p;
    int nstarts = 0;
    char err[200];
    if (argc > 7) {   /* start FENs on stdin, each checked before any game is played */
        static char line[4096];
        int lineno = 0;
        while (fgets(line, sizeof line, stdin)) {
            lineno++;
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0]) continue;
            if (nstarts == 4096) { fprintf(stderr, "maxima-engine: selfplay: more than 4096 start FENs\n"); return 2; }
            if (!op_parse_fen(line, &p, err, sizeof err)) {
                fprintf(stderr, "maxima-engine: selfplay: start FEN of line %d: %s\n", lineno, err);
                return 2;
            }
            if (OP_N != n) {
                fprintf(stderr, "maxima-engine: selfplay: start FEN of line %d is not a %s position (%dx%d)\n",
                        lineno, argv[2], OP_N, OP_N);
                return 2;
            }
            starts[nstarts++] = strdup(line);
        }
        if (!nstarts) { fprintf(stderr, "maxima-engine: selfplay: no start FEN on standard input\n"); return 2; }
    } else {
        starts[nstarts++] = (char *)op_start_fen(argv[2]);
    }
    if (!op_parse_fen(starts[0], &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
    printf("types");                      /* the values of this board (after its FEN is read) */
    for (int t = 1; t <= OP_NTYPES; t++) {
        printf(" %s:%d", op_token(t), op_value(t));
    }
    printf("\n");
    static uint64_t hist[1024];
    static int samples[1024][OP_NTYPES + 1], frozen[1024][OP_NTYPES + 1], evals[1024];
    static int sample_ply[1024];
    static OMoveList l, ol;
    for (int g = 0; g < games; g++) {
        if (!op_parse_fen(starts[g % nstarts], &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
        int nh = 0, ns = 0, ply = 0, opening = -1;
        double result = 0.5;
        const char *reason = "move cap";
        for (;;) {
            op_legal(&p, &l);
            if (!l.n) { result = p.side > 0 ? 0 : 1; reason = "no move"; break; }
            if (ply >= maxplies) { result = 0.5; reason = "move cap"; break; }
            int seen = 0;
            for (int i = 0; i < nh; i++) if (hist[i] == p.hash) seen++;
            if (seen >= 2) { result = 0.5; reason = "repetition"; break; }
            OMove m;
            if (p.rkind != RK_NONE || opening < 0 || ply < opening) {
                m = l.m[next_rand() % (uint64_t)l.n];
                if (p.rkind == RK_NONE && opening < 0) opening = ply + 2 + (int)(next_rand() % 3);
                if (p.rkind != RK_NONE) opening = -1;
            } else {
                GoParams gp; memset(&gp, 0, sizeof gp);
                gp.depth = depth; gp.level = 10;
                int found;
                stop_flag = 0;
                op_search_go(&p, hist, nh, &gp, &m, &found, 1);
                if (!found) break;
                if (!op_is_capture(&m) && !(m.flags & OF_PROMOTE) && ns < 1024) {
                    int threat = 0;
                    op_count(&p, -p.side, &ol, NULL);
                    for (int i = 0; i < ol.n; i++) if (ol.m[i].flags & OF_ROYAL) { threat = 1; break; }
                    if (!threat) {
                        memset(samples[ns], 0, sizeof samples[ns]);
                        memset(frozen[ns], 0, sizeof frozen[ns]);
                        OBB fz[2];
                        op_frozen(&p, fz);
                        for (int s = 0; s < OP_N * OP_N; s++) {
                            int v = p.b[s];
                            if (!v) continue;
                            samples[ns][abs(v) & OP_TYPE] += v > 0 ? 1 : -1;
                            if ((fz[v > 0].w[s >> 6] >> (s & 63)) & 1) frozen[ns][abs(v) & OP_TYPE] += v > 0 ? 1 : -1;
                        }
                        evals[ns] = op_static_eval(&p);
                        sample_ply[ns++] = ply;
                    }
                }
            }
            int royal = op_captures_royal(&p, &m), mover = p.side;
            if (nh < 1024) hist[nh++] = p.hash;
            op_play(&p, &m);
            ply++;
            if (royal) { result = mover > 0 ? 1 : 0; reason = "royal captured"; break; }
        }
        for (int i = 0; i < ns; i++) {
            printf("pos %g %d", result, sample_ply[i]);
            for (int t = 1; t <= OP_NTYPES; t++) printf(" %d", samples[i][t]);
            printf(" %d", evals[i]);
            for (int t = 1; t <= OP_NTYPES; t++) printf(" %d", frozen[i][t]);
            printf("\n");
        }
        printf("game %g %d %s\n", result, ply, reason);
        fflush(stdout);
    }
    return 0;
}
