#include "engine.h"
volatile int stop_flag;
