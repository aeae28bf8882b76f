/* Search for Optima: the evaluation, the capture order (royal captures first,
 * captures and conversions by victim value) and the hooks of the search
 * written once in search_core.h (iterative deepening, PVS alpha-beta,
 * transposition table, move ordering, quiescence on captures, conversions and
 * promotions, node and time control, levels 1-10, UCI position and go). A move
 * that captures a royal unit wins at once (O13); a side with no move loses;
 * repetition is a draw. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include "engine.h"
#include "optima.h"

#define OMAXPLY 64
typedef struct { int unused; } OLegalCtx;    /* every generated move is legal */
#define SC_POS OPos
#define SC_MOVE OMove
#define SC_MOVELIST OMoveList
#define SC_MAXPLY OMAXPLY
#define SC_MAXMOVES OP_MAXMOVES
#define SC_HIST_FROM (OP_MAXSQ + 1)        /* from + 1: a placement comes from -1 */
#define SC_HIST_TO OP_MAXSQ
#define SC_LEGALCTX OLegalCtx
#define SC_QDEPTH 6
#define SC_MOVESTR 128
#define SC_COPY(q, p) op_pos_copy(q, p)
#define SC_LEVEL(n) family_level(LEVEL_OPTIMA, n)
#include "search_core.h"

long long op_search_nodes(void) { return nodes; }
static void sc_tt_ready(void) { if (!tt) tt_alloc((size_t)(1 << 18) * sizeof(TTEntry)); }

static inline int same(const OMove *a, const OMove *b) {
    return a->from == b->from && a->to == b->to && a->flags == b->flags && a->value == b->value && a->ncap == b->ncap
        && a->nconv == b->nconv && !memcmp(a->cap, b->cap, a->ncap) && !memcmp(a->conv, b->conv, a->nconv);
}

/* ------------------------------------------------------------ evaluation */
/* Material (optima.c's table of the board, kept by op_play; fitted to
 * self-play), frozen units at half value
 * (O10), mobility (legal moves of each side, 4 each), royal safety (a royal the
 * opponent could capture costs 250, each enemy unit next to a royal 15), from
 * the side to move's view. */
static OMoveList ev_l;
#define EV_CACHE (1 << 18)
/* White's score by position key; moving: the position was evaluated by the quiescence search, so its
 * side to move has a move and none that captures a royal */
static struct { uint64_t key; int score, moving; } ev_cache[EV_CACHE];
#define finish_eval sc_finish_eval
/* own_n >= 0: the side to move has own_n moves, own_royal of them capture a royal (then moving: the
 * quiescence search's call). fz: both colours' frozen units (op_frozen) or NULL. A score at or below
 * `fail_low` may be returned as such a bound instead (not cached): the other side's moves only lower it */
