/* Optima's text (optima.md O15, O16; src/maxima_board/rules/optima/fen.py): tokens, the FEN read (with the rules field,
 * O14, and the check of the positions a FEN may describe, O16) and written, the start FENs, and the
 * canonical move strings read and written. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <ctype.h>
#include "optima_rules.h"

/* ------------------------------------------------------------ text (O15) */
static int type_of_token(const char *t) {
    char up[3] = {(char)toupper((unsigned char)t[0]), (char)toupper((unsigned char)t[1]), 0};
    for (int i = 1; i <= OP_NTYPES; i++) if (!strcmp(OP_UNITS[i].tok, up)) return i;
    return 0;
}
static int two_letters(const char *s) {
    return isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1])
        && ((isupper((unsigned char)s[0]) && isupper((unsigned char)s[1])) || (islower((unsigned char)s[0]) && islower((unsigned char)s[1])));
}
static void token_of(int code, int lower, char *out) {
    const char *t = OP_UNITS[code & OP_TYPE].tok;
    out[0] = lower ? (char)tolower((unsigned char)t[0]) : t[0];
    out[1] = lower ? (char)tolower((unsigned char)t[1]) : t[1];
    int k = 2;
    if (code & OP_ROYAL) out[k++] = '*';
    out[k] = 0;
}

#define FAIL(...) do { fen_error(err, errlen, __VA_ARGS__); return 0; } while (0)

/* Two-letter tokens with an optional '*' (src/maxima_board/rules/optima/fen.py's _tokens): codes
 * (type | OP_ROYAL), lower[i] for lower case; 0 and err on a bad token. */
static int split_tokens(const char *text, const char *where, int *codes, int *lower, int max, int *count,
                        char *err, int errlen) {
    int k = 0;
    for (const char *q = text; *q; ) {
        if (*q == '*') FAIL("%s: misplaced '*' in '%s'", where, text);
        if (!q[1] || !two_letters(q)) FAIL("%s: bad token '%.2s' in '%s' (two letters, one case)", where, q, text);
        if (k == max) FAIL("%s: too many tokens", where);
        int ty = type_of_token(q);
        if (!ty) FAIL("%s: unknown unit '%.2s'", where, q);
        lower[k] = islower((unsigned char)q[0]) != 0;
        q += 2;
        codes[k] = ty | (*q == '*' ? OP_ROYAL : 0);
        if (*q == '*') q++;
        k++;
    }
    *count = k;
    return 1;
}

/* a group of reserve codes in canonical order: by token letters, plain before royal (O15) */
static int sorted_group(const int *codes, int n) {
    for (int i = 1; i < n; i++) {
        int c = strcmp(OP_UNITS[codes[i - 1] & OP_TYPE].tok, OP_UNITS[codes[i] & OP_TYPE].tok);
        if (c > 0 || (c == 0 && (codes[i - 1] & OP_ROYAL) > (codes[i] & OP_ROYAL))) return 0;
    }
    return 1;
}

