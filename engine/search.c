/* Search for Maxima, Ultima and Deckle's games (the evaluation is eval.c's): the game's
 * end, the capture order (victim value) and the hooks of the search written
 * once in search_core.h (iterative deepening, PVS alpha-beta, transposition
 * table, move ordering, quiescence on captures, mate scores, node and time
 * control, levels 1-10, UCI position and go). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"
#include "eval.h"

#define MAXPLY 96

volatile int stop_flag;
int search_silent;   /* no info lines (self-play) */

/* legal_prepare's squares, prepared once LEGAL_PREPARE_AFTER moves were tested in full (a node that
 * cuts off after a move or two does not pay for them; the answers are the same either way) */
#define LEGAL_PREPARE_AFTER 2
typedef struct { int hz, tested; uint8_t z[MAXSQ]; } LegalCtx;
#define SC_POS Pos
#define SC_MOVE Move
#define SC_MOVELIST MoveList
#define SC_MAXPLY MAXPLY
#define SC_MAXMOVES MAXMOVES
#define SC_HIST_FROM MAXSQ
#define SC_HIST_TO MAXSQ
#define SC_LEGALCTX LegalCtx
#define SC_QDEPTH 0                /* unlimited: the captures run out */
#define SC_MOVESTR 64
#define SC_LEVEL(n) family_level(V.family, n)   /* FAM_X == LEVEL_X (search_api.h) */
#include "search_core.h"
_Static_assert((int)FAM_MAXIMA == LEVEL_MAXIMA && (int)FAM_ULTIMA == LEVEL_ULTIMA && (int)FAM_DECKLE == LEVEL_DECKLE,
               "a family's levels are ROWS[V.family] (levels.c)");

long long search_nodes(void) { return nodes; }

void search_init(int hash_mb) {
    if (hash_mb < 1) hash_mb = 1;
    tt_alloc((size_t)hash_mb << 20);
}
void search_clear(void) { if (tt) memset(tt, 0, tt_size * sizeof(TTEntry)); }
static void sc_tt_ready(void) { if (!tt) search_init(16); }

static inline int same_move(const Move *a, const Move *b) {
    if (a->from != b->from || a->to != b->to || a->kind != b->kind || a->arg != b->arg || a->ncap != b->ncap) return 0;
    for (int i = 0; i < a->ncap; i++) if (a->cap[i] != b->cap[i]) return 0;
    return 1;
}

/* the side to move's evaluation as the search sees it: eval.c's score for White, turned, with the
 * tempo bonus and the weak levels' noise */
int evaluate(const Pos *p) { return sc_finish_eval(p, eval_board(p)); }

/* the evaluation cache's and the TT's slots of a position just made, fetched
 * ahead of its search (both are mostly cache misses) */
static inline void prefetch_pos(const Pos *q) {
    eval_prefetch(q);
    if (tt) __builtin_prefetch(&tt[q->hash & (tt_size - 1)]);
}

/* the static evaluation for White, without the tempo bonus and the weak levels' noise (selfplay's EVAL,
 * the eval mode) */
int static_eval(const Pos *p) { return sc_static_eval(p); }

/* ------------------------------------------------------------ game end */
static int game_over_static(const Pos *p, int ply, int *score) {
    int side = p->side;
    if (V.palace && palace_held(p, side, -side)) { *score = -MATE + ply; return 1; }
    if (V.bare_king) {
        if (piece_count(p, side > 0) == 1) { *score = -MATE + ply; return 1; }
    }
    if (V.family == FAM_DECKLE) {
        if (piece_count(p, 2) == 2 || p->halfmove >= 100) { *score = 0; return 1; }
    }
    return 0;
}

static int no_move_score(const Pos *p, int ply) {
    if (in_check(p)) return -MATE + ply;
    if (V.stalemate_mover_wins) return -MATE + ply;
    return 0;
}


/* ------------------------------------------------------------ ordering */
static int capture_value(const Pos *p, const Move *m) {
    int v = 0;
    for (int i = 0; i < m->ncap; i++) { int x = p->b[m->cap[i]]; v += V.t[x > 0 ? x : -x].value + 1; }
    if (m->kind == K_PROMOTE) v += V.t[(int)m->arg].value;
    return v;
}

/* most valuable victim, least valuable mover; a mutual destruction after the other captures */
static int sc_capture_key(const Pos *p, const Move *m, int *key) {
    if (!m->ncap && m->kind != K_PROMOTE) return 0;
    int mover = p->b[m->from];
    *key = capture_value(p, m) * 16 - V.t[mover > 0 ? mover : -mover].value / 16 - (m->to < 0 ? 1 << 20 : 0);
    return 1;
}
static int sc_urgent(const Pos *p, const Move *m) { (void)p; (void)m; return 0; }

