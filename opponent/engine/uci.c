#include "engine.h"
int uci_loop(void) { return 0; }