static int evaluate_op(const OPos *p, int own_n, int own_royal, const OBB *fz, int fail_low) {
    int score = 0, n = OP_N * OP_N;
    unsigned slot = (unsigned)(p->hash & (EV_CACHE - 1));
    if (ev_cache[slot].key == p->hash && p->hash) return finish_eval(p, ev_cache[slot].score);
    if (p->rkind == RK_NONE) {
        OBB own_fz[2];
        if (!fz) { op_frozen(p, own_fz); fz = own_fz; }
        score = p->material;                   /* a frozen unit counts half (rounded as val / 2) */
        for (int ci = 0; ci < 2; ci++)
            for (int w = 0; w < 2; w++)
                for (uint64_t bits = fz[ci].w[w]; bits; bits &= bits - 1) {
                    int s = w * 64 + __builtin_ctzll(bits), val = op_value(abs(p->b[s]));
                    score -= ci ? val - val / 2 : -(val - val / 2);
                }
        for (int w = 0; w < 2; w++)       /* royal safety: enemy units next to a royal */
          for (uint64_t bits = p->royals.w[w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits);
            score -= (p->b[s] > 0 ? 15 : -15) * op_enemies_around(p, s);
        }
        /* mobility and royal threats: the number of legal moves of each side (counted, plain moves not
         * listed) and whether one of them captures a royal */
        if (own_n >= 0) {
            score += p->side * (4 * own_n + (own_royal ? 250 : 0));
            int bound = finish_eval(p, score);
            if (bound <= fail_low) return bound;
        }
        for (int ci = 0; ci < 2; ci++) {
            int c = ci ? 1 : -1, cnt, royal = 0;
            if (own_n >= 0 && c == p->side) continue;
            cnt = op_count(p, c, &ev_l, &fz[c > 0]);
            for (int i = 0; i < ev_l.n; i++) if (ev_l.m[i].flags & OF_ROYAL) { royal = 1; break; }
            score += c * 4 * cnt;
            if (royal) score += c * 250;
        }
    } else {   /* placement (O5): placed units and each side's own hand (eq); a shared pool counts for no one */
        for (int s = 0; s < n; s++) if (p->b[s]) score += (p->b[s] > 0 ? 1 : -1) * op_value(abs(p->b[s]));
        if (p->rkind == RK_EQ)
            for (int k = 0; k < 128; k++) score += (p->hand[1][k] - p->hand[0][k]) * (k ? op_value(k) : 0);
    }
    ev_cache[slot].key = p->hash; ev_cache[slot].score = score; ev_cache[slot].moving = own_n >= 0;
    return finish_eval(p, score);
}

/* the static evaluation for White, without the tempo bonus and the weak levels' noise (selfplay's EVAL) */
int op_static_eval(const OPos *p) { return sc_static_eval(p); }

/* ------------------------------------------------------------ ordering */
static int gain(const OPos *p, const OMove *m) {
    if (m->from == OP_PLACE) return 0;
    int g = 0;
    for (int i = 0; i < m->ncap; i++) g += op_value(abs(p->b[m->cap[i]]));
    for (int i = 0; i < m->nconv; i++) g += 2 * op_value(abs(p->b[m->conv[i]]));
    if (m->flags & OF_PROMOTE) g += 800;
    return g;
}
static int sc_urgent(const OPos *p, const OMove *m) { return op_captures_royal(p, m); }
static int sc_capture_key(const OPos *p, const OMove *m, int *key) {
    if (!op_is_capture(m) && !(m->flags & OF_PROMOTE)) return 0;
    *key = gain(p, m) * 16 - op_value(abs(p->b[m->from])) / 16;
    return 1;
}

