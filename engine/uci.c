/* UCI: the main thread reads commands; "go" runs the search in a second thread
 * so that "stop", "isready" and "quit" are answered while it thinks. */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <ctype.h>
#include "engine.h"
#include "optima.h"

static int level = 10, hash_mb = 16;
static long long seed = -1;   /* the Seed option; -1: not set */
static char variant_name[64] = "maxima";
static pthread_t thread;
static int searching;
static GoParams gp;
static const UciGame *game = &UCI_BOARD;   /* UCI_OPTIMA for Optima (optima_search.c) */

static void *search_thread(void *arg) {
    (void)arg;
    game->go(&gp);
    return NULL;
}

static void wait_search(void) {
    if (searching) { pthread_join(thread, NULL); searching = 0; }
}

/* a command that changes the position or options while thinking: stop first
 * (the GUI should have sent stop; an infinite search would never end) */
static void stop_search(void) {
    if (searching) { stop_flag = 1; wait_search(); }
}

static void say(const char *s) { printf("%s\n", s); fflush(stdout); }

static void set_position(char *args) {
    char *moves = strstr(args, " moves");
    if (moves) { *moves = 0; moves += 6; }
    while (*args == ' ') args++;
    game->position(args, moves);
}

static void set_option(char *args) {
    char *name = strstr(args, "name ");
    char *value = strstr(args, " value ");
    if (!name) return;
    name += 5;
    char nm[64] = "", val[128] = "";
    if (value) { snprintf(nm, sizeof nm, "%.*s", (int)(value - name), name); snprintf(val, sizeof val, "%s", value + 7); }
    else snprintf(nm, sizeof nm, "%s", name);
    for (char *c = val + strlen(val); c > val && isspace((unsigned char)c[-1]); ) *--c = 0;
    if (!strcasecmp(nm, "UCI_Variant")) {
        if (!op_is_variant(val) && !find_variant(val)) {
            printf("info string error unknown variant %s\n", val); fflush(stdout); return;
        }
        snprintf(variant_name, sizeof variant_name, "%.*s", (int)sizeof variant_name - 1, val);   /* a known name: it fits */
        game = op_is_variant(val) ? &UCI_OPTIMA : &UCI_BOARD;
        game->select(variant_name);
    } else if (!strcasecmp(nm, "Level")) {
        level = atoi(val); if (level < 1) level = 1; if (level > 10) level = 10;
    } else if (!strcasecmp(nm, "Seed")) {
        seed = atoll(val); if (seed < 0) seed = 0; if (seed > 2147483647LL) seed = 2147483647LL;
    } else if (!strcasecmp(nm, "EvalTerms")) {   /* not Optima's: its evaluation has no such terms */
        int v = atoi(val); if (v < 0) v = 0; if (v > ET_MAX) v = ET_MAX;
        if (v != eval_terms) { eval_terms = v; search_clear(); }
    } else if (!strcasecmp(nm, "Hash")) {
        hash_mb = atoi(val); if (hash_mb < 1) hash_mb = 1; if (hash_mb > 1024) hash_mb = 1024;
        search_init(hash_mb);
    }
}

static void go(char *args) {
    memset(&gp, 0, sizeof gp);
    gp.level = level;
    gp.seed = seed;
    char *tok = strtok(args, " \t");
    while (tok) {
        char *val = strtok(NULL, " \t");
        #define NUM(key, field) if (!strcmp(tok, key)) { gp.field = val ? atoi(val) : 0; tok = val ? strtok(NULL, " \t") : NULL; continue; }
        NUM("depth", depth) NUM("movetime", movetime) NUM("wtime", wtime) NUM("btime", btime)
        NUM("winc", winc) NUM("binc", binc) NUM("movestogo", movestogo) NUM("nodes", nodes_limit)
        if (!strcmp(tok, "infinite")) { gp.infinite = 1; tok = val; continue; }
        tok = val;
    }
    stop_flag = 0;
    searching = 1;
    pthread_attr_t attr;   /* deep searches keep move lists on the stack: ask for 64 MB */
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64u << 20);
    if (pthread_create(&thread, &attr, search_thread, NULL) != 0) pthread_create(&thread, NULL, search_thread, NULL);
    pthread_attr_destroy(&attr);
}

int uci_loop(void) {
    char line[16384];
    search_init(hash_mb);
    game->select(variant_name);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *cmd = line;
        while (*cmd == ' ') cmd++;
        if (!strcmp(cmd, "uci")) {
            say("id name maxima-engine 1.0");
            say("id author the maxima-board developers");
            char buf[2048], *o = buf;
            o += sprintf(o, "option name UCI_Variant type combo default maxima");
            for (int i = 0; i < NVARIANTS; i++) o += sprintf(o, " var %s", VARIANTS[i].name);
            o += sprintf(o, " var optima var optima-9x9");
            say(buf);
            say("option name Level type spin default 10 min 1 max 10");
            say("option name Hash type spin default 16 min 1 max 1024");
            say("option name Seed type spin default 0 min 0 max 2147483647");
            say("option name EvalTerms type spin default 7 min 0 max 15");
            say("uciok");
        } else if (!strcmp(cmd, "isready")) say("readyok");
        else if (!strcmp(cmd, "ucinewgame")) { stop_search(); game->clear(); }
        else if (!strncmp(cmd, "setoption", 9)) { stop_search(); set_option(cmd + 9); }
        else if (!strncmp(cmd, "position", 8)) { stop_search(); set_position(cmd + 8); }
        else if (!strncmp(cmd, "go", 2) && (cmd[2] == 0 || cmd[2] == ' ')) { stop_search(); go(cmd + 2); }
        else if (!strcmp(cmd, "stop")) { stop_flag = 1; wait_search(); }
        else if (!strcmp(cmd, "quit")) { stop_flag = 1; wait_search(); return 0; }
        else if (!strcmp(cmd, "d")) { char fen[2048]; game->fen(fen); printf("info string fen %s\n", fen); fflush(stdout); }
        else if (*cmd) { printf("info string unknown command %s\n", cmd); fflush(stdout); }
    }
    stop_flag = 1;
    wait_search();
    return 0;
}
