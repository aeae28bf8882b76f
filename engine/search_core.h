/* The search, written once for every game: iterative deepening, negamax
 * alpha-beta with principal-variation search, mate-distance pruning and a
 * one-ply late-move reduction, a transposition table (its move searched before
 * the moves are generated), move ordering (TT move, urgent moves, captures by
 * gain, two killers, history), fail-soft quiescence, node and time control,
 * levels 1-10, the evaluation's noise, and the UCI position and go of a game.
 * search.c (Maxima, Ultima, Deckle's games) and optima_search.c (Optima) each
 * include it once, with their own types and hooks (the per-game move
 * interface), so each gets its own copy of the state and of the code, compiled
 * for its types (no call through a pointer).
 *
 * The includer defines before including:
 *   SC_POS, SC_MOVE, SC_MOVELIST   position (.side, .hash), move, move list (.n, .m[])
 *   SC_MAXPLY, SC_MAXMOVES         plies searched at most; moves in a list at most
 *   SC_HIST_FROM, SC_HIST_TO       the history table's dimensions
 *   SC_LEGALCTX                    what a node keeps for testing its moves' legality
 *   SC_QDEPTH                      the quiescence depth given to the first quiescence call (0: unlimited)
 *   SC_MOVESTR                     the longest move string
 *   SC_COPY(q, p)                  (optional) *q = *p for the search's purposes
 *   SC_LEVEL(n)                    the game's level n (search_api.h's family_level)
 * and defines after including (static) the hooks declared below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search_api.h"
#ifndef SC_COPY
#define SC_COPY(q, p) (*(q) = *(p))
#endif
#define INF 32000
#define MATE 30000
#define MATE_BOUND (MATE - 1000)

/* ------------------------------------------------------------ hooks (the includer's) */
static int sc_eval(const SC_POS *p);                                  /* side to move's view, noise included */
static int sc_same(const SC_MOVE *a, const SC_MOVE *b);
static void sc_play(SC_POS *q, const SC_MOVE *m);
static void sc_prefetch(const SC_POS *q);                             /* q was just made */
static int sc_before(SC_POS *p, int ply, int *score);                 /* before the depth test: 1 = decided */
static int sc_node_end(SC_POS *p, int ply, int *score);               /* after counting the node: 1 = decided */
static int sc_generate(SC_POS *p, SC_MOVELIST *l, int ply, int *score);   /* the moves; 1 = decided */
static void sc_legal_init(SC_LEGALCTX *x);
static int sc_legal(SC_POS *p, const SC_MOVE *m, const SC_POS *q, SC_LEGALCTX *x);   /* q = p after m */
static int sc_no_moves(SC_POS *p, int ply);                           /* the score when no move was legal */
static int sc_urgent(const SC_POS *p, const SC_MOVE *m);             /* ordered before every capture */
static int sc_capture_key(const SC_POS *p, const SC_MOVE *m, int *key);   /* a capture or promotion: 1, its rank */
static int sc_quiet(const SC_MOVE *m);                                /* may be reduced */
static int sc_killer_ok(const SC_MOVE *m);                            /* may become a killer */
static int *sc_history(const SC_MOVE *m);                             /* its history counter, or NULL: last */
/* quiescence: 1 and *stand = the score to return now; else *stand = the stand-pat score and l = the
 * moves to search */
static int sc_qs_stand(SC_POS *p, int alpha, int beta, int ply, int qdepth, SC_MOVELIST *l, int *stand);
static int sc_qs_legal(SC_POS *p, const SC_MOVE *m, const SC_POS *q);
/* the root's legal moves into l, *found and a first *best; 1 = decided (no move, or a move to play at once) */
static int sc_root(SC_POS *root, SC_MOVELIST *l, SC_MOVE *best, int *found, int silent);
static void sc_move_str(const SC_MOVE *m, char *out);
static void sc_tt_ready(void);                                        /* allocates the TT if needed */
/* UCI: the start position, a FEN, a move in the position (1 = read and legal) */
static const char *sc_start_fen(void);
static int sc_parse_fen(const char *fen, SC_POS *p, char *err, int errlen);
static int sc_parse_move(SC_POS *p, const char *text, SC_MOVE *m);

