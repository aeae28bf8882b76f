/* Geometry and the 19 games as data (mirrors src/maxima_board/rules/geometry.py, engine/variants/). */
#include <string.h>
#include "engine.h"
#include "values.h"
#include "terms.h"
#include "kept_terms.h"
#define PAWN_END_LETTER 'P'   /* a values.h entry of this letter: the Pawn's endgame value (search.c, pawn_phase) */
#define PAWN_RUN_LETTER 'A'   /* and of this one: the endgame bonus of a Pawn one step from promotion */

Variant V;
const char *const SAFETY_TERMS[NSAFETY] = {"shield", "near2", "freezer", "goaldef", "goal2"};   /* terms.h's names */
const int OPP[8] = {DS, DW, DN, DE, DSW, DNW, DNE, DSE};
static const int VEC[8][2] = {{0,1},{1,0},{0,-1},{-1,0},{1,1},{1,-1},{-1,-1},{-1,1}};
static const int KNIGHT_V[8][2] = {{1,2},{2,1},{2,-1},{1,-2},{-1,-2},{-2,-1},{-2,1},{-1,2}};

const VariantDef VARIANTS[] = {
    {"maxima", FAM_MAXIMA, 0, 0}, {"ultima", FAM_ULTIMA, 0, 0}, {"ultima-pure", FAM_ULTIMA, 0, 0},
    {"coordinator-chess", FAM_DECKLE, 10, 'c'}, {"coordinator-chess-10x8", FAM_DECKLE, 8, 'c'},
    {"immobilizer-chess", FAM_DECKLE, 10, 'i'}, {"immobilizer-chess-10x8", FAM_DECKLE, 8, 'i'},
    {"withdrawer-chess", FAM_DECKLE, 10, 'w'}, {"withdrawer-chess-10x8", FAM_DECKLE, 8, 'w'},
    {"long-leaper-chess", FAM_DECKLE, 10, 'l'}, {"long-leaper-chess-10x8", FAM_DECKLE, 8, 'l'},
    {"advancer-chess", FAM_DECKLE, 10, 'a'}, {"advancer-chess-10x8", FAM_DECKLE, 8, 'a'},
    {"pushme-pullyu-chess", FAM_DECKLE, 10, 'u'}, {"pushme-pullyu-chess-10x8", FAM_DECKLE, 8, 'u'},
    {"swapper-chess", FAM_DECKLE, 10, 's'}, {"swapper-chess-10x8", FAM_DECKLE, 8, 's'},
    {"mimotaur-chess", FAM_DECKLE, 10, 'm'}, {"mimotaur-chess-10x8", FAM_DECKLE, 8, 'm'},
};
const int NVARIANTS = sizeof VARIANTS / sizeof VARIANTS[0];

const VariantDef *find_variant(const char *name) {
    for (int i = 0; i < NVARIANTS; i++)
        if (!strcmp(VARIANTS[i].name, name)) return &VARIANTS[i];
    return NULL;
}

static int exists_cell(int family, int files, int minr, int maxr, int f, int r) {
    if (f < 0 || f >= files || r < minr || r > maxr) return 0;
    if (family == FAM_MAXIMA) return (r >= 1 && r <= 9) || f == 3 || f == 4;
    return 1;
}

static void build_geo(Geo *g, int family, int files, int minr, int maxr) {
    memset(g, 0, sizeof *g);
    g->files = files; g->min_rank = minr; g->max_rank = maxr;
    memset(g->at, -1, sizeof g->at);
    int n = 0;
    for (int r = minr; r <= maxr; r++)
        for (int f = 0; f < files; f++)
            if (exists_cell(family, files, minr, maxr, f, r)) {
                g->at[f][r - minr] = (int8_t)n;
                g->file_of[n] = (int8_t)f; g->rank_of[n] = (int8_t)r;
                char *nm = g->names[n];
                *nm++ = (char)('a' + f);
                if (r >= 10) *nm++ = (char)('0' + r / 10);
                *nm++ = (char)('0' + r % 10);
                *nm = 0;
                n++;
            }
    g->size = n;
    memset(g->dir, -1, sizeof g->dir);
    for (int s = 0; s < n; s++) {
        g->nnb[s] = 0;
        for (int d = 0; d < 8; d++) {
            int f = g->file_of[s] + VEC[d][0], r = g->rank_of[s] + VEC[d][1], len = 0;
            while (exists_cell(family, files, minr, maxr, f, r)) {
                int t = g->at[f][r - minr];
                g->rays[s][d][len++] = (int8_t)t;
                g->dir[s][t] = (int8_t)d; g->dist[s][t] = (int8_t)len;
                f += VEC[d][0]; r += VEC[d][1];
            }
            g->raylen[s][d] = (uint8_t)len;
            g->step[s][d] = len ? g->rays[s][d][0] : -1;
            if (len) { g->nb[s][g->nnb[s]++] = g->rays[s][d][0]; g->adj[s][g->rays[s][d][0]] = 1; }
        }
    }
}