/* ------------------------------------------------------------ the search's hooks */
static int sc_eval(const OPos *p) { return evaluate_op(p, -1, 0, NULL, -INF); }
static int sc_same(const OMove *a, const OMove *b) { return same(a, b); }
static void sc_play(OPos *q, const OMove *m) { op_play(q, m); }
static void sc_prefetch(const OPos *q) { (void)q; }
static int sc_before(OPos *p, int ply, int *score) {   /* a repeated position is a draw */
    if (ply > 0)
        for (int i = hbase + ply - 2; i >= 0; i -= 2) if (hstack[i] == p->hash) { *score = 0; return 1; }
    return 0;
}
static int sc_node_end(OPos *p, int ply, int *score) {
    if (ply >= OMAXPLY - 2) { *score = evaluate_op(p, -1, 0, NULL, -INF); return 1; }
    return 0;
}
static int sc_generate(OPos *p, OMoveList *l, int ply, int *score) {
    op_legal(p, l);
    if (!l->n) { *score = -MATE + ply; return 1; }   /* no moves: the side to move loses (O13) */
    for (int i = 0; i < l->n; i++)
        if (op_captures_royal(p, &l->m[i])) {        /* royal capture ends the game (O13) */
            pv[ply][0] = l->m[i]; pvlen[ply] = 1;
            *score = MATE - ply - 1;
            return 1;
        }
    return 0;
}
static void sc_legal_init(OLegalCtx *x) { (void)x; }
static int sc_legal(OPos *p, const OMove *m, const OPos *q, OLegalCtx *x) { (void)p; (void)m; (void)q; (void)x; return 1; }
static int sc_no_moves(OPos *p, int ply) { (void)p; return -MATE + ply; }
static int sc_quiet(const OMove *m) { return !op_is_capture(m) && !(m->flags & OF_PROMOTE); }
static int sc_killer_ok(const OMove *m) { return sc_quiet(m); }
static int *sc_history(const OMove *m) { return &history[m->from + 1][m->to]; }
static int sc_qs_stand(OPos *p, int alpha, int beta, int ply, int qdepth, OMoveList *l, int *stand) {
    int last = qdepth <= 0 || ply >= OMAXPLY - 2;
    unsigned slot = (unsigned)(p->hash & (EV_CACHE - 1));
    if (ev_cache[slot].key == p->hash && p->hash && ev_cache[slot].moving) {   /* known to have a move, no royal capture */
        *stand = finish_eval(p, ev_cache[slot].score);
        if (*stand >= beta || last) return 1;
    }
    OBB fz[2];
    op_frozen(p, fz);
    int nall = op_count(p, p->side, l, &fz[p->side > 0]);   /* l: the captures, conversions, promotions and swaps */
    if (!nall) { *stand = -MATE + ply; return 1; }
    for (int i = 0; i < l->n; i++) if (op_captures_royal(p, &l->m[i])) { *stand = MATE - ply - 1; return 1; }
    /* a stand-pat at or below alpha changes nothing below (the result is alpha or a capture's score), so
     * its exact value is not needed then */
    *stand = evaluate_op(p, nall, 0, fz, last ? -INF : alpha);
    if (*stand >= beta || last) return 1;
    int k = 0;
    for (int i = 0; i < l->n; i++) if (op_is_capture(&l->m[i]) || (l->m[i].flags & OF_PROMOTE)) l->m[k++] = l->m[i];
    l->n = k;
    return 0;
}
static int sc_qs_legal(OPos *p, const OMove *m, const OPos *q) { (void)p; (void)m; (void)q; return 1; }
static int sc_root(OPos *root, OMoveList *l, OMove *best, int *found, int silent) {
    op_legal(root, l);
    *found = l->n > 0;
    if (!l->n) return 1;
    *best = l->m[0];
    for (int i = 0; i < l->n; i++)
        if (op_captures_royal(root, &l->m[i])) {   /* mate in 1 = royal capture: take it */
            *best = l->m[i];
            if (!silent) {
                char mv[128];
                op_move_str(best, mv); printf("info depth 1 score mate 1 nodes 1 nps 0 time 0 pv %s\n", mv); fflush(stdout);
            }
            return 1;
        }
    return 0;
}
static void sc_move_str(const OMove *m, char *out) { op_move_str(m, out); }

void op_search_go(OPos *root, const uint64_t *hist, int nhist, const GoParams *gp, OMove *best, int *found,
                  int silent) {
    sc_go(root, hist, nhist, gp, best, found, silent);
}

/* ------------------------------------------------------------ UCI */
static char uvariant[32] = "optima";
static const char *sc_start_fen(void) { return op_start_fen(uvariant); }
static int sc_parse_fen(const char *fen, OPos *p, char *err, int errlen) { return op_parse_fen(fen, p, err, errlen); }
static int sc_parse_move(OPos *p, const char *text, OMove *m) { return op_parse_move(p, text, m); }

static void uci_clear(void) { if (tt) memset(tt, 0, tt_size * sizeof *tt); }
static void uci_select(const char *variant) {
    snprintf(uvariant, sizeof uvariant, "%s", variant);
    sc_uci_start();
    uci_clear();
    memset(ev_cache, 0, sizeof ev_cache);   /* another game may have other rules options (O14) */
}
static void uci_fen(char *out) { op_format_fen(&uci_root, out); }
const UciGame UCI_OPTIMA = {uci_select, sc_uci_position, sc_uci_go, uci_fen, uci_clear};