/* ------------------------------------------------------------ state */
static long long nodes, node_limit;
static double t_start, t_soft, t_hard;
static int use_time, level_noise, no_quiescence;
static uint64_t noise_seed;
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

typedef struct { uint64_t key; SC_MOVE move; int16_t score; int8_t depth; uint8_t flag; } TTEntry;
enum { TT_NONE, TT_EXACT, TT_LOWER, TT_UPPER };
static TTEntry *tt;
static size_t tt_size;
static void tt_alloc(size_t bytes) {   /* the largest power of two of entries that fits */
    /* at most half the machine's memory: the pages are touched below, so a Hash
     * larger than a small Pi's memory would get the engine killed, not refused */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && (uint64_t)bytes > (uint64_t)pages * (uint64_t)page / 2)
        bytes = (size_t)((uint64_t)pages * (uint64_t)page / 2);
    size_t n = 1;
    while (n * 2 * sizeof(TTEntry) <= bytes) n *= 2;
    free(tt);
    while (!(tt = malloc(n * sizeof(TTEntry))) && n > 1024) n /= 2;
    tt_size = tt ? n : 0;
    /* touched now, so the pages are mapped before the first search (not in its time) */
    if (tt) memset(tt, 0, n * sizeof(TTEntry));
}

static SC_MOVE killers[SC_MAXPLY][2];
static int history[SC_HIST_FROM][SC_HIST_TO];
static SC_MOVE pv[SC_MAXPLY][SC_MAXPLY];
static int pvlen[SC_MAXPLY];
static uint64_t hstack[1024 + SC_MAXPLY];
static int hbase;
static SC_MOVELIST plist[SC_MAXPLY + 1];            /* the moves of each ply (search and quiescence) */
static int psc[SC_MAXPLY + 1][SC_MAXMOVES];

/* the weak levels' evaluation noise for a position, from the search's seed */
static inline int sc_noise(uint64_t hash) {
    if (!level_noise) return 0;
    uint64_t z = (hash ^ noise_seed) * 0x9E3779B97F4A7C15ULL;
    return (int)((z >> 40) % (uint64_t)(2 * level_noise + 1)) - level_noise;
}
/* White's score of p as the search sees it: the side to move's view, 10 for the move, the noise */
static inline int sc_finish_eval(const SC_POS *p, int white_score) {
    return white_score * p->side + 10 + sc_noise(p->hash);
}
/* the static evaluation for White, without the tempo bonus and the noise (self-play, the eval mode) */
static int sc_static_eval(const SC_POS *p) {
    int keep = level_noise;
    level_noise = 0;
    int out = (sc_eval(p) - 10) * p->side;
    level_noise = keep;
    return out;
}

static int check_time(void) {
    if (stop_flag) return 1;
    if (node_limit && nodes >= node_limit) { stop_flag = 1; return 1; }
    if ((nodes & 1023) == 0 && use_time && now_s() >= t_hard) { stop_flag = 1; return 1; }
    return 0;
}

static void pick(SC_MOVELIST *l, int *sc, int i) {
    int b = i;
    for (int j = i + 1; j < l->n; j++) if (sc[j] > sc[b]) b = j;
    if (b != i) { SC_MOVE t = l->m[i]; l->m[i] = l->m[b]; l->m[b] = t; int x = sc[i]; sc[i] = sc[b]; sc[b] = x; }
}

/* the moves' order (after the TT move, searched before the others): urgent moves, captures and
 * promotions by the game's key (gain, least valuable mover), the two killers, history (a move without
 * a counter last) */
static void sc_score_moves(const SC_POS *p, const SC_MOVELIST *l, int *sc, int ply) {
    for (int i = 0; i < l->n; i++) {
        const SC_MOVE *m = &l->m[i];
        int s, key;
        if (sc_urgent(p, m)) s = 1 << 29;
        else if (sc_capture_key(p, m, &key)) s = (1 << 24) + key;
        else if (ply < SC_MAXPLY && sc_same(m, &killers[ply][0])) s = 1 << 23;
        else if (ply < SC_MAXPLY && sc_same(m, &killers[ply][1])) s = (1 << 23) - 1;
        else { const int *h = sc_history(m); s = h ? *h : -1000000; }
        sc[i] = s;
    }
}

