// Declarations only (include/CFuzzDriver.h): libFuzzer defines the driver; SwiftPM needs a source to build.
#include "CFuzzDriver.h"
