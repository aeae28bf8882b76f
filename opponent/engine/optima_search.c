/* Search for Optima: the evaluation, move ordering (TT move, royal captures,
 * captures and conversions by victim value, killers, history) and the hooks of
 * the search written once in search_core.h (iterative deepening, PVS
 * alpha-beta, transposition table, quiescence on captures, conversions and
 * promotions, levels 1-10). A move that captures a royal unit wins at once
 * (O13); a side with no move loses; repetition is a draw. */
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
#define SC_GOPARAMS struct GoParamsOpt
#define SC_MAXPLY OMAXPLY
#define SC_MAXMOVES OP_MAXMOVES
#define SC_HIST_FROM (OP_MAXSQ + 1)        /* from + 1: a placement comes from -1 */
#define SC_HIST_TO OP_MAXSQ
#define SC_LEGALCTX OLegalCtx
#define SC_QDEPTH 6
#define SC_MATE_DISTANCE 0
#define SC_TT_MOVE_FIRST 0
#define SC_MATE_STOP_AT_ONCE 1
#define SC_QS_FAIL_SOFT 0
#define SC_COPY(q, p) op_pos_copy(q, p)
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
static int finish_eval(const OPos *p, int score) {
    int out = score * p->side + 10;
    if (level_noise) {
        uint64_t z = (p->hash ^ noise_seed) * 0x9E3779B97F4A7C15ULL;
        out += (int)((z >> 40) % (uint64_t)(2 * level_noise + 1)) - level_noise;
    }
    return out;
}
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
int op_static_eval(const OPos *p) {
    int keep = level_noise;
    level_noise = 0;
    int out = evaluate_op(p, -1, 0, NULL, -INF);
    level_noise = keep;
    return (out - 10) * p->side;
}

/* ------------------------------------------------------------ ordering */
static int gain(const OPos *p, const OMove *m) {
    if (m->from == OP_PLACE) return 0;
    int g = 0;
    for (int i = 0; i < m->ncap; i++) g += op_value(abs(p->b[m->cap[i]]));
    for (int i = 0; i < m->nconv; i++) g += 2 * op_value(abs(p->b[m->conv[i]]));
    if (m->flags & OF_PROMOTE) g += 800;
    return g;
}
static void sc_score_moves(const OPos *p, const OMoveList *l, int *sc, const OMove *ttm, int ply) {
    for (int i = 0; i < l->n; i++) {
        const OMove *m = &l->m[i];
        int s;
        if (ttm && same(m, ttm)) s = 1 << 30;
        else if (op_captures_royal(p, m)) s = 1 << 29;
        else if (op_is_capture(m) || (m->flags & OF_PROMOTE)) s = (1 << 24) + gain(p, m) * 16 - op_value(abs(p->b[m->from])) / 16;
        else if (ply < OMAXPLY && (same(m, &killers[ply][0]) || same(m, &killers[ply][1]))) s = 1 << 23;
        else s = history[m->from + 1][m->to];
        sc[i] = s;
    }
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

void op_search_go(OPos *root, const uint64_t *hist, int nhist, const struct GoParamsOpt *gp, OMove *best, int *found,
                  int silent) {
    sc_go(root, hist, nhist, gp, best, found, silent);
}

/* ------------------------------------------------------------ UCI hooks */
const char *op_start_fen(const char *variant);
static OPos uroot;
static uint64_t uhist[4096];
static int unhist;
static char uvariant[32] = "optima";

void op_uci_select(const char *variant) {
    char err[200];
    snprintf(uvariant, sizeof uvariant, "%s", variant);
    op_parse_fen(op_start_fen(uvariant), &uroot, err, sizeof err);
    unhist = 0;
    if (tt) memset(tt, 0, tt_size * sizeof *tt);
    memset(ev_cache, 0, sizeof ev_cache);   /* another game may have other rules options (O14) */
}

int op_uci_position(const char *args, const char *moves) {
    char err[200];
    OPos p;
    if (!strncmp(args, "startpos", 8)) op_parse_fen(op_start_fen(uvariant), &p, err, sizeof err);
    else if (!strncmp(args, "fen", 3)) {
        char fen[2048];   /* the FEN without the blanks around it (op_parse_fen wants single spaces only inside) */
        const char *a = args + 3;
        while (*a == ' ' || *a == '\t') a++;
        snprintf(fen, sizeof fen, "%s", a);
        for (size_t k = strlen(fen); k && (fen[k - 1] == ' ' || fen[k - 1] == '\t'); ) fen[--k] = 0;
        if (!op_parse_fen(fen, &p, err, sizeof err)) { printf("info string error bad fen: %s\n", err); fflush(stdout); return 0; }
    } else { printf("info string error position needs startpos or fen\n"); fflush(stdout); return 0; }
    unhist = 0;
    if (moves) {
        char buf[16384];
        snprintf(buf, sizeof buf, "%s", moves);
        for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
            OMove m;
            if (!op_parse_move(&p, tok, &m)) { printf("info string error illegal move %s\n", tok); fflush(stdout); break; }
            if (unhist < 4096) uhist[unhist++] = p.hash;
            op_play(&p, &m);
        }
    }
    uroot = p;
    return 1;
}

void op_uci_go(const struct GoParamsOpt *gp) {
    OMove best; int found = 0;
    OPos p = uroot;
    op_search_go(&p, uhist, unhist, gp, &best, &found, 0);
    if (gp->infinite) while (!stop_flag) { struct timespec t = {0, 2000000}; nanosleep(&t, NULL); }
    char mv[128] = "(none)";
    if (found) op_move_str(&best, mv);
    printf("bestmove %s\n", mv);
    fflush(stdout);
}

void op_uci_fen(char *out) { op_format_fen(&uroot, out); }