static int cmp_item(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The rules field (O14): '-' or distinct sorted items shp, gna, arm=TT.. (sorted piece tokens). */
static int parse_rules(const char *text, OOptions *o, char *err, int errlen) {
    memset(o, 0, sizeof *o);
    if (!strcmp(text, "-")) return 1;
    char rb[256], *items[16], *sorted[16];
    int ni = 0;
    snprintf(rb, sizeof rb, "%s", text);
    for (char *q = rb; ; ) {
        char *comma = strchr(q, ',');
        if (comma) *comma = 0;
        if (ni == 16) FAIL("rules field '%s': too many options", text);
        items[ni++] = q;
        if (!comma) break;
        q = comma + 1;
    }
    memcpy(sorted, items, sizeof items[0] * (size_t)ni);
    qsort(sorted, (size_t)ni, sizeof sorted[0], cmp_item);
    for (int i = 0; i < ni; i++)
        if (sorted[i] != items[i] && strcmp(sorted[i], items[i])) FAIL("rules field '%s': options must be distinct and sorted", text);
    for (int i = 1; i < ni; i++) if (!strcmp(sorted[i - 1], sorted[i])) FAIL("rules field '%s': options must be distinct and sorted", text);
    for (int i = 0; i < ni; i++) {
        const char *it = items[i];
        if (!strcmp(it, "shp")) o->shp = 1;
        else if (!strcmp(it, "gna")) o->gna = 1;
        else if (!strncmp(it, "arm=", 4)) {
            int codes[64], lower[64], n;
            if (!split_tokens(it + 4, "rules arm=", codes, lower, 64, &n, err, errlen)) return 0;
            for (int j = 0; j < n; j++) if (lower[j] || (codes[j] & OP_ROYAL)) n = 0;
            if (!n) FAIL("rules field: '%s' must list upper-case piece tokens, e.g. arm=QUVR", it);
            for (int j = 0; j < n; j++)
                if (OP_UNITS[codes[j]].kind == KD_PAWN || OP_UNITS[codes[j]].kind == KD_GUARD)
                    FAIL("rules field: '%s': %s is not a piece type", it, OP_UNITS[codes[j]].tok);
            for (int j = 1; j < n; j++)
                if (strcmp(OP_UNITS[codes[j - 1]].tok, OP_UNITS[codes[j]].tok) >= 0)
                    FAIL("rules field: '%s': tokens must be distinct and sorted", it);
            for (int j = 0; j < n; j++) o->arm |= 1ULL << codes[j];
        } else if (!strncmp(it, "pawn=", 5) || !strncmp(it, "guard=", 6)) {
            if (!strcmp(strchr(it, '=') + 1, "std")) FAIL("rules field: '%s': the standard rule is written by leaving it out", it);
            FAIL("rules field: '%s': unknown %.*s rule (only the standard one is defined, O14)", it,
                 (int)(strchr(it, '=') - it), it);
        } else FAIL("rules field: unknown option '%s' (known: shp, gna, arm=TT..., O14)", it);
    }
    return 1;
}

static int check_position(const OPos *p, int n, char *err, int errlen);

int op_parse_fen(const char *fen, OPos *p, char *err, int errlen) {
    char buf[1024];
    if (strlen(fen) >= sizeof buf) FAIL("FEN too long");
    snprintf(buf, sizeof buf, "%s", fen);
    /* five fields separated by single spaces (O15) */
    char *field[5]; int nf = 0, words = 0, empty = 0;
    for (char *q = buf; ; ) {
        char *sp = strchr(q, ' ');
        if (sp) *sp = 0;
        if (*q) words++; else empty = 1;
        if (nf < 5) field[nf] = q;
        nf++;
        if (!sp) break;
        q = sp + 1;
    }
    if (nf != 5 || empty)
        FAIL("Optima FEN needs 5 fields separated by single spaces (board, side, reserve, rules, ply), got %d", words);
    int rows = 1;
    for (const char *q = field[0]; *q; q++) rows += *q == '/';
    if (rows != 9 && rows != 10) FAIL("Optima FEN board has %d ranks, expected 10 (10x10) or 9 (9x9)", rows);
    /* rules first: they set the attribute tables */
    OOptions o;
    if (!parse_rules(field[3], &o, err, errlen)) return 0;
    op_build_order();
    op_select(rows, &o);
    memset(p, 0, sizeof *p);
    int n = rows, rank = n, file = 0;
    for (const char *q = field[0]; ; q++) {
        if (*q == '/' || !*q) {
            if (file != n) FAIL("rank %d has %d cells, expected %d", rank, file, n);
            if (!*q) break;
            rank--; file = 0; continue;
        }
        if (isdigit((unsigned char)*q)) {
            if (*q == '0') FAIL("rank %d: bad empty run", rank);
            int k = 0;
            while (isdigit((unsigned char)*q)) { if (k < 1000) k = 10 * k + (*q - '0'); q++; }
            q--;
            file += k;
            continue;
        }
        if (*q == '*') FAIL("rank %d: misplaced '*' (it follows a piece's token)", rank);
        if (!two_letters(q)) FAIL("rank %d: bad token '%.2s' (two letters, one case)", rank, q);
        int ty = type_of_token(q);
        if (!ty) FAIL("rank %d: unknown unit '%.2s'", rank, q);
        int lower = islower((unsigned char)q[0]);
        q += 2;
        int code = ty;
        if (*q == '*') { if (OP_UNITS[ty].kind != KD_PIECE) FAIL("rank %d: %s can never be royal", rank, OP_UNITS[ty].tok); code |= OP_ROYAL; }
        else q--;
        if (file >= n) FAIL("rank %d is longer than %d cells", rank, n);
        p->b[(rank - 1) * n + file] = (int8_t)(lower ? -code : code);
        file++;
    }
    if (rank != 1) FAIL("bad board field");
    if (!strcmp(field[1], "w")) p->side = 1; else if (!strcmp(field[1], "b")) p->side = -1;
    else FAIL("side field must be 'w' or 'b', got '%s'", field[1]);
    if (strcmp(field[2], "-")) {
        const char *r = field[2];
        if (!strncmp(r, "eq:", 3)) p->rkind = RK_EQ; else if (!strncmp(r, "u1:", 3)) p->rkind = RK_U1;
        else if (!strncmp(r, "u2:", 3)) p->rkind = RK_U2;
        else FAIL("reserve field '%s': expected '-', 'eq:...', 'u1:...' or 'u2:...'", r);
        int codes[340], lower[340], k;
        if (!split_tokens(r + 3, "reserve", codes, lower, 340, &k, err, errlen)) return 0;
        if (!k) FAIL("reserve field '%s' is empty: after the placement phase the reserve is '-'", r);
        int nw = 0;
        while (nw < k && !lower[nw]) nw++;
        for (int i = nw; i < k; i++)
            if (!lower[i]) FAIL("reserve field '%s': White's hand (upper case) comes before Black's (lower case)", r);
        if (p->rkind != RK_EQ && nw < k) FAIL("reserve field '%s': a %.2s pool is written in upper case", r, r);
        for (int i = 0; i < k; i++)
            if (OP_UNITS[codes[i] & OP_TYPE].kind != KD_PIECE)
                FAIL("reserve: %s is never placed (only the 53 piece types are, O4)", OP_UNITS[codes[i] & OP_TYPE].tok);
        if (!sorted_group(codes, nw) || !sorted_group(codes + nw, k - nw)) FAIL("reserve field '%s' is not sorted", r);
        if (k > 2 * op_set_size()) FAIL("reserve field '%s' holds %d units, more than %d (O4)", r, k, 2 * op_set_size());
        for (int i = 0; i < k; i++) p->hand[p->rkind == RK_EQ ? !lower[i] : 1][codes[i]]++;
        p->left = (int8_t)k;
    }
    /* ply: digits, no leading zero, at most 1,000,000 (src/maxima_board/rules/notation.py's MAX_PLIES) */
    const char *d = field[4];
    size_t nd = strspn(d, "0123456789");
    if (d[nd] || !nd || (d[0] == '0' && nd > 1) || nd > 7 || atol(d) > 1000000)
        FAIL("ply field must be a whole number from 0 to 1000000 (digits 0-9, no leading zero), got '%.24s'", d);
    p->ply = atoi(d);
    if (!check_position(p, n, err, errlen)) return 0;
    /* hash */
    for (int s = 0; s < n * n; s++) p->hash ^= OP_ZK[s][(uint8_t)p->b[s]];
    if (p->side < 0) p->hash ^= OP_ZSIDE;
    for (int ci = 0; ci < 2; ci++) for (int k = 0; k < 128; k++) p->hash ^= OP_ZHAND[ci][k][p->hand[ci][k]];
    op_sync(p);
    return 1;
}

/* ------------------------------------------------------------ O16: positions a FEN may describe */
static const char *who(int c) { return c > 0 ? "White" : "Black"; }

static int check_placement(const OPos *p, int n, char *err, int errlen) {
    const int pawn = type_of_token("PN"), guard = type_of_token("GD");
    int placed[2][128], count[2] = {0, 0}, royals_placed[2] = {0, 0};   /* [colour: 0 Black, 1 White] */
    memset(placed, 0, sizeof placed);
    for (int s = 0; s < n * n; s++) {
        int v = p->b[s], rank = s / n + 1, file = s % n;
        int want = rank == 2 ? guard : rank == 3 ? pawn : rank == n - 1 ? -guard : rank == n - 2 ? -pawn : 0;
        if (want) {
            if (v != want) {
                const char *t = OP_UNITS[abs(want)].tok;
                char w[3] = {t[0], t[1], 0};
                if (want < 0) { w[0] = (char)tolower((unsigned char)w[0]); w[1] = (char)tolower((unsigned char)w[1]); }
                FAIL("placement phase: %c%d must hold %s (pawns and guards stand on their starting ranks until the "
                     "placement is over, O1, O16)", 'a' + file, rank, w);
            }
            continue;
        }
        if (!v) continue;
        int ci = v > 0, code = abs(v);
        if (rank != (v > 0 ? 1 : n) || OP_UNITS[code & OP_TYPE].kind != KD_PIECE) {
            char t[4]; token_of(code & OP_TYPE, v < 0, t);
            FAIL("placement phase: %s on %c%d is off its owner's first rank (O5, O16)", t, 'a' + file, rank);
        }
        placed[ci][code]++; count[ci]++;
        if (code & OP_ROYAL) royals_placed[ci]++;
    }
    int i = count[0] + count[1], kind = p->rkind, size = op_set_size();
    const char *kname = kind == RK_EQ ? "eq" : kind == RK_U1 ? "u1" : "u2";
    if (kind == RK_U2 && n == 9) FAIL("reserve u2 is not played on 9x9 (O4: 9x9 unequal forces are u1 only)");
    int white_due = 0;
    for (int j = 0; j < i; j++) white_due += op_side_at(kind, j) > 0;
    if (count[1] != white_due)
        FAIL("placement phase: after %d placements White has placed %d by O5, the board shows %d", i, white_due, count[1]);
    if (i + p->left != 2 * size)
        FAIL("placement phase: %d placed plus %d in the reserve is not %d (each side gets %d pieces, O4)", i, p->left,
             2 * size, size);
    if (p->ply != i) FAIL("ply field is %d, but %d placements have been made (O5, O15)", p->ply, i);
    int due = op_side_at(kind, i);
    if (p->side != due) FAIL("placement %d is %s's by O5, the side field says %s", i, who(due), who(p->side));
    if (kind == RK_EQ) {
        int royals = 0;
        for (int code = 0; code < 128; code++) {
            int w = placed[1][code] + p->hand[1][code], b = placed[0][code] + p->hand[0][code];
            if (w != b) FAIL("reserve eq: White's and Black's pieces (placed plus in hand) differ (O4 equal forces)");
            if (code & OP_ROYAL) royals += w;
        }
        if (royals < 1 || royals > (n == 10 ? 2 : 1))
            FAIL("reserve eq: each side has %d royal pieces; %dx%d allows %s (O4)", royals, n, n, n == 10 ? "1 or 2" : "1");
        return 1;
    }
    int royals = royals_placed[0] + royals_placed[1], want = kind == RK_U1 ? 2 : 4;
    for (int code = OP_ROYAL; code < 128; code++) royals += p->hand[1][code];
    if (royals != want) FAIL("reserve %s: %d royal units in pool and placed, expected %d (O4)", kname, royals, want);
    int first[2] = {0, 0};
    for (int j = 0; j < (i < want ? i : want); j++) first[op_side_at(kind, j) > 0]++;
    for (int ci = 1; ci >= 0; ci--)
        if (royals_placed[ci] != first[ci])
            FAIL("reserve %s: %s has placed %d royal units; royals are placed first, so after %d placements it has %d (O5)",
                 kname, who(ci ? 1 : -1), royals_placed[ci], i, first[ci]);
    return 1;
}

/* O16 (src/maxima_board/rules/optima/fen.py's check): the movement phase allows at most 2 royal units a side and
 * none only for the side to move (it lost); the placement phase must follow O4/O5. */
static int check_position(const OPos *p, int n, char *err, int errlen) {
    if (p->rkind != RK_NONE) return check_placement(p, n, err, errlen);
    for (int c = 1; c >= -1; c -= 2) {
        int royals = 0;
        for (int s = 0; s < n * n; s++) if (p->b[s] * c > 0 && ((p->b[s] * c) & OP_ROYAL)) royals++;
        if (royals > 2) FAIL("%s has %d royal units; at most 2 (O4, O16)", who(c), royals);
        if (!royals && c != p->side) FAIL("%s, not to move, has no royal unit: the game ended before (O13, O16)", who(c));
    }
    return 1;
}

static void append(char **o, const char *s) { while (*s) *(*o)++ = *s++; **o = 0; }

void op_format_fen(const OPos *p, char *out) {
    char *o = out, tk[4], num[16];
    int n = OP_N;
    for (int rank = n; rank >= 1; rank--) {
        int run = 0;
        for (int f = 0; f < n; f++) {
            int v = p->b[(rank - 1) * n + f];
            if (!v) { run++; continue; }
            if (run) { snprintf(num, sizeof num, "%d", run); append(&o, num); run = 0; }
            token_of(abs(v), v < 0, tk); append(&o, tk);
        }
        if (run) { snprintf(num, sizeof num, "%d", run); append(&o, num); }
        if (rank > 1) append(&o, "/");
    }
    append(&o, p->side > 0 ? " w " : " b ");
    if (p->rkind == RK_NONE) append(&o, "-");
    else {
        append(&o, p->rkind == RK_EQ ? "eq:" : p->rkind == RK_U1 ? "u1:" : "u2:");
        for (int pass = 0; pass < (p->rkind == RK_EQ ? 2 : 1); pass++) {
            const uint8_t *h = p->hand[p->rkind == RK_EQ ? !pass : 1];
            for (int i = 0; i < OP_NORDER; i++)
                for (int k = 0; k < h[OP_ORDER[i]]; k++) { token_of(OP_ORDER[i], pass == 1, tk); append(&o, tk); }
        }
    }
    append(&o, " ");
    int any = 0;
    if (OP_OPTS.arm) {
        append(&o, "arm=");
        const char *toks[OP_NTYPES]; int nt = 0;      /* tokens sorted */
        for (int ty = 1; ty <= OP_NTYPES; ty++) if (OP_OPTS.arm >> ty & 1) toks[nt++] = OP_UNITS[ty].tok;
        for (int i = 1; i < nt; i++) for (int j = i; j > 0 && strcmp(toks[j - 1], toks[j]) > 0; j--) {
            const char *t = toks[j]; toks[j] = toks[j - 1]; toks[j - 1] = t;
        }
        for (int i = 0; i < nt; i++) append(&o, toks[i]);
        any = 1;
    }
    if (OP_OPTS.gna) { if (any) append(&o, ","); append(&o, "gna"); any = 1; }
    if (OP_OPTS.shp) { if (any) append(&o, ","); append(&o, "shp"); any = 1; }
    if (!any) append(&o, "-");
    snprintf(num, sizeof num, " %d", p->ply);
    append(&o, num);
}

void op_move_str(const OMove *m, char *out) {
    char *o = out;
    *o = 0;
    if (m->from == OP_PLACE) {
        char tk[4];
        token_of(abs(m->value), 0, tk);
        append(&o, tk); append(&o, "@"); append(&o, op_sqname[m->to]);
        return;
    }
    append(&o, op_sqname[m->from]); append(&o, "-"); append(&o, op_sqname[m->to]);
    for (int i = 0; i < m->ncap; i++) { append(&o, i ? "," : "x"); append(&o, op_sqname[m->cap[i]]); }
    for (int i = 0; i < m->nconv; i++) { append(&o, i ? "," : "^"); append(&o, op_sqname[m->conv[i]]); }
    if (m->flags & OF_PROMOTE) append(&o, "=WI");
}

/* a legal move from its text; FROM-TO alone (or with =WI) names the only legal move from FROM to TO */
int op_parse_move(OPos *p, const char *text, OMove *out) {
    static OMoveList l;
    op_legal(p, &l);
    char ms[128];
    const char *txt = text;
    if (isupper((unsigned char)txt[0]) && isupper((unsigned char)txt[1]) && strchr(txt, '-')) {  /* ARe5-e5xg7 */
        txt += 2; if (*txt == '*') txt++;
    }
    for (int i = 0; i < l.n; i++) { op_move_str(&l.m[i], ms); if (!strcmp(ms, txt)) { *out = l.m[i]; return 1; } }
    if (strchr(txt, 'x') || strchr(txt, '^') || strchr(txt, '@')) return 0;
    char base[32]; snprintf(base, sizeof base, "%s", txt);
    char *eq = strstr(base, "=WI"); if (eq) *eq = 0;
    int found = -1;
    for (int i = 0; i < l.n; i++) {
        if (l.m[i].from == OP_PLACE) continue;
        char fb[16]; snprintf(fb, sizeof fb, "%s-%s", op_sqname[l.m[i].from], op_sqname[l.m[i].to]);
        if (!strcmp(fb, base)) { if (found >= 0) return 0; found = i; }
    }
    if (found < 0) return 0;
    *out = l.m[found];
    return 1;
}

const char *op_start_fen(const char *variant) {
    return !strcmp(variant, "optima-9x9")
        ? "9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/9 w eq:CHFAQUREVR*chfaqurevr* - 0"
        : "10/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGDGD/10 w eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0";
}
