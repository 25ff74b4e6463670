// The target's code is its header's static inline functions; this unit only makes it a target.
#include "code_placement.h"
