/* simdjson is C++ only; this module exists to carry its pkg-config flags to CSimdJSON. */