static int score_to_tt(int s, int ply) { return s > MATE_BOUND ? s + ply : s < -MATE_BOUND ? s - ply : s; }
static int score_from_tt(int s, int ply) { return s > MATE_BOUND ? s - ply : s < -MATE_BOUND ? s + ply : s; }

/* ------------------------------------------------------------ quiescence */
static int qsearch(SC_POS *p, int alpha, int beta, int ply, int qdepth) {
    nodes++;
    pvlen[ply] = 0;
    if (check_time()) return 0;
    SC_MOVELIST *l = &plist[ply];
    int stand;
    if (sc_qs_stand(p, alpha, beta, ply, qdepth, l, &stand)) return stand;
    if (stand > alpha) alpha = stand;
    int *sc = psc[ply], best = stand;
    sc_score_moves(p, l, sc, ply);
    for (int i = 0; i < l->n; i++) {
        pick(l, sc, i);
        SC_POS q; SC_COPY(&q, p);
        sc_play(&q, &l->m[i]);
        sc_prefetch(&q);
        if (!sc_qs_legal(p, &l->m[i], &q)) continue;
        int v = -qsearch(&q, -beta, -alpha, ply + 1, qdepth - 1);
        if (stop_flag) return 0;
        if (v > best) best = v;
        if (v > alpha) { alpha = v; if (v >= beta) break; }
    }
    return best;
}

/* ------------------------------------------------------------ main search */
static int search(SC_POS *p, int depth, int alpha, int beta, int ply) {
    int st;
    pvlen[ply] = 0;
    if (sc_before(p, ply, &st)) return st;
    if (depth <= 0) {
        if (no_quiescence) { nodes++; return check_time() ? 0 : sc_eval(p); }
        return qsearch(p, alpha, beta, ply, SC_QDEPTH);
    }
    nodes++;
    if (check_time()) return 0;
    if (sc_node_end(p, ply, &st)) return st;
    if (alpha < -MATE + ply) alpha = -MATE + ply;   /* mate-distance pruning */
    if (beta > MATE - ply - 1) beta = MATE - ply - 1;
    if (alpha >= beta) return alpha;
    TTEntry *e = &tt[p->hash & (tt_size - 1)];
    SC_MOVE ttmove;
    int has_tt = 0;
    if (e->key == p->hash && e->flag) {
        ttmove = e->move; has_tt = 1;
        if (ply && e->depth >= depth) {
            int s = score_from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) || (e->flag == TT_UPPER && s <= alpha)) return s;
        }
    }
    SC_MOVELIST *l = &plist[ply];
    int *sc = psc[ply];
    l->n = 0;
    int generated = 0, best = -INF, legal = 0, alpha0 = alpha;
    SC_LEGALCTX lx;
    sc_legal_init(&lx);
    SC_MOVE bestm;
    memset(&bestm, 0, sizeof bestm);
    hstack[hbase + ply] = p->hash;
    for (int i = has_tt ? -1 : 0;; i++) {
        const SC_MOVE *m;
        if (i < 0) m = &ttmove;   /* legal: stored from this very position */
        else {
            if (!generated) {
                if (sc_generate(p, l, ply, &st)) return st;
                sc_score_moves(p, l, sc, ply);
                generated = 1;
            }
            if (i >= l->n) break;
            pick(l, sc, i);
            m = &l->m[i];
            if (has_tt && sc_same(m, &ttmove)) continue;
        }
        SC_POS q; SC_COPY(&q, p);
        sc_play(&q, m);
        sc_prefetch(&q);
        if (i >= 0 && !sc_legal(p, m, &q, &lx)) continue;
        legal++;
        int v;
        if (legal == 1) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        else {
            int r = (depth >= 3 && legal > 4 && sc_quiet(m)) ? 1 : 0;   /* late move reduction */
            v = -search(&q, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (!stop_flag && v > alpha && (r || v < beta)) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        }
        if (stop_flag) return 0;
        if (v > best) {
            best = v; bestm = *m;
            if (v > alpha) {
                alpha = v;
                pv[ply][0] = *m;
                memcpy(&pv[ply][1], &pv[ply + 1][0], sizeof(SC_MOVE) * (size_t)pvlen[ply + 1]);
                pvlen[ply] = pvlen[ply + 1] + 1;
                if (v >= beta) {
                    if (sc_killer_ok(m) && ply < SC_MAXPLY) {
                        if (!sc_same(m, &killers[ply][0])) { killers[ply][1] = killers[ply][0]; killers[ply][0] = *m; }
                        int *h = sc_history(m);
                        if (h) *h += depth * depth;
                    }
                    break;
                }
            }
        }
    }
    if (!legal) return sc_no_moves(p, ply);
    e->key = p->hash; e->move = bestm; e->depth = (int8_t)depth;
    e->score = (int16_t)score_to_tt(best, ply);
    e->flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    return best;
}

