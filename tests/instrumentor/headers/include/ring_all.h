/* Includes once.h again, beside itself. */
#include "once.h"