static int sq_at(int f, int r) {
    Geo *g = &V.g;
    if (f < 0 || f >= g->files || r < g->min_rank || r > g->max_rank) return -1;
    return g->at[f][r - g->min_rank];
}

static void build_leaps(void) {
    for (int lt = 0; lt < LT_N; lt++) {
        const int (*vec)[2] = lt == LT_KING ? VEC : KNIGHT_V;
        for (int s = 0; s < V.g.size; s++) {
            uint8_t seen[MAXSQ] = {0};
            for (int i = 0; i < 8; i++) {
                int f = V.g.file_of[s] + vec[i][0];
                if (lt == LT_KNIGHT_WRAP) f = ((f % V.g.files) + V.g.files) % V.g.files;
                int t = sq_at(f, V.g.rank_of[s] + vec[i][1]);
                if (t >= 0) seen[t] = 1;
            }
            V.nleaps[lt][s] = 0;
            for (int t = 0; t < V.g.size; t++)
                if (seen[t]) { V.leaps[lt][s][V.nleaps[lt][s]++] = (int8_t)t; V.isleap[lt][s][t] = 1; }
        }
    }
}

#define ALLD 0xFF
#define ORTHD 0x0F
#define DIAGD 0xF0
static Prim leap(int tab) { Prim p = {PR_LEAP, 0, 1, 0, (uint8_t)tab}; return p; }
static Prim slide(int dirs, int replace, int effects) { Prim p = {PR_SLIDE, (uint8_t)dirs, (uint8_t)replace, (uint8_t)effects, 0}; return p; }
static Prim simple(int kind) { Prim p = {(uint8_t)kind, ALLD, 0, 0, 0}; return p; }

static int add_type(char letter, const char *name, int value) {
    int i = ++V.ntypes;
    memset(&V.t[i], 0, sizeof V.t[i]);
    V.t[i].letter = letter; V.t[i].name = name; V.t[i].value = value;
    return i;
}
static void prim1(int i, Prim a) { V.t[i].prim[V.t[i].nprim++] = a; }

static void maxima_types(void) {
    int k = add_type('k', "King", 0); prim1(k, leap(LT_KNIGHT_WRAP)); V.t[k].royal = 1; V.t[k].imitated = IM_STEP;
    int g = add_type('g', "Mage", 450); prim1(g, simple(PR_MAGE)); V.t[g].never_frozen = 1; V.t[g].imitated = IM_STEP;
    int d = add_type('d', "Guard", 250); prim1(d, leap(LT_KING)); V.t[d].imitated = IM_STEP;
    int q = add_type('q', "Withdrawer", 450); prim1(q, slide(ALLD, 0, EF_WITHDRAW)); V.t[q].imitated = IM_WITHDRAWAL;
    int r = add_type('r', "Coordinator", 450); prim1(r, slide(ALLD, 0, EF_COORD)); V.t[r].imitated = IM_COORDINATION;
    int n = add_type('n', "Leaper", 600); prim1(n, simple(PR_LEAPSLIDE)); V.t[n].imitated = IM_LEAPING;
    int b = add_type('b', "Chameleon", 500); prim1(b, simple(PR_IMIT)); V.t[b].freezes_freezer = 1;
    int m = add_type('m', "Immobilizer", 700); prim1(m, slide(ALLD, 0, 0)); V.t[m].freezer = 1;
    int p = add_type('p', "Pawn", 120); prim1(p, slide(ORTHD, 0, EF_CUSTODIAN)); V.t[p].imitated = IM_CUSTODIAN;
}

