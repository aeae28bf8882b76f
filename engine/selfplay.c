/* Self-play for tuning the material values (src/maxima_board/opponent/tune.py):
 *
 *   maxima-engine selfplay VARIANT GAMES DEPTH SEED [MAXPLIES]
 *
 * plays GAMES games of the engine against itself at a fixed DEPTH (level 10,
 * quiescence on), each from the start after 4-8 random plies chosen by a
 * generator seeded with SEED, and prints
 *
 *   types LETTER:VALUE...                (the piece types in column order, with this build's values)
 *   pos RESULT PLY D1 .. Dn EVAL F1 .. Fn  (one line per quiet position)
 *   game RESULT PLIES REASON             (one line per game)
 *
 * RESULT is White's score (1, 0.5, 0); Di is White's count of type i minus
 * Black's; EVAL is the engine's static evaluation of the position for White
 * (centipawns, without the tempo bonus) and Fi White's immobilized pieces of
 * type i minus Black's (evaluate() counts an immobilized piece at half its
 * value), so that src/maxima_board/opponent/tune.py can fit the values inside the whole
 * evaluation. A position is sampled when the side to move is not in check and
 * the move the search chooses captures nothing (a quiet position, as in
 * Texel tuning). In games with a Pawn that promotes (Deckle's) a line
 *
 *   phase N PAWN_END PAWN_RUN            (N pieces other than Pawns and Kings at the start;
 *                                         the build's endgame Pawn value and runner bonus)
 *
 * follows the types line, and each pos line ends with the number of those
 * pieces on the board (both colours), evaluate()'s game phase, and White's
 * sum of the Pawns' advance shares squared (0..1024 each, doubled, a frozen
 * Pawn's not) minus Black's (eval.c, pawn_phase; src/maxima_board/opponent/tune.py
 * --pawn-phase, --pawn-run). A line
 *
 *   terms NAME:WEIGHT...                 (the evaluation terms' columns with this build's weights, 0 when
 *                                         EvalTerms masks them; eval.c, "evaluation terms")
 *
 * follows, and after each pos line a line
 *
 *   feat F1 .. Fm                        (each term's count, White's minus Black's: evaluate() adds
 *                                         WEIGHT x F of each; src/maxima_board/opponent/tune.py --terms)
 *
 * A game reaching MAXPLIES (default 300) counts as a draw; in
 * Deckle's games the third repetition of a position is a draw (D16). */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static uint64_t rng;
static uint64_t next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

int selfplay_main(int argc, char **argv) {
    if (argc < 6 || !select_variant(argv[2])) {
        fprintf(stderr, "usage: maxima-engine selfplay VARIANT GAMES DEPTH SEED [MAXPLIES]\n");
        return 2;
    }
    int games = atoi(argv[3]), depth = atoi(argv[4]);
    rng = (uint64_t)strtoull(argv[5], NULL, 10) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    int maxplies = argc > 6 ? atoi(argv[6]) : 300;
    search_silent = 1;
    search_init(16);
    printf("types");
    for (int t = 1; t <= V.ntypes; t++) printf(" %c:%d", V.t[t].letter, V.t[t].value);
    printf("\n");
    if (V.pawn) printf("phase %d %d %d\n", V.phase_pieces, V.pawn_end ? V.pawn_end : V.t[V.pawn].value, V.pawn_run);
    static int feats[1024][2 * MAXTYPES + NSAFETY];
    int nfeat = 2 * V.ntypes + NSAFETY;   /* eval_term_features's columns */
    char name[32];
    printf("terms");
    for (int i = 0; i < nfeat; i++) printf(" %s:%d", eval_term_name(i, name), eval_term_weight(i));
    printf("\n");
    static uint64_t hist[1024];
    static int samples[1024][MAXTYPES], frozen[1024][MAXTYPES], evals[1024];
    static int sample_ply[1024], pieces[1024], runs[1024];
    for (int g = 0; g < games; g++) {
        Pos p; char err[200];
        if (!parse_fen(V.start_fen, &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
        search_clear();
        int nh = 0, ns = 0, ply = 0;
        double result = 0.5;
        const char *reason = "move cap";
        int opening = 4 + (int)(next_rand() % 5);
        for (;;) {
            if (game_end(&p, &result)) { reason = "end"; break; }
            if (ply >= maxplies) { result = 0.5; reason = "move cap"; break; }
            if (V.repetition) {
                int seen = 0;
                for (int i = 0; i < nh; i++) if (hist[i] == p.hash) seen++;
                if (seen >= 2) { result = 0.5; reason = "repetition"; break; }
            }
            Move m;
            if (ply < opening) {
                MoveList l;
                legal_moves(&p, &l);
                m = l.m[next_rand() % (uint64_t)l.n];
            } else {
                GoParams gp; memset(&gp, 0, sizeof gp);
                gp.depth = depth; gp.level = 10;
                int found;
                stop_flag = 0;
                search_go(&p, hist, nh, &gp, &m, &found);
                if (!found) break;
                if (!m.ncap && m.kind != K_PROMOTE && !in_check(&p) && ns < 1024) {
                    memset(samples[ns], 0, sizeof samples[ns]);
                    memset(frozen[ns], 0, sizeof frozen[ns]);
                    uint64_t fz[2][2];
                    frozen_mask(&p, 1, fz[1]); frozen_mask(&p, -1, fz[0]);
                    for (int s = 0; s < V.g.size; s++) {
                        int v = p.b[s];
                        if (!v) continue;
                        samples[ns][v > 0 ? v : -v] += v > 0 ? 1 : -1;
                        if ((fz[v > 0][s >> 6] >> (s & 63)) & 1) frozen[ns][v > 0 ? v : -v] += v > 0 ? 1 : -1;
                    }
                    evals[ns] = static_eval(&p);
                    int pawns2;
                    pawn_phase_counts(&p, (const uint64_t (*)[2])fz, &pieces[ns], &pawns2, &runs[ns]);
                    eval_term_features(&p, feats[ns]);
                    sample_ply[ns++] = ply;
                }
            }
            if (nh < 1024) hist[nh++] = p.hash;
            play(&p, &m);
            ply++;
        }
        for (int i = 0; i < ns; i++) {
            printf("pos %g %d", result, sample_ply[i]);
            for (int t = 1; t <= V.ntypes; t++) printf(" %d", samples[i][t]);
            printf(" %d", evals[i]);
            for (int t = 1; t <= V.ntypes; t++) printf(" %d", frozen[i][t]);
            if (V.pawn) printf(" %d %d", pieces[i], runs[i]);
            printf("\nfeat");
            for (int j = 0; j < nfeat; j++) printf(" %d", feats[i][j]);
            printf("\n");
        }
        printf("game %g %d %s\n", result, ply, reason);
        fflush(stdout);
    }
    return 0;
}