/* ------------------------------------------------------------ the search's hooks */
static int sc_eval(const Pos *p) { return evaluate(p); }
static int sc_same(const Move *a, const Move *b) { return same_move(a, b); }
static void sc_play(Pos *q, const Move *m) { play(q, m); }
static void sc_prefetch(const Pos *q) { prefetch_pos(q); }
static int sc_before(Pos *p, int ply, int *score) { (void)p; (void)ply; (void)score; return 0; }
static int sc_node_end(Pos *p, int ply, int *score) {
    if (ply && game_over_static(p, ply, score)) return 1;
    if (ply && V.repetition) {
        for (int i = hbase + ply - 2; i >= 0 && i >= hbase + ply - p->halfmove; i -= 2)
            if (hstack[i] == p->hash) { *score = 0; return 1; }
    }
    if (ply >= MAXPLY - 1) { *score = evaluate(p); return 1; }
    return 0;
}
/* pseudo-legal moves (with castling, en passant, the swap ban); legality is tested after each is made */
static int sc_generate(Pos *p, MoveList *l, int ply, int *score) { (void)ply; (void)score; candidates(p, l); return 0; }
static void sc_legal_init(LegalCtx *x) { x->hz = -1; x->tested = 0; }
static int sc_legal(Pos *p, const Move *m, const Pos *q, LegalCtx *x) {
    if (x->hz < 0) {
        if (x->tested++ < LEGAL_PREPARE_AFTER) return move_legal(p, m, 0, NULL, q);
        x->hz = legal_prepare(p, x->z);
    }
    return move_legal(p, m, x->hz, x->z, q);
}
static int sc_no_moves(Pos *p, int ply) { return no_move_score(p, ply); }
static int sc_quiet(const Move *m) { return !m->ncap && m->kind != K_PROMOTE; }
static int sc_killer_ok(const Move *m) { return !m->ncap; }
static int *sc_history(const Move *m) { return m->to >= 0 ? &history[m->from][m->to] : NULL; }   /* suicide last */
static int sc_qs_stand(Pos *p, int alpha, int beta, int ply, int qdepth, MoveList *l, int *stand) {
    (void)alpha; (void)qdepth;
    if (game_over_static(p, ply, stand)) return 1;
    *stand = evaluate(p);
    if (ply >= MAXPLY - 1 || *stand >= beta) return 1;
    capture_moves(p, l);
    int j = 0;
    for (int i = 0; i < l->n; i++) if (l->m[i].ncap || l->m[i].kind == K_PROMOTE) l->m[j++] = l->m[i];
    l->n = j;
    return 0;
}
/* few moves: the full test is cheaper than the shortcut's set-up */
static int sc_qs_legal(Pos *p, const Move *m, const Pos *q) { return move_legal(p, m, 0, NULL, q); }
static int sc_root(Pos *root, MoveList *l, Move *best, int *found, int silent) {
    (void)silent;
    legal_moves(root, l);
    *found = l->n > 0;
    if (!l->n) return 1;
    *best = l->m[0];
    return 0;
}
static void sc_move_str(const Move *m, char *out) { move_str(m, out); }

void search_go(Pos *root, const uint64_t *hist, int nhist, const GoParams *gp, Move *best, int *found) {
    sc_go(root, hist, nhist, gp, best, found, search_silent);
}

/* ------------------------------------------------------------ UCI */
static const char *sc_start_fen(void) { return V.start_fen; }
static int sc_parse_fen(const char *fen, Pos *p, char *err, int errlen) { return parse_fen(fen, p, err, errlen); }
static int sc_parse_move(Pos *p, const char *text, Move *m) { return parse_move_legal(p, text, m); }
static void uci_select(const char *variant) { select_variant(variant); sc_uci_start(); search_clear(); }
static void uci_fen(char *out) { format_fen(&uci_root, out); }
const UciGame UCI_BOARD = {uci_select, sc_uci_position, sc_uci_go, uci_fen, search_clear};

/* the game's end before a move is chosen: 1 and *white_score (1, 0.5, 0) when over */
int game_end(Pos *p, double *white_score) {
    int st;
    if (game_over_static(p, 0, &st)) {
        *white_score = st == 0 ? 0.5 : (st > 0) == (p->side > 0) ? 1.0 : 0.0;
        return 1;
    }
    if (!count_legal(p)) {
        int v = no_move_score(p, 0);
        *white_score = v == 0 ? 0.5 : (v > 0) == (p->side > 0) ? 1.0 : 0.0;
        return 1;
    }
    return 0;
}