static void ultima_types(void) {
    int k = add_type('k', "King", 0); prim1(k, leap(LT_KING)); V.t[k].royal = 1; V.t[k].imitated = IM_STEP;
    int p = add_type('p', "Pawn", 100); prim1(p, slide(ORTHD, 0, EF_CUSTODIAN)); V.t[p].imitated = IM_CUSTODIAN;
    int w = add_type('w', "Withdrawer", 400); prim1(w, slide(ALLD, 0, EF_WITHDRAW)); V.t[w].imitated = IM_WITHDRAWAL;
    int c = add_type('c', "Coordinator", 450); prim1(c, slide(ALLD, 0, EF_COORD)); V.t[c].imitated = IM_COORDINATION;
    int l = add_type('l', "Long Leaper", 550); prim1(l, simple(PR_LEAPSLIDE)); V.t[l].imitated = IM_LEAPING;
    int h = add_type('h', "Chameleon", 450); prim1(h, simple(PR_IMIT)); V.t[h].freezes_freezer = 1;
    int i = add_type('i', "Immobilizer", 650); prim1(i, slide(ALLD, 0, 0)); V.t[i].freezer = 1;
}

static void deckle_types(char added) {
    int k = add_type('k', "King", 0); prim1(k, leap(LT_KING)); V.t[k].royal = 1; V.t[k].nmimic = 1; V.t[k].mimic[0] = leap(LT_KING);
    int q = add_type('q', "Queen", 950); prim1(q, slide(ALLD, 1, 0)); V.t[q].nmimic = 1; V.t[q].mimic[0] = slide(ALLD, 1, 0);
    int r = add_type('r', "Rook", 500); prim1(r, slide(ORTHD, 1, 0)); V.t[r].nmimic = 1; V.t[r].mimic[0] = slide(ORTHD, 1, 0);
    int b = add_type('b', "Bishop", 330); prim1(b, slide(DIAGD, 1, 0)); V.t[b].nmimic = 1; V.t[b].mimic[0] = slide(DIAGD, 1, 0);
    int n = add_type('n', "Knight", 300); prim1(n, leap(LT_KNIGHT)); V.t[n].nmimic = 1; V.t[n].mimic[0] = leap(LT_KNIGHT);
    int p = add_type('p', "Pawn", 100); prim1(p, simple(PR_PAWN)); V.t[p].pawn = 1; V.t[p].nmimic = 1; V.t[p].mimic[0] = simple(PR_PAWN);
    int x;
    switch (added) {
    case 'c': x = add_type('c', "Coordinator", 400); prim1(x, slide(ALLD, 0, EF_COORD)); break;
    case 'i': x = add_type('i', "Immobilizer", 600); prim1(x, slide(ALLD, 0, 0)); V.t[x].freezer = 1; break;
    case 'w': x = add_type('w', "Withdrawer", 450); prim1(x, slide(ALLD, 0, EF_WITHDRAW)); break;
    case 'l': x = add_type('l', "Long Leaper", 500); prim1(x, simple(PR_LEAPSLIDE)); break;
    case 'a': x = add_type('a', "Advancer", 500); prim1(x, slide(ALLD, 0, EF_APPROACH)); break;
    case 'u': x = add_type('u', "Pushme-Pullyu", 650); prim1(x, slide(ALLD, 0, EF_WITHDRAW | EF_APPROACH)); break;
    case 's': x = add_type('s', "Swapper", 350); prim1(x, slide(ALLD, 0, 0)); prim1(x, simple(PR_SWAP)); prim1(x, simple(PR_DESTRUCT)); break;
    default: x = add_type('m', "Mimotaur", 500); prim1(x, slide(ALLD, 0, 0)); prim1(x, simple(PR_MIMIC)); break;
    }
    (void)x;
}

static int type_of(char letter) {
    for (int i = 1; i <= V.ntypes; i++) if (V.t[i].letter == letter) return i;
    return 0;
}

