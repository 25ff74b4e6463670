#include "Canary.h"

Canary *_Nonnull canaryMake() { return new Canary{{0, 0}, 1}; }

void canaryRetain(Canary *canary) { ++canary->references; }

void canaryRelease(Canary *canary) {
    if (--canary->references == 0) delete canary;
}
