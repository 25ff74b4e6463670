// libbsd: the C core's source of arc4random on Linux.
#include <bsd/stdlib.h>