/* ------------------------------------------------------------ levels, time, iterative deepening */
/* Levels (search_api.h): `go nodes N` replaces the level's budget, `go depth N` is narrowed by its
 * depth cap; with `go depth N` alone the level's budget does not apply, so a fixed-depth search (the
 * benchmarks, self-play, replays) examines the whole tree; `go infinite` has no limit but its depth. */
static void sc_go(SC_POS *root, const uint64_t *hist, int nhist, const GoParams *gp, SC_MOVE *best, int *found,
                  int silent) {
    int level = gp->level < 1 ? 10 : gp->level > 10 ? 10 : gp->level;
    const Level *lv = SC_LEVEL(level);
    t_start = now_s();
    nodes = 0;
    node_limit = gp->nodes_limit > 0 ? gp->nodes_limit : gp->depth > 0 ? 0 : lv->nodes;
    level_noise = lv->noise;
    noise_seed = gp->seed >= 0 ? ((uint64_t)gp->seed + 1) * 0x9E3779B97F4A7C15ULL ^ root->hash
                               : (uint64_t)time(NULL) * 0x2545F4914F6CDD1DULL ^ (uint64_t)clock();
    int depth_limit = gp->depth > 0 ? gp->depth : SC_MAXPLY - 4;
    if (lv->depth && depth_limit > lv->depth) depth_limit = lv->depth;
    use_time = 0;
    if (gp->movetime > 0) { use_time = 1; t_soft = t_hard = t_start + gp->movetime / 1000.0; }
    else {
        int mytime = root->side > 0 ? gp->wtime : gp->btime, inc = root->side > 0 ? gp->winc : gp->binc;
        if (mytime > 0 || inc > 0) {
            int mtg = gp->movestogo > 0 ? gp->movestogo : 30;
            double budget = mytime / (double)mtg + inc * 0.8;
            if (budget > mytime * 0.5) budget = mytime * 0.5;
            if (budget < 5) budget = 5;
            use_time = 1;
            t_soft = t_start + budget * 0.6 / 1000.0;
            t_hard = t_start + (budget * 2 < mytime * 0.5 ? budget * 2 : mytime * 0.5 > budget ? mytime * 0.5 : budget) / 1000.0;
        }
    }
    if (gp->infinite) { use_time = 0; node_limit = 0; depth_limit = gp->depth > 0 ? gp->depth : SC_MAXPLY - 4; }
    sc_tt_ready();
    memset(killers, 0, sizeof killers);
    for (int i = 0; i < SC_HIST_FROM; i++) for (int j = 0; j < SC_HIST_TO; j++) history[i][j] /= 8;
    hbase = nhist < 1024 ? nhist : 1024;
    for (int i = 0; i < hbase; i++) hstack[i] = hist[nhist - hbase + i];
    static SC_MOVELIST rl;
    *found = 0;
    if (sc_root(root, &rl, best, found, silent)) return;
    no_quiescence = !lv->quiescence && !gp->infinite;
    char mv[SC_MOVESTR];
    if (lv->random_pct && !gp->infinite) {
        uint64_t r = noise_seed * 0xD1B54A32D192ED03ULL ^ root->hash;
        r ^= r >> 29;
        if ((int)(r % 100) < lv->random_pct) {
            *best = rl.m[(r >> 8) % (uint64_t)rl.n];
            if (!silent) { sc_move_str(best, mv); printf("info depth 0 score cp 0 nodes 0 nps 0 time 0 pv %s\n", mv); fflush(stdout); }
            return;
        }
    }
    static SC_MOVE root_pv[SC_MAXPLY];
    int root_pvlen = 0;
    for (int depth = 1; depth <= depth_limit; depth++) {
        int v = search(root, depth, -INF, INF, 0);
        if (stop_flag && depth > 1) break;
        if (pvlen[0] > 0) { *best = pv[0][0]; root_pvlen = pvlen[0]; memcpy(root_pv, pv[0], sizeof(SC_MOVE) * (size_t)root_pvlen); }
        double el = now_s() - t_start;
        static char buf[8192];
        char *o = buf;
        o += sprintf(o, "info depth %d ", depth);
        if (v > MATE_BOUND) o += sprintf(o, "score mate %d", (MATE - v + 1) / 2);
        else if (v < -MATE_BOUND) o += sprintf(o, "score mate -%d", (MATE + v) / 2);
        else o += sprintf(o, "score cp %d", v);
        o += sprintf(o, " nodes %lld nps %lld time %lld pv", nodes, el > 0 ? (long long)(nodes / el) : nodes, (long long)(el * 1000));
        for (int i = 0; i < root_pvlen && o - buf < 7800; i++) { sc_move_str(&root_pv[i], mv); o += sprintf(o, " %s", mv); }
        if (!silent) { printf("%s\n", buf); fflush(stdout); }
        if (stop_flag) break;
        if (v > MATE_BOUND || v < -MATE_BOUND) {
            if (depth >= 2 * (MATE - (v > 0 ? v : -v)) + 2) break;
        }
        if (use_time && now_s() >= t_soft) break;
        if (rl.n == 1 && use_time) break;
    }
}

