/* Optima's command-line modes (main.c hands them over): perft, moves, children, bench, search, values
 * and check (the kept state and move counts against their definitions). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "optima_rules.h"
#include "clocks.h"

static int cmpstr(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* `check`: the state op_play keeps (square sets, material), the one-pass frozen map and op_count against
 * their from-scratch definitions, for a position and every position after one of its legal moves */
static void frozen_ref(const int8_t *b, int c, OBB *fz) {   /* O10 for colour c, square by square */
    memset(fz, 0, sizeof *fz);
    for (int q = 0; q < OP_SIZE; q++)
        if (b[q] * c < 0 && op_immob[abs(b[q])] != IM_NO) op_freeze_around(b, q, c, fz);
}
static int same_bb(OBB a, OBB b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static const char *check_one(const OPos *p) {
    static OMoveList all, listed;
    OPos q = *p;
    op_sync(&q);
    if (!same_bb(q.occ[0], p->occ[0]) || !same_bb(q.occ[1], p->occ[1])) return "occupancy";
    if (!same_bb(q.pawns, p->pawns) || !same_bb(q.guards, p->guards)) return "pawns/guards";
    if (!same_bb(q.immob, p->immob) || !same_bb(q.royals, p->royals)) return "immobilizers/royals";
    int mat = 0;
    for (int s = 0; s < OP_SIZE; s++) if (p->b[s]) mat += p->b[s] > 0 ? op_value(p->b[s]) : -op_value(-p->b[s]);
    if (mat != p->material) return "material";
    OBB fz[2], ref;
    op_frozen(p, fz);
    for (int ci = 0; ci < 2; ci++) { frozen_ref(p->b, ci ? 1 : -1, &ref); if (!same_bb(ref, fz[ci])) return "frozen"; }
    for (int c = -1; c <= 1; c += 2) {
        q = *p; q.side = (int8_t)c;
        op_legal(&q, &all);
        int n = op_count(p, c, &listed, NULL), k = 0;
        if (n != all.n) return "count";
        for (int i = 0; i < all.n; i++) {
            const OMove *m = &all.m[i];
            if (m->from != OP_PLACE && !m->ncap && !m->nconv && !m->flags) continue;
            if (k >= listed.n) return "listed moves";
            const OMove *o = &listed.m[k++];
            if (o->from != m->from || o->to != m->to || o->flags != m->flags || o->value != m->value || o->ncap != m->ncap
                || o->nconv != m->nconv || memcmp(o->cap, m->cap, m->ncap) || memcmp(o->conv, m->conv, m->nconv)) return "listed moves";
        }
        if (k != listed.n) return "listed moves";
    }
    return NULL;
}

int op_main(int argc, char **argv) {
    const char *mode = argv[1], *variant = argv[2];
    if (!strcmp(mode, "values")) {   /* the material table, for src/maxima_board/opponent/material.py's test */
        op_select_values(!strcmp(variant, "optima-9x9") ? 9 : 10);
        for (int t = 1; t <= OP_NTYPES; t++) printf("%s%s:%d", t > 1 ? " " : "", OP_UNITS[t].tok, op_value(t));
        printf("\n");
        return 0;
    }
    if (!strcmp(mode, "bench") || !strcmp(mode, "search")) {
        if (argc < 4) return 2;
        OPos p; char err[200];
        const char *fen = argc > 4 ? argv[4] : op_start_fen(variant);
        if (!op_parse_fen(fen, &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
        double t0 = wall_seconds(), c0 = cpu_seconds();
        if (!strcmp(mode, "bench")) {
            uint64_t n = op_perft(&p, atoi(argv[3]));
            double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
            printf("perft %s depth %s: %llu leaves, %.3f s CPU (%.3f s wall), %.0f leaves/s CPU\n", variant, argv[3],
                   (unsigned long long)n, dc, dt, n / (dc > 0 ? dc : 1e-9));
        } else {
            GoParams gp; memset(&gp, 0, sizeof gp);
            gp.depth = atoi(argv[3]); gp.level = 10;
            OMove best; int found;
            op_search_go(&p, NULL, 0, &gp, &best, &found, 1);
            double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
            long long n = op_search_nodes();
            char mv[128] = "(none)";
            if (found) op_move_str(&best, mv);
            printf("search %s depth %s: %lld nodes, %.3f s CPU (%.3f s wall), %.0f nodes/s CPU, best %s\n", variant,
                   argv[3], n, dc, dt, n / (dc > 0 ? dc : 1e-9), mv);
        }
        return 0;
    }
    int depth = argc > 3 ? atoi(argv[3]) : 1;
    static char line[4096];
    static char strs[OP_MAXMOVES][128];
    static OMoveList l;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        OPos p; char err[200];
        if (!op_parse_fen(line, &p, err, sizeof err)) { printf("error %s\n", err); fflush(stdout); continue; }
        if (!strcmp(mode, "perft")) printf("%llu\n", (unsigned long long)op_perft(&p, depth));
        else if (!strcmp(mode, "check")) {
            const char *bad = check_one(&p);
            int n = 1;
            op_legal(&p, &l);
            for (int i = 0; i < l.n && !bad; i++, n++) {
                OPos q = p; op_play(&q, &l.m[i]);
                bad = check_one(&q);
            }
            if (bad) printf("bad %s\n", bad); else printf("ok %d\n", n);
        }
        else if (!strcmp(mode, "moves")) {
            op_legal(&p, &l);
            for (int i = 0; i < l.n; i++) op_move_str(&l.m[i], strs[i]);
            qsort(strs, (size_t)l.n, sizeof strs[0], cmpstr);
            for (int i = 0; i < l.n; i++) printf("%s%s", i ? " " : "", strs[i]);
            printf("\n");
        } else if (!strcmp(mode, "children")) {
            char ms[128], fen[1024];
            op_legal(&p, &l);
            for (int i = 0; i < l.n; i++) {
                OPos q = p; op_play(&q, &l.m[i]);
                op_move_str(&l.m[i], ms); op_format_fen(&q, fen);
                printf("%s %s\n", ms, fen);
            }
            printf("\n");
        } else return 2;
        fflush(stdout);
    }
    return 0;
}