int select_variant(const char *name) {
    const VariantDef *def = find_variant(name);
    if (!def) return 0;
    if (V.def == def) return 1;
    memset(&V, 0, sizeof V);
    V.def = def; V.family = def->family;
    if (def->family == FAM_MAXIMA) {
        build_geo(&V.g, FAM_MAXIMA, 8, 0, 10);
        maxima_types();
        V.palace = 1;
        V.goals[2][0] = sq_at(3, 0); V.goals[2][1] = sq_at(4, 0);
        V.goals[0][0] = sq_at(3, 10); V.goals[0][1] = sq_at(4, 10);
        V.suicide = 1; V.bare_king = 1;
        V.start_fen = "xxx2xxx/1g1qk1g1/1bnmrnb1/dppppppd/8/8/8/DPPPPPPD/1BNMRNB1/1G1QK1G1/xxx2xxx w 0";
    } else if (def->family == FAM_ULTIMA) {
        build_geo(&V.g, FAM_ULTIMA, 8, 1, 8);
        ultima_types();
        V.pure = !strcmp(name, "ultima-pure");
        V.chameleon_pure = V.pure;
        V.suicide = !V.pure;
        V.stalemate_mover_wins = 1;
        V.start_fen = "clhwkhli/pppppppp/8/8/8/8/PPPPPPPP/ILHKWHLC w 0";
    } else {
        int ranks = def->deckle_ranks;
        build_geo(&V.g, FAM_DECKLE, 10, 1, ranks);
        deckle_types(def->added);
        V.suicide = 1; V.castling = 1; V.en_passant = 1;
        V.pawn_advance = ranks == 10 ? 3 : 2;
        V.swap_ban = def->added == 's';
        V.fifty = V.repetition = V.insufficient = 1;
        const char promo[] = {'q', 'r', 'b', 'n', def->added};
        for (int i = 0; i < 5; i++) V.promo[V.npromo++] = type_of(promo[i]);
        char x = def->added, X = (char)(x - 32);
        char *o = V.start_buf;
        o += sprintf(o, "rn%cbqkb%cnr/pppppppppp/", x, x);
        for (int i = 0; i < ranks - 4; i++) o += sprintf(o, "10/");
        o += sprintf(o, "PPPPPPPPPP/RN%cBQKB%cNR w KQkq - 0 1%s", X, X, V.swap_ban ? " -" : "");
        V.start_fen = V.start_buf;
    }
    if (!V.pawn_advance) V.pawn_advance = 1;
    for (int i = 0; TUNED_VALUES[i].variant; i++)   /* values.h: fitted by src/maxima_board/opponent/tune.py */
        if (!strcmp(TUNED_VALUES[i].variant, name)) {
            int t = type_of(TUNED_VALUES[i].letter);
            if (t) V.t[t].value = TUNED_VALUES[i].value;
            else if (TUNED_VALUES[i].letter == PAWN_END_LETTER) V.pawn_end = TUNED_VALUES[i].value;
            else if (TUNED_VALUES[i].letter == PAWN_RUN_LETTER) V.pawn_run = TUNED_VALUES[i].value;
        }
    /* terms.h: the evaluation terms' weights, the family's then the game's own */
    const char *family = V.family == FAM_MAXIMA ? "maxima" : V.family == FAM_ULTIMA ? "ultima" : "deckle";
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; EVAL_TERMS[i].game; i++) {
            if (strcmp(EVAL_TERMS[i].game, pass ? name : family)) continue;
            char letter = EVAL_TERMS[i].letter == TERM_ADDED_LETTER ? def->added : EVAL_TERMS[i].letter;
            int t = letter ? type_of(letter) : 0, value = EVAL_TERMS[i].value;
            const char *term = EVAL_TERMS[i].term;
            if (!strcmp(term, "place")) { if (t) V.w_place[t] = value; }
            else if (!strcmp(term, "mob")) { if (t) V.w_mob[t] = value; }
            else for (int k = 0; k < NSAFETY; k++) if (!strcmp(term, SAFETY_TERMS[k])) V.w_safety[k] = value;
        }
    for (int i = 0; KEPT_TERMS[i].family; i++)   /* kept_terms.h: the check matches' verdicts */
        if (!strcmp(KEPT_TERMS[i].family, family)) V.kept_terms = KEPT_TERMS[i].mask;
    for (const char *c = V.start_fen; *c && *c != ' '; c++)   /* the game phase's scale: search.c, pawn_phase */
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
            V.phase_pieces += *c != 'p' && *c != 'P' && *c != 'k' && *c != 'K' && *c != 'x';
    build_leaps();
    for (int i = 1; i <= V.ntypes; i++) {
        PType *t = &V.t[i];
        if (t->royal && !V.king) V.king = i;
        if (t->pawn && !V.pawn) V.pawn = i;
        if (t->freezer) { V.freezer[i] = 1; V.nfreezers++; }
        V.freezes_freezer[i] = t->freezes_freezer;
        V.neutralizer[i] = t->freezer || t->freezes_freezer;
        V.never_frozen[i] = t->never_frozen;
        switch (t->imitated) {
        case IM_STEP: V.step_victim[i] = 1; break;
        case IM_CUSTODIAN: V.im_custodian = i; break;
        case IM_WITHDRAWAL: V.im_withdrawal = i; break;
        case IM_COORDINATION: V.im_coordination = i; break;
        case IM_LEAPING: V.im_leaping = i; break;
        }
    }
    if (V.family == FAM_DECKLE) { V.rook = type_of('r'); V.swapper = type_of('s'); }
    /* Pawn tables (movegen._pawn_tables) */
    int first = V.g.min_rank, last = V.g.max_rank;
    for (int c = -1; c <= 1; c += 2) {
        int fwd = c, second = c == 1 ? first + 1 : last - 1, final = c == 1 ? last : first;
        for (int s = 0; s < V.g.size; s++) {
            int f = V.g.file_of[s], r = V.g.rank_of[s];
            V.pawn_step[c + 1][s] = (int8_t)sq_at(f, r + fwd);
            int n = 0, a = sq_at(f - 1, r + fwd), b = sq_at(f + 1, r + fwd);
            if (a >= 0) V.pawn_caps[c + 1][s][n++] = (int8_t)a;
            if (b >= 0) V.pawn_caps[c + 1][s][n++] = (int8_t)b;
            V.npawn_caps[c + 1][s] = (uint8_t)n;
            V.second_rank[c + 1][s] = r == second;
            V.last_rank[c + 1][s] = r == final;
        }
    }
    for (int s = 0; s < V.g.size; s++) V.end_rank[s] = V.g.rank_of[s] == first || V.g.rank_of[s] == last;
    if (V.castling) {
        for (int c = -1; c <= 1; c += 2) {
            int rank = c == 1 ? first : last;
            int kb = c == 1 ? 1 : 4, qb = c == 1 ? 2 : 8;
            int ci = c + 1;
            V.cs_bit[ci][0] = kb; V.cs_kf[ci][0] = sq_at(5, rank); V.cs_kt[ci][0] = sq_at(8, rank);
            V.cs_rf[ci][0] = sq_at(9, rank); V.cs_rt[ci][0] = sq_at(7, rank);
            V.cs_nempty[ci][0] = 3; V.cs_nsafe[ci][0] = 3;
            for (int i = 0; i < 3; i++) { V.cs_empty[ci][0][i] = sq_at(6 + i, rank); V.cs_safe[ci][0][i] = sq_at(6 + i, rank); }
            V.cs_bit[ci][1] = qb; V.cs_kf[ci][1] = sq_at(5, rank); V.cs_kt[ci][1] = sq_at(2, rank);
            V.cs_rf[ci][1] = sq_at(0, rank); V.cs_rt[ci][1] = sq_at(3, rank);
            V.cs_nempty[ci][1] = 4; V.cs_nsafe[ci][1] = 3;
            for (int i = 0; i < 4; i++) V.cs_empty[ci][1][i] = sq_at(1 + i, rank);
            for (int i = 0; i < 3; i++) V.cs_safe[ci][1][i] = sq_at(4 - i, rank);
        }
    }
    init_zobrist();
    movegen_prepare();
    return 1;
}