/* ------------------------------------------------------------ UCI: the position and go of this game */
static SC_POS uci_root;
static uint64_t uci_hist[4096];
static int uci_nhist;

static void sc_uci_start(void) {
    char err[200];
    sc_parse_fen(sc_start_fen(), &uci_root, err, sizeof err);
    uci_nhist = 0;
}

/* args: "startpos" or "fen FEN"; moves: the moves after it (or NULL). A bad FEN keeps the position;
 * the moves are played up to the first illegal one */
static int sc_uci_position(const char *args, const char *moves) {
    char err[200], fen[2048];
    SC_POS p;
    if (!strncmp(args, "startpos", 8)) snprintf(fen, sizeof fen, "%s", sc_start_fen());
    else if (!strncmp(args, "fen", 3)) {   /* without the blanks around it */
        const char *a = args + 3;
        while (*a == ' ' || *a == '\t') a++;
        snprintf(fen, sizeof fen, "%s", a);
        for (size_t k = strlen(fen); k && (fen[k - 1] == ' ' || fen[k - 1] == '\t'); ) fen[--k] = 0;
    } else { printf("info string error position needs startpos or fen\n"); fflush(stdout); return 0; }
    if (!sc_parse_fen(fen, &p, err, sizeof err)) {
        printf("info string error %s: %s\n", args[0] == 's' ? "start position" : "bad fen", err); fflush(stdout);
        return 0;
    }
    uci_nhist = 0;
    if (moves) {
        static char buf[16384];
        snprintf(buf, sizeof buf, "%s", moves);
        for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
            SC_MOVE m;
            if (!sc_parse_move(&p, tok, &m)) { printf("info string error illegal move %s\n", tok); fflush(stdout); break; }
            if (uci_nhist < 4096) uci_hist[uci_nhist++] = p.hash;
            sc_play(&p, &m);
        }
    }
    uci_root = p;
    return 1;
}

/* searches the position, then (after `stop` when infinite) says the nodes searched and the move */
static void sc_uci_go(const GoParams *gp) {
    SC_MOVE best; int found = 0;
    SC_POS p = uci_root;
    sc_go(&p, uci_hist, uci_nhist, gp, &best, &found, 0);
    if (gp->infinite) while (!stop_flag) { struct timespec t = {0, 2000000}; nanosleep(&t, NULL); }
    char mv[SC_MOVESTR] = "(none)";
    if (found) sc_move_str(&best, mv);
    double el = now_s() - t_start;
    printf("info nodes %lld time %lld\nbestmove %s\n", nodes, (long long)(el * 1000), mv);
    fflush(stdout);
}
