#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt, LLVM 11 and later): SwiftPM gives an executable target an entry point of its
// own (`<target>_main`), so the target's entry point starts libFuzzer through this instead of libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
